import BinaryCoding
package import EventLog

/// A stretch of the log read whole before its payloads are opened, so that opening — which costs
/// more than everything else an encrypted event takes — can run on several cores at once: the
/// envelopes of the events kept, and their stored payloads one after another in one buffer (not
/// an array per event).
///
/// Reading is one pass of the log's scan (a read transaction per 2²⁰ events); ``opened(with:parts:start:_:)`` then hands the events, in parts
/// of consecutive positions, to tasks side by side and puts their results back in log order. A
/// caller that reads the next stretch while this one opens keeps both cores busy.
package struct SealedStretch: Sendable {
    /// The position the stretch starts after.
    package let after: UInt64
    /// The last position the stretch covers (the events it kept may end earlier).
    package let through: UInt64
    /// The kept events' envelopes, in log order.
    package private(set) var envelopes: [EventEnvelope] = []
    /// Where each kept event's stored payload lies in ``bytes``.
    private var ranges: [Range<Int>] = []
    private var bytes: ByteWriter

    /// Fewer events than this are handled in one part: a task of its own would cost more than it saves.
    static let smallestPart = 128

    private init(after: UInt64, through: UInt64, expected: Int) {
        self.after = after
        self.through = through
        envelopes.reserveCapacity(expected)
        ranges.reserveCapacity(expected)
        bytes = ByteWriter(capacity: expected * 96)
    }

    /// Reads the events of `log` after position `after` through `through` that `keep` accepts.
    package static func read(
        _ log: any EventStore, after: UInt64, through: UInt64, keeping keep: (EventEnvelope) -> Bool = { _ in true }
    ) async throws -> SealedStretch {
        precondition(after <= through, "a stretch after \(after) through \(through)")
        let count = through - after
        var stretch = SealedStretch(after: after, through: through, expected: Int(min(count, 1 << 20)))
        guard count > 0 else { return stretch }
        try await log.scan(after: Position(after), through: Position(through), filter: .all, chunkSize: Int(min(count, 1 << 20))) {
            envelope, _, payload in
            if keep(envelope) { stretch.append(envelope, payload) }
            return true
        }
        return stretch
    }

    private mutating func append(_ envelope: EventEnvelope, _ payload: Span<UInt8>) {
        let start = bytes.bytes.count
        bytes.append(payload)
        ranges.append(start..<bytes.bytes.count)
        envelopes.append(envelope)
    }

    /// How many events the stretch kept.
    package var count: Int { envelopes.count }

    /// Opens every kept event's payload with `payloads` and folds the events, in `parts` parts of
    /// consecutive events handled by tasks side by side: each part starts from `start(count)`
    /// (`count`: its events) and `add`s its events in log order, with their envelopes and
    /// plaintexts (nil: the user was erased); the parts come back in log order. Each part looks its
    /// users' keys up once per user (``KeyMemo``). The first part runs on the calling task, the
    /// others on child tasks; an error one of them throws is thrown once the first part is done
    /// (the others run to their end: a part is a few thousand events, and none checks for
    /// cancellation). A log whose keys several servers share needs them loaded first
    /// (``PayloadKeys/prepare(_:creating:)``).
    ///
    /// A fold, not a transform returning optionals: a caller in another module gets this function
    /// unspecialized, and there each optional result would look up its type's metadata per event.
    package func opened<Part: Sendable>(
        with payloads: PayloadKeys, parts: Int, start: @escaping @Sendable (_ count: Int) -> Part,
        _ add: @escaping @Sendable (inout Part, EventEnvelope, Span<UInt8>?) throws(LogbookError) -> Void
    ) async throws -> [Part] {
        precondition(parts >= 1, "\(parts) parts")
        let (envelopes, ranges, bytes) = (self.envelopes, self.ranges, self.bytes.bytes)
        let partCount = max(1, min(parts, envelopes.count / Self.smallestPart))
        let bounds = (0...partCount).map { $0 * envelopes.count / partCount }
        let handle: @Sendable (Range<Int>) throws(LogbookError) -> Part = { (indices) throws(LogbookError) in
            var part = start(indices.count)
            var memo = payloads.keyMemo(events: indices.count)
            for index in indices {
                let envelope = envelopes[index]
                try payloads.withOpened(envelope, bytes.span.extracting(ranges[index]), remembering: &memo) { (plaintext) throws(LogbookError) in
                    try add(&part, envelope, plaintext)
                }
            }
            return part
        }
        if partCount == 1 { return [try handle(0..<envelopes.count)] }
        return try await withThrowingTaskGroup(of: (Int, Part).self) { group in
            for part in 1..<partCount {
                group.addTask { (part, try handle(bounds[part]..<bounds[part + 1])) }
            }
            // The first part runs here, on the task that waits for the others.
            var results = [try handle(bounds[0]..<bounds[1])]
            var later: [Int: Part] = [:]
            for try await (part, handled) in group { later[part] = handled }
            for part in 1..<partCount { results.append(later[part]!) }
            return results
        }
    }
}
