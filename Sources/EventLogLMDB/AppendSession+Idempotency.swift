import BinaryCoding
import EventLog
import Foundation
import LMDB

/// Event ids are unique in the whole log. An append whose ids are already there is either the
/// same append sent again — all of its ids, in the same stream, in order at consecutive versions —
/// answered with the original positions while nothing is written, however much was appended
/// since; or refused: ids of another stream are ``EventStoreError/Code/eventIdInUse`` (naming
/// where the id lives), a mix of repeated and new ids, or repeated ids out of order, an
/// ``EventStoreError/Code/idempotencyConflict``.
extension AppendSession {
    /// The append's events whose ids the log already holds, by offset in the append: none for
    /// almost every append, which then costs at most one id-index probe per event (none for a
    /// time-ordered id newer than every one indexed) and no result built.
    mutating func repeatedIds(of append: PreparedBatch.Append, in batch: PreparedBatch) throws -> [(offset: Int, position: UInt64)] {
        var found: [(offset: Int, position: UInt64)] = []
        for (offset, eventIndex) in append.events.enumerated() {
            if let position = try position(of: batch.events[eventIndex]) { found.append((offset, position)) }
        }
        return found
    }

    /// The answer to an append some of whose ids (`found`, never empty) the log already holds:
    /// the original positions for a retry, or why not.
    func previousAppend(
        matching append: PreparedBatch.Append, of batch: PreparedBatch, found: [(offset: Int, position: UInt64)]
    ) throws -> Result<AppendResult, EventStoreError> {
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
        let stored = try found.map { item in
            try reader.withLinkedRecord(at: item.position) { _, header in (stream: header.streamNumber, version: header.streamVersion) }
        }
        func eventId(_ offset: Int) -> UUID { batch.events[append.events.lowerBound + offset].eventId }
        let requested = try NameResolver.number(.stream, append.stream, databases: databases, in: txn)
        if let index = stored.indices.first(where: { stored[$0].stream != requested }) {
            let elsewhere = try reader.resolver.name(.stream, stored[index].stream, in: txn, at: found[index].position)
            return .failure(.eventIdInUse(
                eventId(found[index].offset), stream: elsewhere, position: Position(found[index].position),
                reason: "an id names one event of the whole log, and event \(found[index].offset) of this append to \"\(append.stream)\" reuses it"))
        }
        guard found.count == append.events.count else {
            return .failure(.idempotencyConflict(
                stream: append.stream, eventId: eventId(found[0].offset),
                reason: "the stream holds \(found.count) of the append's \(append.events.count) events; a retry repeats all of them, a new append none"))
        }
        for (offset, item) in stored.enumerated() where item.version != stored[0].version + UInt64(offset) {
            return .failure(.idempotencyConflict(
                stream: append.stream, eventId: eventId(offset),
                reason: "event \(offset) is at version \(item.version), not \(stored[0].version + UInt64(offset)): not the original order"))
        }
        return .success(AppendResult(
            firstPosition: Position(found[0].position), lastPosition: Position(found[found.count - 1].position),
            streamVersion: stored[stored.count - 1].version, alreadyWritten: true))
    }

    /// The position of the event with `event`'s id, if the log (this transaction included) has one.
    /// A time-ordered id newer than every one indexed before this transaction's open run needs no
    /// read: the common case, even when concurrent appenders deliver ids a little out of order.
    mutating func position(of event: PreparedBatch.Event) throws -> UInt64? {
        let key = event.key
        if key.isTimeOrdered {
            if state.maxOrderedId.map({ key > $0 }) ?? true { return nil }
            // Above the open run's floor an id is in the run, or in the journal if it came too far out of order.
            if run != nil, runFloor.map({ key > $0 }) ?? true { return runIds.position(of: key) ?? journalIndex[key] }
            if let run = try OrderedIdRuns.run(atOrBefore: key, in: txn, databases) {
                // A run this transaction wrote has its ids in `runIds`; a committed one, in the writer's cache or its records.
                let position = run.firstPosition > state.committedHead
                    ? runIds.position(of: key)
                    : try state.committedRunIds.position(of: key, in: run, committedHead: state.committedHead, txn, databases)
                if let position { return position }
            }
        }
        if let position = journalIndex[key] ?? journal.committedPosition(of: key) { return position }
        var bytes = ByteWriter(capacity: 16)
        bytes.uuid(event.eventId)
        return try txn.get(databases.otherIds, key: bytes.bytes.span) { span in try IdIndex.position(span) }
    }

