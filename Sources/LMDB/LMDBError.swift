internal import CLMDB
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// An error returned by liblmdb: its return code, LMDB's own message for it, and the call that failed.
///
/// Every non-zero return code of an `mdb_*` call becomes one of these. `MDB_NOTFOUND` never does:
/// lookups answer `nil` or `false` instead.
public struct LMDBError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The return code, comparable with the named constants of ``Code``.
    public let code: Code
    /// The text `mdb_strerror` gives for the code (for system errors, the `strerror` text).
    public let message: String
    /// What was being done, e.g. `"mdb_put(events)"`.
    public let operation: String

    public init(code: Code, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = operation
    }

    init(code rawCode: Int32, operation: String) {
        self.code = Code(rawValue: rawCode)
        self.message = String(cString: mdb_strerror(rawCode))
        self.operation = operation
    }

    public var description: String { "\(operation) failed: \(message) (LMDB code \(code.rawValue))" }

    /// An LMDB or system return code. Named constants cover every code LMDB defines.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let keyExists = Code(rawValue: MDB_KEYEXIST)
        public static let notFound = Code(rawValue: MDB_NOTFOUND)
        public static let pageNotFound = Code(rawValue: MDB_PAGE_NOTFOUND)
        public static let corrupted = Code(rawValue: MDB_CORRUPTED)
        public static let panic = Code(rawValue: MDB_PANIC)
        public static let versionMismatch = Code(rawValue: MDB_VERSION_MISMATCH)
        public static let invalid = Code(rawValue: MDB_INVALID)
        public static let mapFull = Code(rawValue: MDB_MAP_FULL)
        public static let databasesFull = Code(rawValue: MDB_DBS_FULL)
        public static let readersFull = Code(rawValue: MDB_READERS_FULL)
        public static let tlsFull = Code(rawValue: MDB_TLS_FULL)
        public static let transactionFull = Code(rawValue: MDB_TXN_FULL)
        public static let cursorFull = Code(rawValue: MDB_CURSOR_FULL)
        public static let pageFull = Code(rawValue: MDB_PAGE_FULL)
        public static let mapResized = Code(rawValue: MDB_MAP_RESIZED)
        public static let incompatible = Code(rawValue: MDB_INCOMPATIBLE)
        public static let badReaderSlot = Code(rawValue: MDB_BAD_RSLOT)
        public static let badTransaction = Code(rawValue: MDB_BAD_TXN)
        public static let badValueSize = Code(rawValue: MDB_BAD_VALSIZE)
        public static let badDatabase = Code(rawValue: MDB_BAD_DBI)
        /// A system error: permission denied (`EACCES`).
        public static let accessDenied = Code(rawValue: EACCES)
        /// A system error: no such file or directory (`ENOENT`).
        public static let noSuchFile = Code(rawValue: ENOENT)
        /// A system error: invalid argument (`EINVAL`; LMDB also answers this to misuse).
        public static let invalidArgument = Code(rawValue: EINVAL)
        /// A system error: the resource is busy or locked (`EAGAIN`, whose number differs between
        /// Linux and Darwin).
        public static let tryAgain = Code(rawValue: EAGAIN)
    }
}

/// Turns an `mdb_*` return code into a thrown ``LMDBError``.
@inline(__always)
func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws(LMDBError) {
    if rc != 0 { throw LMDBError(code: rc, operation: operation()) }
}
