package import Foundation

/// Limits on what one append may carry, checked before anything reaches the writer.
package struct AppendLimits: Sendable {
    package var maxEventBytes: Int

    package init(maxEventBytes: Int) { self.maxEventBytes = maxEventBytes }

    package static let maxStreamIDBytes = 256
    package static let maxSubjectBytes = 256
    package static let maxEventTypeBytes = 128
    package static let maxCheckpointNameBytes = 256
    package static let maxCheckpointDataBytes = 64 << 10

    /// The first thing wrong with `request`, or nil if it may be appended.
    package func problem(with request: AppendRequest) -> EventStoreError? {
        if let reason = Self.nameProblem(request.stream, limit: Self.maxStreamIDBytes) {
            return .invalidStreamID(request.stream, reason: reason)
        }
        guard !request.events.isEmpty else { return .emptyAppend(stream: request.stream) }
        if let condition = request.subjectCondition, let reason = Self.nameProblem(condition.subject, limit: Self.maxSubjectBytes) {
            return .invalidSubject(condition.subject, reason: reason)
        }
        var seen = Set<UUIDKey>()
        if request.events.count > 1 { seen.reserveCapacity(request.events.count) }
        // Each event is borrowed in place, not copied (a copy retains its strings and arrays).
        for index in request.events.indices {
            if let problem = problem(with: request.events[index], seen: &seen, checkingRepeats: request.events.count > 1) { return problem }
        }
        return nil
    }

    /// The first thing wrong with one event of an append; `seen` holds the append's ids before it.
    private func problem(with event: borrowing ProposedEvent, seen: inout Set<UUIDKey>, checkingRepeats: Bool) -> EventStoreError? {
        let id = event.header.eventId
        if id == nilUUID { return .invalidEventID(id.uuidString.lowercased(), reason: "the nil UUID is not an event id") }
        // Nor a correlation or causation id: PostgreSQL's log stores it as no id at all.
        let (correlation, causation) = (event.header.correlationId, event.header.causationId)
        if correlation == nilUUID || causation == nilUUID {
            return .invalidEventID(id.uuidString.lowercased(), reason: "the nil UUID is not a correlation or causation id (leave it out)")
        }
        if checkingRepeats, !seen.insert(UUIDKey(id)).inserted {
            return .invalidEventID(id.uuidString.lowercased(), reason: "appears twice in one append")
        }
        if let reason = Self.nameProblem(event.header.type, limit: Self.maxEventTypeBytes) {
            return .invalidEventType(event.header.type, reason: reason)
        }
        if let subject = event.header.subject, let reason = Self.nameProblem(subject, limit: Self.maxSubjectBytes) {
            return .invalidSubject(subject, reason: reason)
        }
        let size = event.payload.count + event.metadata.count
        if size > maxEventBytes { return .eventTooLarge(eventId: id, bytes: size, limit: maxEventBytes) }
        // Magnitudes, not `abs`, which traps on `Int32.min`.
        if let recordedAt = event.recordedAt, recordedAt.utcOffsetSeconds.magnitude > Timestamp.maxOffsetSeconds.magnitude {
            return .invalidTimestamp(eventId: id, reason: "recordedAt offset beyond ±18:00")
        }
        if event.header.occurredAt.utcOffsetSeconds.magnitude > Timestamp.maxOffsetSeconds.magnitude {
            return .invalidTimestamp(eventId: id, reason: "occurredAt offset beyond ±18:00")
        }
        return nil
    }

    /// The first thing wrong with a checkpoint, or nil.
    package func problem(with checkpoint: Checkpoint) -> EventStoreError? {
        if let reason = Self.nameProblem(checkpoint.name, limit: Self.maxCheckpointNameBytes) {
            return .invalidCheckpoint(name: checkpoint.name, reason: reason)
        }
        if checkpoint.data.count > Self.maxCheckpointDataBytes {
            return .invalidCheckpoint(name: checkpoint.name, reason: "data of \(checkpoint.data.count) bytes exceeds \(Self.maxCheckpointDataBytes)")
        }
        return nil
    }

    /// Why a name or id not in NFC is refused (see ``Swift/String/isInNormalizationFormC``).
    package static let notNFC = "is not in Unicode Normalization Form C (NFC): names are compared as bytes, "
        + "and Unicode calls this one equal to its NFC form, a different name"

    /// Why `name` cannot be a stream id, subject, type or checkpoint name, or nil if it can.
    package static func nameProblem(_ name: String, limit: Int) -> String? {
        let bytes = name.utf8.span
        if bytes.isEmpty { return "must not be empty" }
        if bytes.count > limit { return "is \(bytes.count) bytes of UTF-8, over the limit of \(limit)" }
        // In UTF-8, bytes below 0x20 and 0x7F only ever encode the ASCII control characters.
        var ascii = true
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return "contains a control character" }
            if byte >= 0x80 { ascii = false }
        }
        if !ascii, !name.isInNormalizationFormC { return notNFC }
        return nil
    }
}


package let nilUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

/// A UUID as two integers: cheap to hash and to compare in byte order.
package struct UUIDKey: Hashable, Comparable, Sendable {
    package let high: UInt64
    package let low: UInt64

    package init(_ id: UUID) {
        let u = id.uuid
        high = UInt64(u.0) << 56 | UInt64(u.1) << 48 | UInt64(u.2) << 40 | UInt64(u.3) << 32
            | UInt64(u.4) << 24 | UInt64(u.5) << 16 | UInt64(u.6) << 8 | UInt64(u.7)
        low = UInt64(u.8) << 56 | UInt64(u.9) << 48 | UInt64(u.10) << 40 | UInt64(u.11) << 32
            | UInt64(u.12) << 24 | UInt64(u.13) << 16 | UInt64(u.14) << 8 | UInt64(u.15)
    }

    /// True for a version-7 (time-ordered) id: its version nibble is the high half of byte 6.
    @inline(__always)
    package var isTimeOrdered: Bool { (high >> 12) & 0xF == 7 }

    /// Byte order, which is the order of the ids' keys in an index.
    @inline(__always)
    package static func < (a: UUIDKey, b: UUIDKey) -> Bool { a.high != b.high ? a.high < b.high : a.low < b.low }
}
