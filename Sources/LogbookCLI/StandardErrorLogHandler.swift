import Foundation
import Logging

/// The server's log handler: one line per message on standard error, in swift-log's stream format
/// (`<time> <level> <label>: <key=value …> [<source>] <message>`, the time in UTC).
///
/// Metadata is kept as given and formatted only when a message is written. The server sets a
/// request id on every request's logger; a handler that formats metadata whenever it is set
/// (as swift-log's `StreamLogHandler` does) spends that work on every request, though at the
/// server's usual levels almost none of them logs anything.
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// Where each line goes (standard error; a test passes its own).
    let write: @Sendable (String) -> Void

    init(label: String, metadataProvider: Logger.MetadataProvider? = nil,
         write: @escaping @Sendable (String) -> Void = { line in
             // A line that cannot be written (standard error closed) is dropped: logging never stops the server.
             try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
         }) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var line = Self.timestamp(Date()) + " \(event.level) \(label):"
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        line += " [\(event.source)] \(event.message)\n"
        write(line)
    }

    /// `yyyy-mm-ddThh:mm:ssZ`, in UTC whatever the process's time zone.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
