/// A misuse of the wrapper that LMDB itself would not report clearly (or would answer with a crash).
public enum LMDBUsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The environment at this path is already open in this process; LMDB forbids a second handle.
    case alreadyOpenInProcess(path: String)
    /// A transaction or cursor was used after its closure returned.
    case transactionFinished
    /// A write was attempted on an environment opened read-only.
    case readOnlyEnvironment(path: String)
    /// The environment was used after ``Environment/close()``.
    case environmentClosed(path: String)

    public var description: String {
        switch self {
        case .alreadyOpenInProcess(let path):
            "the LMDB environment at \(path) is already open in this process (LMDB forbids opening it twice)"
        case .transactionFinished:
            "a transaction or cursor was used after its closure returned"
        case .readOnlyEnvironment(let path):
            "the LMDB environment at \(path) is open read-only"
        case .environmentClosed(let path):
            "the LMDB environment at \(path) is closed"
        }
    }
}
