import EventLog
import Foundation
import NIOCore
import PostgresNIO

/// One commit of a batch of independent appends, each with an optional checkpoint and an optional
/// answer to keep: calls of the SQL function `logbook.append` (one round trip each, the column
/// arrays of many requests), in one transaction (see ``AppendTransaction``).
struct AppendCall {
    struct Item {
        var request: AppendRequest
        var checkpoint: Checkpoint?
        /// A keyed request's answer, kept in the same commit (``SharedLog/append(batch:keeping:)``).
        var keep: AnswerToKeep? = nil
    }

    let items: [Item]
    let recordedAt: Timestamp

    /// The items in calls of the SQL function: items that repeat an event id of an earlier item
    /// go in a later call (the function needs each id once per call), so a retry in the same
    /// group commit sees what the first one wrote (the calls share one transaction).
    var parts: [ArraySlice<Item>] {
        var parts: [ArraySlice<Item>] = []
        var start = 0
        var ids = Set<UUID>()
        for (index, item) in items.enumerated() {
            if item.request.events.contains(where: { ids.contains($0.eventId) }) {
                parts.append(items[start..<index])
                start = index
                ids.removeAll(keepingCapacity: true)
            }
            for event in item.request.events { ids.insert(event.eventId) }
        }
        if start < items.count { parts.append(items[start...]) }
        return parts
    }

    /// The query calling `logbook.append` for `items`: one row of arrays, one entry per request.
    func query(_ items: ArraySlice<Item>) -> PostgresQuery {
        var rStream: [String] = [], rExpected: [Int64] = [], rCount: [Int32] = []
        var rSubject: [String] = [], rSubjectLast: [Int64] = []
        var rCheckpoint: [String] = [], rCheckpointPosition: [Int64] = [], rCheckpointData: [ByteBuffer] = []
        var e = EventColumns()
        var eRequest: [Int32] = [], eOrdinal: [Int32] = []
        for (requestIndex, item) in items.enumerated() {
            let request = item.request
            rStream.append(request.stream)
            switch request.expectedVersion {
            case .any: rExpected.append(-1)
            case .noStream: rExpected.append(-2)
            case .streamExists: rExpected.append(-3)
            case .exactly(let version): rExpected.append(Int64(clamping: version))
            }
            rCount.append(Int32(request.events.count))
            rSubject.append(request.subjectCondition?.subject ?? "")
            rSubjectLast.append(request.subjectCondition.map { Int64(clamping: $0.lastPosition.rawValue) } ?? -1)
            rCheckpoint.append(item.checkpoint?.name ?? "")
            rCheckpointPosition.append(Int64(clamping: item.checkpoint?.position.rawValue ?? 0))
            rCheckpointData.append(ByteBuffer(bytes: item.checkpoint?.data ?? []))
            for (ordinal, event) in request.events.enumerated() {
                let recorded = event.recordedAt ?? recordedAt
                eRequest.append(Int32(requestIndex + 1))
                eOrdinal.append(Int32(ordinal + 1))
                e.append(stream: request.stream, header: event.header, recordedAt: recorded, metadata: event.metadata, payload: event.payload)
            }
        }
        return """
            SELECT outcomes, first_positions, last_positions, stream_versions, event_indexes, other_streams, \
            other_positions, details FROM logbook.append(\(rStream), \(rExpected), \(rCount), \(rSubject), \(rSubjectLast), \
            \(rCheckpoint), \(rCheckpointPosition), \(rCheckpointData), \(eRequest), \(eOrdinal), \(e.ids), \(e.types), \(e.schemas), \
            \(e.subjects), \(e.occurred), \(e.occurredOffsets), \(e.recorded), \(e.recordedOffsets), \(e.correlations), \(e.causations), \
            \(e.metadata), \(e.payloads), \(e.checksums))
            """
    }

    /// The results of `items` from the function's answer, `rows`.
    static func results(_ rows: [PostgresRow], for items: ArraySlice<Item>) throws -> [Result<AppendResult, EventStoreError>] {
        // One row of arrays, one entry per request (see the function's comment for the sentinels).
        var answer: ([Int16], [Int64], [Int64], [Int64], [Int32], [String], [Int64], [Int64])?
        for row in rows {
            answer = try row.decode(([Int16], [Int64], [Int64], [Int64], [Int32], [String], [Int64], [Int64]).self)
        }
        let items = Array(items)
        guard let (outcomes, firsts, lasts, versions, eventIndexes, otherStreams, otherPositions, details) = answer,
              [firsts.count, lasts.count, versions.count, eventIndexes.count, otherStreams.count, otherPositions.count, details.count]
                .allSatisfy({ $0 == outcomes.count }), outcomes.count == items.count else {
            throw EventStoreError.storage("logbook.append answered \(answer?.0.count ?? 0) results for \(items.count) requests")
        }
        return try items.indices.map { index in
            try Self.outcome(
                outcomes[index], items[index].request, first: firsts[index], last: lasts[index],
                version: versions[index] < 0 ? nil : versions[index], eventIndex: eventIndexes[index] < 0 ? nil : eventIndexes[index],
                otherStream: otherStreams[index].isEmpty ? nil : otherStreams[index], otherPosition: otherPositions[index],
                detail: details[index])
        }
    }

    /// The log's answer for one request from the function's row (see `Schemas/postgres/001_log.sql`).
    static func outcome(
        _ outcome: Int16, _ request: AppendRequest, first: Int64?, last: Int64?, version: Int64?, eventIndex: Int32?,
        otherStream: String?, otherPosition: Int64?, detail: Int64?
    ) throws -> Result<AppendResult, EventStoreError> {
        func position(_ value: Int64?) -> Position { Position(UInt64(max(value ?? 0, 0))) }
        func eventId() -> UUID {
            let index = Int(eventIndex ?? 0)
            return request.events.indices.contains(index) ? request.events[index].eventId : request.events[0].eventId
        }
        switch outcome {
        case 0, 1:
            guard let first, let last, let version else { throw EventStoreError.storage("logbook.append wrote without positions") }
            return .success(AppendResult(
                firstPosition: position(first), lastPosition: position(last), streamVersion: UInt64(version), alreadyWritten: outcome == 1))
        case 2:
            return .failure(.wrongExpectedVersion(stream: request.stream, expected: request.expectedVersion, actual: version.map { UInt64($0) }))
        case 3:
            return .failure(.eventIdInUse(
                eventId(), stream: otherStream ?? "", position: position(otherPosition),
                reason: "an id names one event of the whole log, and event \(eventIndex ?? 0) of this append to \"\(request.stream)\" reuses it"))
        case 4:
            return .failure(.idempotencyConflict(
                stream: request.stream, eventId: eventId(),
                reason: "the stream holds \(detail ?? 0) of the append's \(request.events.count) events; a retry repeats all of them, a new append none"))
        case 5:
            return .failure(.idempotencyConflict(
                stream: request.stream, eventId: eventId(),
                reason: "event \(eventIndex ?? 0) is at version \(detail ?? 0): not the original order"))
        case 6:
            let condition = request.subjectCondition ?? SubjectCondition(subject: "", lastPosition: .start)
            return .failure(.subjectMoved(
                subject: condition.subject, expected: condition.lastPosition, actual: (detail ?? 0) > 0 ? position(detail) : nil))
        default:
            throw EventStoreError.storage("logbook.append answered an unknown outcome \(outcome)")
        }
    }
}
