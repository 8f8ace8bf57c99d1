import EventLog

/// What a restore (import) did.
public struct RestoreReport: Sendable, Hashable, Codable {
    /// Events appended now.
    public var written: Int
    /// Events that were already in the log (same id, stream and version): nothing written.
    public var alreadyPresent: Int

    /// A report of `written` new events and `alreadyPresent` repeats.
    public init(written: Int = 0, alreadyPresent: Int = 0) {
        self.written = written
        self.alreadyPresent = alreadyPresent
    }
}

/// A batch of wire-form events made ready to restore by ``Logbook/prepareRestore(_:sealing:)``:
/// grouped into append requests, payloads encoded and, for a batch without tombstones prepared
/// with sealing, sealed.
public struct PreparedRestore: Sendable {
    let events: [WireEvent]
    var requests: [AppendRequest]
    let firstVersions: [UInt64]
    /// True once its payloads are sealed (ahead of the restore).
    package internal(set) var isSealed = false

    /// The users whose data the batch carries.
    var liveUsers: Set<String> { Set(events.lazy.filter { !$0.isErased }.compactMap(\.subject)) }

    /// The number of events in the batch.
    public var count: Int { events.count }
}

extension Logbook {
    /// Appends events in the wire form as the facts they are (see "Import is a restore" in
    /// <doc:WireForm>): in order, in one commit, keeping ids, times and metadata; positions are
    /// assigned anew and each event's `streamVersion` is checked as the expected version, so a
    /// store whose streams disagree is a ``LogbookError/versionConflict(stream:expected:current:)``
    /// naming the stream, and events already there (same ids at the same versions) are skipped. The
    /// command rules are not applied: they judged the commands when they happened. Read models fold
    /// the events inline.
    ///
    /// Every stream is checked before anything is written, so a conflicting call writes nothing
    /// (unless another writer moves a stream in between, which the log still refuses per stream).
    public func restore(_ events: [WireEvent]) async throws -> RestoreReport {
        try await restore(try prepareRestore(events, sealing: false))
    }

    /// Does the work of ``restore(_:)`` that needs neither the log nor another batch, and writes
    /// nothing: groups the events into append requests, encodes their payloads and — with
    /// `sealing`, when the batch has no tombstones and all its users have keys already — seals
    /// the payloads. A caller restoring batch after batch (`logbook import`) prepares the next
    /// while the last one commits. Whatever is left (new users' keys, erasures) is done when the
    /// batch is restored, where whether a user was erased meanwhile is checked again.
    public func prepareRestore(_ events: [WireEvent], sealing: Bool) throws -> PreparedRestore {
        // Consecutive events of one stream form one request (one expected version).
        var requests: [AppendRequest] = []
        var firstVersions: [UInt64] = []
        for event in events {
            if let last = requests.indices.last, requests[last].stream == event.stream,
               firstVersions[last] + UInt64(requests[last].events.count) == event.streamVersion {
                requests[last].events.append(event.proposed)
                continue
            }
            let expected: ExpectedVersion = event.streamVersion == 0 ? .noStream : .exactly(event.streamVersion - 1)
            requests.append(AppendRequest(stream: event.stream, events: [event.proposed], expectedVersion: expected))
            firstVersions.append(event.streamVersion)
        }
        var prepared = PreparedRestore(events: events, requests: requests, firstVersions: firstVersions)
        if sealing, !events.contains(where: \.isErased), try payloads.haveKeys(prepared.liveUsers) {
            for index in prepared.requests.indices { try payloads.seal(&prepared.requests[index]) }
            prepared.isSealed = true
        }
        return prepared
    }

