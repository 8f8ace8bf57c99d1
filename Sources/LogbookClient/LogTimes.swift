public import Foundation
public import OpenAPIRuntime

/// The log's times as the API writes them: RFC 3339, with a fraction of a second (up to six digits)
/// or without one. The runtime's default transcoder reads only the latter.
public struct LogTimes: DateTranscoder {
    private let fractional = ISO8601DateTranscoder.iso8601WithFractionalSeconds
    private let whole = ISO8601DateTranscoder.iso8601

    /// Reads both forms; writes the fractional one.
    public init() {}

    public func encode(_ date: Date) throws -> String { try fractional.encode(date) }

    public func decode(_ text: String) throws -> Date {
        if let date = try? fractional.decode(text) { return date }
        return try whole.decode(text)
    }
}