    /// Indexes the id of the event just written at `position`: a time-ordered id newer than
    /// every id indexed before the open run joins the run (``OrderedIdRuns``) — or starts one —
    /// and any other id goes to the journal.
    mutating func index(_ event: PreparedBatch.Event, at position: UInt64) throws {
        let key = event.key
        // An open run holds every id indexed since it began, so it ends where its positions do.
        if let open = run, open.firstPosition + UInt64(open.count) != position { try closeRun() }
        if key.isTimeOrdered {
            // A run may take ids a little out of order (concurrent appenders) while it is short:
            // finding an id in a disordered run reads its records one by one. So a disordered run
            // ends at the limit, and a long ascending one (binary search) stays ascending: an id
            // that arrives out of order then goes to the journal (imports of shuffled ids).
            if let open = run, !open.ascending, open.count >= OrderedIdRuns.maxDisorderedCount { try closeRun() }
            let floor = run != nil ? runFloor : state.maxOrderedId
            let outOfOrder = run.map { key < $0.lastKey && $0.count >= OrderedIdRuns.maxDisorderedCount } ?? false
            if floor.map({ key > $0 }) ?? true, !outOfOrder {
                if run != nil {
                    run!.extend(key)
                } else {
                    runFloor = state.maxOrderedId
                    run = OrderedIdRuns.Run(key, at: position)
                }
                runIds.add(key, at: position)
                if state.maxOrderedId.map({ key > $0 }) ?? true { state.maxOrderedId = key }
                return
            }
        }
        idScratch.bytes.removeAll(keepingCapacity: true)
        idScratch.uuid(event.eventId)
        try idJournal.put(key: position, value: idScratch.bytes.span, options: .append)
        journalEntries.append((event.key, position))
        journalIndex[event.key] = position
    }

    /// Writes the transaction's open run of time-ordered ids.
    mutating func closeRun() throws {
        try run?.write(orderedIds)
        run = nil
    }

    /// Moves every journal entry — committed ones and this transaction's — into `ids.other` in
    /// key order, and empties the journal.
    mutating func foldJournal() throws {
        var entries = journal.entries + journalEntries
        entries.sort { $0.0 < $1.0 }
        try txn.withCursor(databases.otherIds) { cursor in
            var bytes = ByteWriter(capacity: 24)
            for (key, position) in entries {
                bytes.bytes.removeAll(keepingCapacity: true)
                IdIndex.write(key, into: &bytes)
                IdIndex.write(position, into: &bytes)
                try cursor.put(key: bytes.bytes.span.extracting(0..<16), value: bytes.bytes.span.extracting(16..<24))
            }
        }
        try txn.clear(databases.idJournal)
        folded = true
    }
}

/// The entries of the id index: a key as the id's 16 bytes, a value as a position in 8
/// little-endian bytes.
enum IdIndex {
    static func write(_ key: UUIDKey, into writer: inout ByteWriter) {
        for shift in stride(from: 56, through: 0, by: -8) { writer.byte(UInt8(truncatingIfNeeded: key.high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { writer.byte(UInt8(truncatingIfNeeded: key.low >> UInt64(shift))) }
    }

    static func write(_ position: UInt64, into writer: inout ByteWriter) {
        for shift in stride(from: 0, to: 64, by: 8) { writer.byte(UInt8(truncatingIfNeeded: position >> UInt64(shift))) }
    }

    static func position(_ span: Span<UInt8>) throws -> UInt64 {
        guard span.count == 8 else { throw EventStoreError.storage("an id index entry of \(span.count) bytes") }
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(span[index]) }
        return value
    }
}