    /// Restores a batch made ready by ``prepareRestore(_:sealing:)``, as ``restore(_:)`` does.
    public func restore(_ prepared: PreparedRestore) async throws -> RestoreReport {
        guard !prepared.events.isEmpty else { return RestoreReport() }
        var requests = prepared.requests
        let firstVersions = prepared.firstVersions
        let present = try await checkAgainstLog(&requests, firstVersions)
        try await checkWorkoutOwners(requests)
        if prepared.isSealed {
            // Sealed before an earlier batch's tombstones may have erased one of its users.
            try await payloads.prepare(prepared.liveUsers, creating: false)
            try refuseErasedUsers(prepared.liveUsers, prepared.events)
        } else {
            try await sealForRestore(&requests, prepared.events)
        }
        let results = try await log.append(batch: requests)
        var report = RestoreReport(alreadyPresent: present)
        var written: UInt64 = 0
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let appended):
                written = max(written, appended.lastPosition.rawValue)
                if appended.alreadyWritten { report.alreadyPresent += requests[index].events.count } else { report.written += requests[index].events.count }
            case .failure(let error) where error.code == .wrongExpectedVersion:
                throw LogbookError.versionConflict(
                    stream: requests[index].stream, expected: firstVersions[index] == 0 ? 0 : firstVersions[index] - 1, current: error.actualVersion)
            case .failure(let error):
                throw LogbookError.log(error)
            }
        }
        // Read your writes: the answer leaves once the read models hold what was restored.
        if written > 0 { try await host.waitUntilFolded(written) }
        return report
    }

    /// Encrypts what is restored with its users' keys (made durably first) and records the users
    /// of tombstones as erased — after checking, before anything is written, that no event of an
    /// erased user comes with data and no tombstone names a user whose events here are not erased.
    private func sealForRestore(_ requests: inout [AppendRequest], _ events: [WireEvent]) async throws {
        let tombstones = events.filter(\.isErased)
        let erasedUsers = Set(tombstones.compactMap(\.subject))
        let liveUsers = Set(events.filter { !$0.isErased }.compactMap(\.subject))
        try await payloads.prepare(liveUsers, creating: false)
        try refuseErasedUsers(liveUsers, events, erasedHere: erasedUsers)
        try await payloads.markErased(erasedUsers)
        try await payloads.prepareKeys(for: liveUsers)
        let tombstoneIds = Set(tombstones.map(\.eventId))
        for index in requests.indices { try payloads.seal(&requests[index], tombstones: tombstoneIds) }
    }

    /// Refuses a batch carrying data of a user who was erased (or whose tombstones it carries).
    private func refuseErasedUsers(_ liveUsers: Set<String>, _ events: [WireEvent], erasedHere: Set<String> = []) throws {
        for user in liveUsers.sorted() where try erasedHere.contains(user) || isErased(user) {
            let event = events.first { !$0.isErased && $0.subject == user }
            throw LogbookError.ruleViolation(
                rule: .userErased, message: "event \(event?.eventId.uuidString.lowercased() ?? "?") carries data of user \"\(user)\", who was erased")
        }
    }

    /// Each request's stream must stand exactly before its first event, or already hold the same
    /// events (a repeated import); anything else is a conflict. A request whose first events the
    /// stream holds and whose others follow on (an import of a newer export of the same log) keeps
    /// only those that follow; answers how many events were dropped so.
    /// Refuses a batch that would put two users' events in one workout's stream, naming the event,
    /// the stream and both users: a workout's stream only ever holds its own user's events (an
    /// erasure finds a user's workouts by them), and the commands' rule keeps it so; the events the
    /// log holds already count. One read of each workout stream the batch continues.
    private func checkWorkoutOwners(_ requests: [AppendRequest]) async throws {
        var owners: [String: String?] = [:]
        for request in requests where DomainEvent.workoutId(ofStream: request.stream) != nil {
            if owners[request.stream] == nil,
               let first = try await log.readStream(request.stream, from: 0, direction: .forward, limit: 1).first {
                owners[request.stream] = .some(first.envelope.subject)
            }
            for event in request.events {
                guard let owner = owners[request.stream] else {
                    owners[request.stream] = .some(event.subject)
                    continue
                }
                guard Self.sameUser(owner, event.subject) else {
                    throw LogbookError.invalidArgument(name: "events", reason: """
                        event \(event.eventId.uuidString.lowercased()) of \(event.subject.map { "user \"\($0)\"" } ?? "no user") would join stream \
                        \(request.stream), which holds \(owner.map { "user \"\($0)\"" } ?? "no user")'s workout: a workout's stream holds one user's events
                        """)
                }
            }
        }
    }

    /// Whether two events' subjects name the same user (compared as bytes), or both none.
    private static func sameUser(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): a.utf8.elementsEqual(b.utf8)
        default: false
        }
    }

    private func checkAgainstLog(_ requests: inout [AppendRequest], _ firstVersions: [UInt64]) async throws -> Int {
        var versions: [String: UInt64?] = [:]
        var present = 0
        for (index, request) in requests.enumerated() {
            let first = firstVersions[index]
            let current: UInt64?
            if let known = versions[request.stream] { current = known } else { current = try await log.streamVersion(request.stream) }
            let next = current.map { $0 + 1 } ?? 0
            if next < first {
                throw LogbookError.versionConflict(stream: request.stream, expected: first - 1, current: current)
            }
            if next > first {
                let stored = try await log.readStream(request.stream, from: first, direction: .forward, limit: request.events.count)
                guard stored.map(\.eventId) == request.events.prefix(stored.count).map(\.eventId) else {
                    throw LogbookError.versionConflict(stream: request.stream, expected: first == 0 ? 0 : first - 1, current: current)
                }
                if stored.count < request.events.count {
                    requests[index].events.removeFirst(stored.count)
                    requests[index].expectedVersion = .exactly(first + UInt64(stored.count) - 1)
                    present += stored.count
                }
            }
            versions[request.stream] = max(next, first + UInt64(request.events.count)) - 1
        }
        return present
    }
}
