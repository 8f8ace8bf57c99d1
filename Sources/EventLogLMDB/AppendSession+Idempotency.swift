import EventLog
import Foundation

/// Recognising a retried append: its event ids are already the stream's events at some version.
///
/// With an exact expected version (or `no_stream`) the check is exact at any depth: the events
/// after the expected version are compared. With `any` or `stream_exists` the stream head's
/// fingerprints of its last ``ChainHead/fingerprintWindow`` events are consulted first, and only
/// a fingerprint match costs a read. No global index of event ids exists, so an append batch does
/// not dirty pages for idempotency.
extension AppendSession {
    func previousAppend(
        matching append: PreparedBatch.Append, of batch: PreparedBatch, headIndex: Int, current: UInt64
    ) throws -> Result<AppendResult, EventStoreError>? {
        if append.expectedVersion == .any || append.expectedVersion == .streamExists {
            // The common case: no id of the append is among the stream's latest fingerprints.
            var mayRepeat = false
            for index in append.events where state.streams.mayContain(headIndex, fingerprint: batch.events[index].key.fingerprint) {
                mayRepeat = true
                break
            }
            guard mayRepeat else { return nil }
        }
        let head = state.streams.head(headIndex)
        let ids = append.events.map { batch.events[$0].key }
        let eventIds = append.events.map { batch.events[$0].eventId }
        let request = (stream: append.stream, expectedVersion: append.expectedVersion, eventIds: eventIds)
        let start: UInt64
        switch request.expectedVersion {
        case .exactly(let version):
            guard version < current else { return nil }
            start = version + 1
        case .noStream:
            start = 0
        case .any, .streamExists:
            guard let found = try windowMatch(ids, head: head, current: current, request: request) else { return nil }
            switch found {
            case .success(let version): start = version
            case .failure(let error): return .failure(error)
            }
        }
        let last = min(start + UInt64(ids.count) - 1, current)
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
        guard let lastPosition = try reader.locate(version: last, in: .stream, head: head) else { return nil }
        var stored: [(id: UUIDKey, position: UInt64)] = []
        try reader.walkBack(from: .init(version: last, position: lastPosition), count: last - start + 1, in: .stream) { _, header, position in
            stored.append((UUIDKey(header.eventId), position))
        }
        stored.reverse()
        guard stored.first?.id == ids[0] else {
            if case .exactly = request.expectedVersion { return nil }
            if request.expectedVersion == .noStream { return nil }
            return .failure(.idempotencyConflict(
                stream: request.stream, eventId: request.eventIds[0],
                reason: "its events are in the stream, but not starting with the append's first event"))
        }
        for (index, id) in ids.enumerated() {
            guard index < stored.count else {
                return .failure(.idempotencyConflict(
                    stream: request.stream, eventId: request.eventIds[0],
                    reason: "the stream holds only the first \(stored.count) of its \(ids.count) events"))
            }
            guard stored[index].id == id else {
                return .failure(.idempotencyConflict(
                    stream: request.stream, eventId: request.eventIds[0],
                    reason: "event \(index) differs from the stream's event at version \(start + UInt64(index))"))
            }
        }
        return .success(AppendResult(
            firstPosition: Position(stored[0].position), lastPosition: Position(stored[stored.count - 1].position),
            streamVersion: last, alreadyWritten: true))
    }

    /// The version where the append would have started, if one of its ids is among the stream's
    /// latest events; a conflict if it matches somewhere that cannot be a repeat.
    private func windowMatch(
        _ ids: [UUIDKey], head: ChainHead, current: UInt64,
        request: (stream: String, expectedVersion: ExpectedVersion, eventIds: [UUID])
    ) throws -> Result<UInt64, EventStoreError>? {
        let fingerprints = head.recentFingerprints
        guard !fingerprints.isEmpty else { return nil }
        let windowStart = current + 1 - UInt64(fingerprints.count)
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
        for (index, id) in ids.enumerated() {
            let fingerprint = id.fingerprint
            for (slot, stored) in fingerprints.enumerated() where stored == fingerprint {
                let version = windowStart + UInt64(slot)
                guard let position = try reader.locate(version: version, in: .stream, head: head) else { continue }
                let storedId = try reader.withLinkedRecord(at: position) { _, header in UUIDKey(header.eventId) }
                guard storedId == id else { continue }
                guard version >= UInt64(index) else {
                    return .failure(.idempotencyConflict(
                        stream: request.stream, eventId: request.eventIds[index],
                        reason: "it is at version \(version), too early to be event \(index) of a repeated append"))
                }
                return .success(version - UInt64(index))
            }
        }
        return nil
    }
}
