import Logging
import Synchronization

/// Every line a ``CollectingLogHandler`` was given.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

/// Keeps every line logged (message and metadata), to check what the log shows.
struct CollectingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.append("\(event.message) \(all.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))")
    }
}
