/// The one error type every parser in this module throws for damaged or unsupported input.
///
/// Binary formats fill `byteOffset`; text formats fill `line` and `column` (1-based) and,
/// where cheap, `byteOffset` too.
public struct WorkoutFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of damage was found.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// Stable machine-readable name.
        public var rawValue: String
        /// Wraps a raw name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw name.
        public var description: String { rawValue }

        /// The input ended in the middle of a structure.
        public static let truncated = Code(rawValue: "truncated")
        /// A checksum (FIT header/file CRC, zip/gzip CRC-32) did not match.
        public static let badCRC = Code(rawValue: "badCRC")
        /// A file header is not what the format requires.
        public static let badHeader = Code(rawValue: "badHeader")
        /// A FIT data message uses a local message type that was never defined.
        public static let undefinedLocalMessage = Code(rawValue: "undefinedLocalMessage")
        /// A FIT structure is inconsistent (bad architecture byte, impossible sizes).
        public static let malformedFIT = Code(rawValue: "malformedFIT")
        /// The XML is not well formed.
        public static let malformedXML = Code(rawValue: "malformedXML")
        /// The CSV is not well formed or has too few columns.
        public static let malformedCSV = Code(rawValue: "malformedCSV")
        /// A zip archive's directory or entry headers are inconsistent.
        public static let malformedZip = Code(rawValue: "malformedZip")
        /// Deflate-compressed data is invalid.
        public static let malformedDeflate = Code(rawValue: "malformedDeflate")
        /// The content is valid but not something this module reads.
        public static let unsupported = Code(rawValue: "unsupported")
        /// A size limit meant to keep memory bounded was exceeded.
        public static let limitExceeded = Code(rawValue: "limitExceeded")
        /// Reading took longer than the caller's deadline (``ParseOptions/readDeadline``).
        public static let timeLimitExceeded = Code(rawValue: "timeLimitExceeded")
        /// The file could not be opened or read.
        public static let io = Code(rawValue: "io")
    }

    /// What went wrong.
    public var code: Code
    /// Last path component of the file (or a caller-given name).
    public var fileName: String
    /// Byte offset in the (decompressed) input where the problem was found.
    public var byteOffset: Int64?
    /// 1-based line for text formats.
    public var line: Int?
    /// 1-based column (in bytes) for text formats.
    public var column: Int?
    /// A sentence for people.
    public var message: String

    /// Creates an error.
    public init(code: Code, fileName: String, byteOffset: Int64? = nil, line: Int? = nil,
                column: Int? = nil, message: String) {
        self.code = code
        self.fileName = fileName
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.message = message
    }

    /// "file.fit: truncated at byte 123: sentence".
    public var description: String {
        var place = ""
        if let line {
            place = " at line \(line)" + (column.map { ", column \($0)" } ?? "")
        } else if let byteOffset {
            place = " at byte \(byteOffset)"
        }
        return "\(fileName): \(code.rawValue)\(place): \(message)"
    }
}
