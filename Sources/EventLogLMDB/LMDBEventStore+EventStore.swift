public import EventLog
import BinaryCoding
public import Foundation
/// ``EventStore`` conformance: appends go to the writer thread, reads run in read transactions.
extension LMDBEventStore {
    public func append(
        _ events: [ProposedEvent], to stream: String, expectedVersion: ExpectedVersion, checkpoint: Checkpoint?
    ) async throws -> AppendResult {
        let writer = try requireWriter()
        let request = AppendRequest(stream: stream, events: events, expectedVersion: expectedVersion)
        let results = try await writer.submit([request], checkpoints: checkpoint.map { [$0] } ?? [])
        return try results[0].get()
    }

    public func append(batch requests: [AppendRequest]) async throws -> [Result<AppendResult, EventStoreError>] {
        try await requireWriter().submit(requests)
    }

    public func event(at position: Position) async throws -> RecordedEvent? {
        try withReader { reader in try reader.event(at: position.rawValue) }
    }

    public func locations(ofEvents ids: [UUID]) async throws -> [EventLocation?] {
        try withReader { reader in
            var runs = RunIdCache()
            return try ids.map { try reader.location(ofEvent: $0, journal: idJournal, runs: &runs) }
        }
    }

    public func readStream(_ stream: String, from version: UInt64, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        try withReader { reader in
            guard let head = try reader.head(.stream, name: stream) else { return [] }
            return try reader.readChain(.stream, head: head, fromVersion: version, direction: direction, limit: limit)
        }
    }

    public func streamVersion(_ stream: String) async throws -> UInt64? {
        try withReader { reader in
            guard let head = try reader.head(.stream, name: stream), head.count > 0 else { return nil }
            return head.count - 1
        }
    }

    public func readAll(from position: Position, direction: ReadDirection, limit: Int, filter: EventFilter) async throws -> LogPage {
        try withReader { reader in
            try reader.readAll(
                from: position.rawValue, direction: direction, limit: limit,
                scanLimit: configuration.maxRecordsScannedPerRead, filter: filter)
        }
    }

    public func readSubject(_ subject: String, from position: Position, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        try withReader { reader in try reader.readSubject(subject, from: position, direction: direction, limit: limit) }
    }

    public func headPosition() async throws -> Position {
        try ensureOpen()
        if configuration.readOnly { return Position(try withReader { try $0.headPosition() }) }
        return Position(watcher.head)
    }

    public func subscribe(after position: Position, filter: EventFilter) -> EventSubscription {
        EventSubscription { [self] in LMDBSubscriptionSource(store: self, after: position.rawValue, filter: filter) }
    }

    public func checkpoint(named name: String) async throws -> Checkpoint? {
        try withReader { reader in
            try reader.txn.get(databases.checkpoints, key: name.utf8.span) { span in
                var offset = 0
                do {
                    let position = try ByteReader.varint(span, &offset)
                    return Checkpoint(name: name, position: Position(position), data: span.extracting(offset...).copiedBytes())
                } catch {
                    throw EventStoreError.storage("undecodable checkpoint \"\(name)\": \(error)")
                }
            }
        }
    }

    public func storeCheckpoint(_ checkpoint: Checkpoint) async throws {
        _ = try await requireWriter().submit([], checkpoints: [checkpoint])
    }
}
