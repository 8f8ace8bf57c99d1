import Foundation
import Logbook

/// How read commands print: JSON (stable, sorted keys) or lines for people.
enum Output {
    static func print<T: Encodable>(_ items: [T], json: Bool, line: (T) -> String) throws {
        if json {
            Swift.print(try jsonText(items))
        } else {
            for item in items { Swift.print(line(item)) }
        }
    }

    /// Writes a line to standard output at once (unbuffered), for messages a waiting script reads.
    static func announce(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func jsonText<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar: Sendable {
    private let enabled: Bool

    init(enabled: Bool) { self.enabled = enabled && isatty(STDERR_FILENO) == 1 }

    func update(_ progress: RebuildProgress) {
        guard enabled, progress.head > 0 else { return }
        let fraction = min(1, Double(progress.position) / Double(progress.head))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let text = "\r\(bar) \(Int(fraction * 100))%  \(progress.position)/\(progress.head) events"
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// A count of work done on standard error (`12,000/50,000 events imported`), only on a terminal.
final class CountingProgress: Sendable {
    private let total: UInt64
    private let noun: String
    private let enabled: Bool

    init(total: UInt64, enabled: Bool, noun: String) {
        self.total = total
        self.noun = noun
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func update(_ done: UInt64) {
        guard enabled else { return }
        let percent = total == 0 ? 100 : Int(min(done, total) * 100 / total)
        FileHandle.standardError.write(Data("\r\(done)/\(total) \(noun) (\(percent)%)".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
