import EventLog
import Foundation
import Logbook

/// The checking pass of `logbook import`: every line parses (once: what it holds goes to an
/// ``ImportSpill`` for the writing pass), every event id is either new to the log and the file,
/// or the same event already in the log (same stream and version — a repeated import), and every
/// stream's versions follow on: from the log's next version (or from a version the log holds with
/// the same event), each one once, none skipped. Anything else names the line, before anything
/// is written.
struct ImportCheck {
    let source: LineSource
    let log: any EventStore
    /// Ids are looked up in the log this many at a time (one read each).
    private static let lookupBatch = 4_096

    /// What the file has shown of one stream so far: its first version and the line of each
    /// version from there.
    private struct StreamSeen {
        let firstVersion: UInt64
        var lines: [Int]
        var next: UInt64 { firstVersion + UInt64(lines.count) }
    }

    /// Checks the whole file; returns its events, held for writing.
    ///
    /// Blocks are parsed one ahead: while the lines of one block are checked and held (in file
    /// order, on this task), the next block's lines are parsed, so the two cores are not idle in
    /// turn. The first line in file order that fails is still the one named.
    func run() async throws -> ImportSpill {
        var seen: [UUID: Int] = [:]
        var streams: [String: StreamSeen] = [:]
        var pending: [(line: Int, event: WireEvent, first: Bool)] = []
        var logVersions: [String: UInt64?] = [:]
        let spill = ImportSpill()
        var ahead: (block: LineSource.Block, parsed: Task<[Result<WireEvent, LogbookError>], Never>)?
        /// Refuses line `number`, after the lines before it were checked against the log: the
        /// first line in file order that fails is the one named.
        func refuse(_ number: Int, _ reason: String) async throws -> Never {
            try await checkAgainstLog(pending, versions: &logVersions)
            throw CLIError("\(source.name):\(number): \(reason). Nothing was imported.")
        }
        func take(_ block: LineSource.Block, _ parsed: [Result<WireEvent, LogbookError>]) async throws {
            for (line, parsed) in zip(block.lines, parsed) {
                let number = line.number
                let event: WireEvent
                switch parsed {
                case .success(let parsed): event = parsed
                case .failure(let error): try await refuse(number, "\(error)")
                }
                if let earlier = seen.updateValue(number, forKey: event.eventId) {
                    try await refuse(number, "event id \(Self.text(event.eventId)) is also the id of line \(earlier); an id names one event")
                }
                let first = streams[event.stream] == nil
                if var stream = streams[event.stream] {
                    let version = event.streamVersion
                    if version > stream.next {
                        try await refuse(number, """
                            stream "\(event.stream)" skips from version \(stream.next - 1) (line \(stream.lines.last ?? 0)) to \(version): \
                            version \(stream.next) is missing; a stream's versions follow on
                            """)
                    }
                    if version < stream.firstVersion {
                        try await refuse(number, """
                            stream "\(event.stream)" goes back to version \(version), before version \(stream.firstVersion) of line \
                            \(stream.lines[0]); a stream's events come in the order of their versions
                            """)
                    }
                    if version < stream.next {
                        try await refuse(number, """
                            stream "\(event.stream)" version \(version) is also line \(stream.lines[Int(version - stream.firstVersion)])'s \
                            event; a version holds one event
                            """)
                    }
                    stream.lines.append(number)
                    streams[event.stream] = stream
                } else {
                    streams[event.stream] = StreamSeen(firstVersion: event.streamVersion, lines: [number])
                }
                try spill.append(event)
                pending.append((number, event, first))
                if pending.count == Self.lookupBatch { try await checkAgainstLog(pending, versions: &logVersions); pending.removeAll(keepingCapacity: true) }
            }
        }
        do {
            try await source.forEachBlock { block in
                let parsing = Task { await Self.parse(block) }
                if let previous = ahead { try await take(previous.block, await previous.parsed.value) }
                ahead = (block, parsing)
            }
            if let last = ahead { try await take(last.block, await last.parsed.value) }
            try await checkAgainstLog(pending, versions: &logVersions)
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

    /// Checks `lines` against the log: an id the log holds must be the same event (stream and
    /// version); a stream's first line in the file must follow on from the log's version of it (or
    /// be a version the log holds, with that event), and a version the log holds can only be that
    /// event again. `versions` keeps the log's version of each stream met (looked up once each).
    private func checkAgainstLog(_ lines: [(line: Int, event: WireEvent, first: Bool)], versions: inout [String: UInt64?]) async throws {
        guard !lines.isEmpty else { return }
        let locations = try await log.locations(ofEvents: lines.map(\.event.eventId))
        for (item, location) in zip(lines, locations) {
            let event = item.event
            if let location {
                if location.stream == event.stream, location.streamVersion == event.streamVersion { continue }
                throw CLIError("""
                    \(source.name):\(item.line): event id \(Self.text(event.eventId)) is already the event at position \
                    \(location.position.rawValue) of stream "\(location.stream)" (version \(location.streamVersion)), not of \
                    "\(event.stream)" at version \(event.streamVersion); an id names one event of the whole log. \
                    Nothing was imported.
                    """)
            }
            // A new event: the log must not hold its version, and (for the file's first event of
            // the stream: the file's own order does the rest) must reach the version before it.
            let current: UInt64?
            if let known = versions[event.stream] {
                current = known
            } else {
                current = try await log.streamVersion(event.stream)
                versions[event.stream] = current
            }
            let next = current.map { $0 + 1 } ?? 0
            let holds = current.map { "the log holds stream \"\(event.stream)\" up to version \($0)" } ?? "the log has no stream \"\(event.stream)\""
            if event.streamVersion < next {
                throw CLIError("""
                    \(source.name):\(item.line): stream "\(event.stream)" version \(event.streamVersion) is another event in the log \
                    (\(holds)); a version holds one event. Nothing was imported.
                    """)
            }
            if item.first, event.streamVersion > next {
                throw CLIError("""
                    \(source.name):\(item.line): stream "\(event.stream)" continues at version \(event.streamVersion), but \(holds): \
                    version \(next) is missing; a stream's versions follow on. Nothing was imported.
                    """)
            }
        }
    }

    private static func text(_ id: UUID) -> String { id.uuidString.lowercased() }
}
