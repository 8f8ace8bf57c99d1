import EventLog
import Foundation
import Logbook

/// The checking pass of `logbook import`: every line parses (once: what it holds goes to an
/// ``ImportSpill`` for the writing pass), and every event id is either new to the log and the
/// file, or the same event already in the log (same stream and version — a repeated import).
/// Anything else names the line, before anything is written.
struct ImportCheck {
    let source: LineSource
    let log: any EventStore
    /// Ids are looked up in the log this many at a time (one read each).
    private static let lookupBatch = 4_096

    /// Checks the whole file; returns its events, held for writing.
    ///
    /// Blocks are parsed one ahead: while the lines of one block are checked and held (in file
    /// order, on this task), the next block's lines are parsed, so the two cores are not idle in
    /// turn. The first line in file order that fails is still the one named.
    func run() async throws -> ImportSpill {
        var seen: [UUID: Int] = [:]
        var pending: [(line: Int, event: WireEvent)] = []
        let spill = ImportSpill()
        var ahead: (block: LineSource.Block, parsed: Task<[Result<WireEvent, LogbookError>], Never>)?
        func take(_ block: LineSource.Block, _ parsed: [Result<WireEvent, LogbookError>]) async throws {
            for (line, parsed) in zip(block.lines, parsed) {
                let number = line.number
                let event: WireEvent
                switch parsed {
                case .success(let parsed): event = parsed
                case .failure(let error): throw CLIError("\(source.name):\(number): \(error)")
                }
                if let earlier = seen.updateValue(number, forKey: event.eventId) {
                    throw CLIError("\(source.name):\(number): event id \(Self.text(event.eventId)) is also the id of line \(earlier); an id names one event. Nothing was imported.")
                }
                try spill.append(event)
                pending.append((number, event))
                if pending.count == Self.lookupBatch { try await checkAgainstLog(pending); pending.removeAll(keepingCapacity: true) }
            }
        }
        do {
            try await source.forEachBlock { block in
                let parsing = Task { await Self.parse(block) }
                if let previous = ahead { try await take(previous.block, await previous.parsed.value) }
                ahead = (block, parsing)
            }
            if let last = ahead { try await take(last.block, await last.parsed.value) }
            try await checkAgainstLog(pending)
        } catch {
            ahead?.parsed.cancel()
            spill.discard()
            throw error
        }
        return spill
    }

    /// Parses a block's lines, the two halves side by side (the machine's second core), in order.
    /// The first half reads a copy of its own bytes: two threads retaining one array contend on its count.
    private static func parse(_ block: LineSource.Block) async -> [Result<WireEvent, LogbookError>] {
        func parse(_ bytes: [UInt8], _ lines: ArraySlice<(number: Int, range: Range<Int>)>) -> [Result<WireEvent, LogbookError>] {
            lines.map { line in Result { () throws(LogbookError) in try WireEvent(jsonBytes: bytes, in: line.range) } }
        }
        let middle = block.lines.count / 2
        let split = middle > 0 ? block.lines[middle - 1].range.upperBound : 0
        async let first = parse(Array(block.bytes[..<split]), block.lines[..<middle])
        let second = parse(block.bytes, block.lines[middle...])
        return await first + second
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
