/// Copies one log into another — an embedded LMDB log into PostgreSQL, say — keeping every
/// event's position, stream version, id, times and bytes, so read models rebuilt from the copy
/// have the digests they had. A copy that stopped half way resumes where the target ends; a
/// target holding anything else is refused.
public struct LogCopy: Sendable {
    /// What a copy did.
    public struct Report: Sendable, Hashable, Codable {
        /// Events appended to the target by this run.
        public var copied: UInt64
        /// Events the target already had (a resumed copy).
        public var alreadyThere: UInt64
        /// The head of both logs when the copy ended.
        public var head: Position
        /// Events compared, field by field and byte by byte, after copying.
        public var verified: UInt64
    }

    public let source: any EventStore
    public let target: any EventStore
    /// Events per append batch (one commit in the target) and per comparison page.
    public var chunkSize = 2_048

    public init(from source: any EventStore, to target: any EventStore) {
        self.source = source
        self.target = target
    }

    /// Copies what the target lacks, then compares the two logs event by event.
    public func run(progress: (Position, Position) -> Void = { _, _ in }) async throws -> Report {
        let sourceHead = try await source.headPosition()
        let start = try await target.headPosition()
        try await checkTarget(start, sourceHead: sourceHead)
        var last = start
        while last < sourceHead {
            let through = Position(min(sourceHead.rawValue, last.rawValue + UInt64(max(chunkSize, 1))))
            var requests: [AppendRequest] = []
            var firstVersions: [UInt64] = []
            try await source.scan(after: last, through: through, filter: .all, chunkSize: chunkSize) { envelope, metadata, payload in
                // The spans are borrowed for this call only: copied (EventLog touches no raw pointers).
                let event = ProposedEvent(
                    eventId: envelope.eventId, type: envelope.type, schemaVersion: envelope.schemaVersion, subject: envelope.subject,
                    occurredAt: envelope.occurredAt, recordedAt: envelope.recordedAt, correlationId: envelope.correlationId,
                    causationId: envelope.causationId, metadata: metadata.indices.map { metadata[$0] },
                    payload: payload.indices.map { payload[$0] })
                if let index = requests.indices.last, requests[index].stream == envelope.stream {
                    requests[index].events.append(event)
                } else {
                    let expected: ExpectedVersion = envelope.streamVersion == 0 ? .noStream : .exactly(envelope.streamVersion - 1)
                    requests.append(AppendRequest(stream: envelope.stream, events: [event], expectedVersion: expected))
                    firstVersions.append(envelope.streamVersion)
                }
                return true
            }
            var expected = last.rawValue + 1
            for (request, result) in zip(requests, try await target.append(batch: requests)) {
                let written = try result.get()
                guard !written.alreadyWritten, written.firstPosition.rawValue == expected else {
                    throw EventStoreError.storage(
                        "copying position \(expected) (stream \(request.stream)): the target put it at \(written.firstPosition); is another writer using the target?")
                }
                expected += UInt64(request.events.count)
            }
            last = through
            progress(last, sourceHead)
        }
        let verified = try await compare(through: sourceHead)
        return Report(copied: sourceHead.rawValue - start.rawValue, alreadyThere: start.rawValue, head: sourceHead, verified: verified)
    }

    /// A target that is empty, or holds exactly the source's first events (a copy that stopped).
    private func checkTarget(_ head: Position, sourceHead: Position) async throws {
        guard head > .start else { return }
        guard head <= sourceHead, let mine = try await target.event(at: head), let theirs = try await source.event(at: head),
              mine == theirs else {
            throw EventStoreError.storage(
                "the target log already holds \(head) events that are not the source's first ones: copy into an empty log")
        }
    }

    /// Reads both logs page by page and requires every event to be identical.
    private func compare(through head: Position) async throws -> UInt64 {
        var next = Position(1)
        var compared: UInt64 = 0
        while next <= head {
            let mine = try await source.readAll(from: next, direction: .forward, limit: chunkSize, filter: .all).events
            let theirs = try await target.readAll(from: next, direction: .forward, limit: chunkSize, filter: .all).events
            guard !mine.isEmpty else { break }
            for (index, event) in mine.enumerated() where event.position <= head {
                guard index < theirs.count, theirs[index] == event else {
                    throw EventStoreError.storage("after copying, the target's event at position \(event.position) differs from the source's")
                }
                compared += 1
            }
            next = mine[mine.count - 1].position.next
        }
        return compared
    }
}
