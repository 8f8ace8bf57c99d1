/// Why a call into libsodium did not do what was asked: what was being done, and a code callers
/// can `catch` by name (a struct of static constants, so codes can be added without breaking
/// anyone).
public struct SodiumError: Error, Hashable, CustomStringConvertible {
    /// Which kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// `sodium_init` failed: libsodium cannot be used in this process.
        public static let unavailable = Code(rawValue: "unavailable")
        /// A key of another length than ``SymmetricKey/byteCount``.
        public static let wrongKeyLength = Code(rawValue: "wrong key length")
        /// A nonce of another length than the construction takes.
        public static let wrongNonceLength = Code(rawValue: "wrong nonce length")
        /// A sealed message that does not open: its tag does not match the key, nonce, additional
        /// data and bytes given, or it is shorter than a tag.
        public static let authenticationFailed = Code(rawValue: "authentication failed")
        /// A message longer than the construction can take.
        public static let messageTooLong = Code(rawValue: "message too long")
        /// This CPU lacks the instructions the construction needs (AES-256-GCM: AES-NI and CLMUL).
        public static let unsupportedHardware = Code(rawValue: "unsupported hardware")
        /// libsodium answered a non-zero code where it never should (encryption itself).
        public static let failed = Code(rawValue: "failed")
    }

    /// Which kind of failure.
    public let code: Code
    /// What was being done, and the numbers that matter (lengths, libsodium's return code).
    public let detail: String

    /// An error of `code`, with what was being done.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "libsodium: \(code): \(detail)" }
}
