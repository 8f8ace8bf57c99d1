import EventLog
import BinaryCoding
import Foundation

/// Appends made ready for the writer by the appending task: validated, with every event's tail
/// encoded (into one shared buffer) and hashed, so the single writer thread only adds what it
/// alone can know (numbers, versions, links, positions).
struct PreparedBatch: Sendable {
    /// One event, ready to be written: its header as the appender gave it, and where its
    /// encoded tail sits in the shared buffer.
    @dynamicMemberLookup
    struct Event: Sendable {
        let header: EventHeader
        let key: UUIDKey
        let recordedAt: Timestamp?
        let tail: Range<Int>
        let tailHash: UInt64
        /// Where the metadata and the payload sit inside ``tail`` (in the shared buffer).
        let metadata: Range<Int>
        let payload: Range<Int>
        /// The appender's in-memory form of the payload, for observers.
        let decoded: (any Sendable)?
        /// ``NameTable/hash(_:)`` of the subject (0 without one) and of the type, worked out
        /// here so that the writer's lookups of their numbers hash nothing.
        let subjectHash: UInt64
        let typeHash: UInt64

        subscript<T>(dynamicMember keyPath: KeyPath<EventHeader, T>) -> T { header[keyPath: keyPath] }

        var occurredMicros: Int64 { header.occurredAt.microsecondsSinceEpoch }
    }

    /// One append: a stream, an expectation, and its events' indices in ``events``.
    struct Append: Sendable {
        let stream: String
        /// ``NameTable/hash(_:)`` of the stream's name.
        let streamHash: UInt64
        /// ``NameTable/hash(_:)`` of the subject condition's subject (0 without one).
        let subjectConditionHash: UInt64
        let expectedVersion: ExpectedVersion
        let subjectCondition: SubjectCondition?
        let events: Range<Int>
    }

    private(set) var appends: [Append] = []
    private(set) var events: [Event] = []
    private(set) var tails = ByteWriter(capacity: 0)
    /// Payload and metadata bytes, for the writer's per-transaction limit.
    private(set) var byteCount = 0

    /// Room for `requests`' appends, events and encoded tails, so that a batch's buffers are
    /// allocated once instead of doubling (each doubling copies what is there and touches fresh
    /// pages). The tails' room is an upper bound, up to ``largestReservation``.
    init(reservingFor requests: [AppendRequest]) {
        var events = 0
        var bytes = 0
        for request in requests {
            events += request.events.count
            // Summed only up to the reservation's limit, so no sum of sizes can overflow.
            for index in request.events.indices where bytes < Self.largestReservation {
                let event = (metadata: request.events[index].metadata.count, payload: request.events[index].payload.count)
                bytes += RecordCodec.longestTailOverhead + min(event.metadata, Self.largestReservation) + min(event.payload, Self.largestReservation)
            }
        }
        appends.reserveCapacity(requests.count)
        self.events.reserveCapacity(events)
        tails = ByteWriter(capacity: min(bytes, Self.largestReservation))
    }

    /// The most room a batch's tails buffer is given up front; a larger batch grows it as it goes.
    static let largestReservation = 64 << 20

    /// Adds a request that passed validation.
    mutating func add(_ request: AppendRequest) {
        let first = events.count
        for index in request.events.indices { add(request.events[index]) }
        appends.append(Append(
            stream: request.stream, streamHash: NameTable.hash(request.stream),
            subjectConditionHash: request.subjectCondition.map { NameTable.hash($0.subject) } ?? 0,
            expectedVersion: request.expectedVersion, subjectCondition: request.subjectCondition, events: first..<events.count))
    }

    /// Adds one event, borrowed from its request (no copy of its fields).
    private mutating func add(_ event: borrowing ProposedEvent) {
            let start = tails.bytes.count
            RecordCodec.appendTail(of: event, to: &tails)
            let end = tails.bytes.count
            let key = UUIDKey(event.eventId)
            let payloadStart = end - event.payload.count
            events.append(Event(
                header: event.header, key: key, recordedAt: event.recordedAt, tail: start..<end,
                tailHash: RecordCodec.tailHash(tails.bytes.span.extracting(start..<end)),
                metadata: (payloadStart - event.metadata.count)..<payloadStart, payload: payloadStart..<end,
                decoded: event.decoded, subjectHash: event.subject.map(NameTable.hash) ?? 0, typeHash: NameTable.hash(event.type)))
            byteCount += end - start
    }
}
