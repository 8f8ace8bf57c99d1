import CZlib

/// A zlib call that did not succeed: zlib's return code, zlib's own message, and which call it was.
public struct ZlibError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A zlib return code, named so callers can `catch` one by name.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// zlib's integer code (`Z_DATA_ERROR` and so on).
        public var rawValue: Int32
        /// Wraps a zlib code.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// zlib's text for the code (`zError`).
        public var description: String { String(cString: zError(rawValue)) }

        /// The input is not valid deflate data (`Z_DATA_ERROR`).
        public static let dataError = Code(rawValue: Z_DATA_ERROR)
        /// zlib could not allocate memory (`Z_MEM_ERROR`).
        public static let memoryError = Code(rawValue: Z_MEM_ERROR)
        /// The stream state was inconsistent (`Z_STREAM_ERROR`).
        public static let streamError = Code(rawValue: Z_STREAM_ERROR)
        /// The linked zlib is incompatible with the header this was built with (`Z_VERSION_ERROR`).
        public static let versionError = Code(rawValue: Z_VERSION_ERROR)
        /// The stream asks for a preset dictionary (`Z_NEED_DICT`), which raw deflate never does.
        public static let needsDictionary = Code(rawValue: Z_NEED_DICT)
    }

    /// What zlib returned.
    public var code: Code
    /// zlib's message for this stream (`msg`), else its text for the code (`zError`).
    public var message: String
    /// The zlib call, e.g. "inflate".
    public var operation: String

    /// Creates an error.
    public init(code: Code, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = operation
    }

    /// "inflate: invalid distance too far back (Z_DATA_ERROR -3)".
    public var description: String { "\(operation): \(message) (zlib code \(code.rawValue))" }
}
