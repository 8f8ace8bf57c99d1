import EventLog
import Foundation
import Logbook

/// The first pass of `logbook import`: every line parses, and every event id is either new to
/// the log and the file, or the same event already in the log (same stream and version — a
/// repeated import). Anything else names the line, before anything is written.
struct ImportCheck {
    let source: LineSource
    let log: any EventStore
    /// Ids are looked up in the log this many at a time (one read each).
    private static let lookupBatch = 4_096

    /// Checks the whole file; returns how many events it holds.
    func run() async throws -> UInt64 {
        var seen: [UUID: Int] = [:]
        var pending: [(line: Int, event: WireEvent)] = []
        var count: UInt64 = 0
        try await source.forEachLineAsync { number, line in
            let event: WireEvent
            do {
                event = try WireEvent(jsonLine: line)
            } catch {
                throw CLIError("\(source.name):\(number): \(error)")
            }
            if let earlier = seen.updateValue(number, forKey: event.eventId) {
                throw CLIError("\(source.name):\(number): event id \(Self.text(event.eventId)) is also the id of line \(earlier); an id names one event. Nothing was imported.")
            }
            pending.append((number, event))
            count += 1
            if pending.count == Self.lookupBatch { try await checkAgainstLog(pending); pending.removeAll(keepingCapacity: true) }
        }
        try await checkAgainstLog(pending)
        return count
    }

    private func checkAgainstLog(_ lines: [(line: Int, event: WireEvent)]) async throws {
        guard !lines.isEmpty else { return }
        let locations = try await log.locations(ofEvents: lines.map(\.event.eventId))
        for (item, location) in zip(lines, locations) {
            guard let location else { continue }
            if location.stream == item.event.stream, location.streamVersion == item.event.streamVersion { continue }
            throw CLIError("""
                \(source.name):\(item.line): event id \(Self.text(item.event.eventId)) is already the event at position \
                \(location.position.rawValue) of stream "\(location.stream)" (version \(location.streamVersion)), not of \
                "\(item.event.stream)" at version \(item.event.streamVersion); an id names one event of the whole log. \
                Nothing was imported.
                """)
        }
    }

    private static func text(_ id: UUID) -> String { id.uuidString.lowercased() }
}
