public import EventLog
import Foundation
public import Testing

/// The log contract (the LogContract article, in Logbook's documentation), written against the
/// ``EventStore`` protocol only, so every backend runs the same checks. Each case is one check, to
/// run on an empty store:
///
/// ```swift
/// @Test(arguments: EventStoreConformance.allCases)
/// func conformance(_ check: EventStoreConformance) async throws {
///     try await withMyEmptyStore { store in try await check.run(store) }
/// }
/// ```
///
/// Failures are Swift Testing issues (`#expect`), recorded in the calling test.
public enum EventStoreConformance: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case roundTrip
    case expectedVersions
    case idempotentRetries
    case eventIdsAreUniqueInTheWholeLog
    case partialOverlapIsAnError
    case batchAppendsAreIndependent
    case appendsAreAtomic
    case streamReads
    case readAllWithFilters
    case subjectReads
    case subscriptionsCatchUpThenGoLive
    case filteredSubscriptionsReportScanProgress
    case checkpoints
    case subjectConditions
    case badInputWritesNothing

    public var testDescription: String { rawValue }

    /// Runs this check against `store`, which must be empty.
    public func run(_ store: some EventStore) async throws {
        switch self {
        case .roundTrip: try await Self.roundTrip(store)
        case .expectedVersions: try await Self.expectedVersions(store)
        case .idempotentRetries: try await Self.idempotentRetries(store)
        case .eventIdsAreUniqueInTheWholeLog: try await Self.eventIdsAreUniqueInTheWholeLog(store)
        case .partialOverlapIsAnError: try await Self.partialOverlapIsAnError(store)
        case .batchAppendsAreIndependent: try await Self.batchAppendsAreIndependent(store)
        case .appendsAreAtomic: try await Self.appendsAreAtomic(store)
        case .streamReads: try await Self.streamReads(store)
        case .readAllWithFilters: try await Self.readAllWithFilters(store)
        case .subjectReads: try await Self.subjectReads(store)
        case .subscriptionsCatchUpThenGoLive: try await Self.subscriptionsCatchUpThenGoLive(store)
        case .filteredSubscriptionsReportScanProgress: try await Self.filteredSubscriptionsReportScanProgress(store)
        case .checkpoints: try await Self.checkpoints(store)
        case .subjectConditions: try await Self.subjectConditions(store)
        case .badInputWritesNothing: try await Self.badInputWritesNothing(store)
        }
    }

    static func roundTrip(_ store: some EventStore) async throws {
        let correlation = UUID()
        var first = testEvent("one", type: "workout.started", subject: "u-1")
        first.correlationId = correlation
        first.causationId = UUID()
        first.metadata = Array(#"{"source":"test"}"#.utf8)
        first.schemaVersion = 2
        let second = testEvent("two", type: "workout.finished", subject: nil,
                               occurredAt: try Timestamp(parsing: "2026-11-20T07:42:10.513-05:00"))
        let result = try await store.append([first, second], to: "workout-1", expectedVersion: .noStream)
        #expect(result.firstPosition == 1)
        #expect(result.lastPosition == 2)
        #expect(result.streamVersion == 1)
        #expect(!result.alreadyWritten)

        let events = try await store.readStream("workout-1", from: 0, direction: .forward, limit: 10)
        #expect(events.count == 2)
        let one = try #require(events.first)
        #expect(one.position == 1)
        #expect(one.stream == "workout-1")
        #expect(one.streamVersion == 0)
        #expect(one.eventId == first.eventId)
        #expect(one.type == "workout.started")
        #expect(one.schemaVersion == 2)
        #expect(one.subject == "u-1")
        #expect(one.occurredAt == first.occurredAt)
        #expect(one.correlationId == correlation)
        #expect(one.causationId == first.causationId)
        #expect(one.metadata == first.metadata)
        #expect(one.text == "one")
        let two = events[1]
        #expect(two.subject == nil)
        #expect(two.occurredAt.rfc3339 == "2026-11-20T07:42:10.513-05:00")
        #expect(two.metadata.isEmpty)
        #expect(two.correlationId == nil)
        #expect(try await store.event(at: 2) == two)
        #expect(try await store.event(at: 3) == nil)
        #expect(try await store.headPosition() == 2)
        #expect(try await store.streamVersion("workout-1") == 1)
        #expect(try await store.streamVersion("workout-2") == nil)
    }

    static func expectedVersions(_ store: some EventStore) async throws {
        func conflict(_ expected: ExpectedVersion, actual: UInt64?) async throws {
            let head = try await store.headPosition()
            await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "s", expected: expected, actual: actual)) {
                try await store.append([testEvent()], to: "s", expectedVersion: expected)
            }
            #expect(try await store.headPosition() == head, "a conflict wrote something")
        }
        try await conflict(.streamExists, actual: nil)
        try await conflict(.exactly(0), actual: nil)
        #expect(try await store.append([testEvent()], to: "s", expectedVersion: .noStream).streamVersion == 0)
        try await conflict(.noStream, actual: 0)
        try await conflict(.exactly(1), actual: 0)
        #expect(try await store.append([testEvent()], to: "s", expectedVersion: .exactly(0)).streamVersion == 1)
        #expect(try await store.append([testEvent()], to: "s", expectedVersion: .streamExists).streamVersion == 2)
        #expect(try await store.append([testEvent(), testEvent()], to: "s", expectedVersion: .any).streamVersion == 4)
        try await conflict(.exactly(3), actual: 4)
        #expect(try await store.append([testEvent()], to: "other", expectedVersion: .any).streamVersion == 0)
    }

    static func idempotentRetries(_ store: some EventStore) async throws {
        let events = [testEvent("a"), testEvent("b"), testEvent("c")]
        let original = try await store.append(events, to: "s", expectedVersion: .noStream)
        for expected in [ExpectedVersion.noStream, .any, .streamExists] {
            let retry = try await store.append(events, to: "s", expectedVersion: expected)
            #expect(retry.alreadyWritten, "retry with \(expected)")
            #expect(retry.firstPosition == original.firstPosition)
            #expect(retry.lastPosition == original.lastPosition)
            #expect(retry.streamVersion == original.streamVersion)
        }
        #expect(try await store.headPosition() == original.lastPosition)
        // The stream moves on; a retry with the original exact expectation is still recognised.
        let laterEvent = testEvent("d")
        let later = try await store.append([laterEvent], to: "s", expectedVersion: .exactly(2))
        for _ in 0..<20 { _ = try await store.append([testEvent("filler")], to: "s") }
        let retryLater = try await store.append([laterEvent], to: "s", expectedVersion: .exactly(2))
        #expect(retryLater.alreadyWritten)
        #expect(retryLater.firstPosition == later.firstPosition)
        // A single event retried with `any` right after it was written.
        let single = testEvent("e")
        let once = try await store.append([single], to: "s")
        let twice = try await store.append([single], to: "s")
        #expect(twice.alreadyWritten)
        #expect(twice.firstPosition == once.firstPosition)
        #expect(try await store.readStream("s", from: 0, direction: .forward, limit: 100).count == 25)
    }

    static func eventIdsAreUniqueInTheWholeLog(_ store: some EventStore) async throws {
        // Ids of both kinds: time-ordered (what the log makes) and random (a client's own).
        for (name, make) in [("time-ordered", { UUID.timeOrdered() }), ("random", { UUID() })] {
            let original = [testEvent("a", id: make()), testEvent("b", id: make()), testEvent("c", id: make())]
            let written = try await store.append(original, to: "orders-\(name)", expectedVersion: .any)
            let single = testEvent("single", id: make())
            let once = try await store.append([single], to: "orders-\(name)")
            // Hundreds of events later, into the same stream and others, a retry still answers the original.
            for index in 0..<300 { _ = try await store.append([testEvent("filler", id: make())], to: index % 3 == 0 ? "orders-\(name)" : "other-\(index % 7)") }
            let head = try await store.headPosition()
            for expected in [ExpectedVersion.any, .streamExists, .exactly(0), .noStream] {
                let retry = try await store.append(original, to: "orders-\(name)", expectedVersion: expected)
                #expect(retry.alreadyWritten, "\(name) retry with \(expected)")
                #expect(retry.firstPosition == written.firstPosition && retry.lastPosition == written.lastPosition)
                #expect(retry.streamVersion == written.streamVersion)
            }
            #expect(try await store.append([single], to: "orders-\(name)").firstPosition == once.firstPosition)
            #expect(try await store.headPosition() == head, "a retry wrote something")
            // The same id in another stream, alone or beside new events, is refused and names where it lives.
            for attempt in [[original[1]], [testEvent("new", id: make()), original[1]]] {
                do {
                    _ = try await store.append(attempt, to: "elsewhere-\(name)")
                    Issue.record("\(name): an id of another stream was accepted")
                } catch let error as EventStoreError {
                    #expect(error.code == .eventIdInUse, "\(error)")
                    #expect(error.eventId == original[1].eventId)
                    #expect(error.stream == "orders-\(name)")
                    #expect(error.position == written.firstPosition.next)
                }
            }
            #expect(try await store.headPosition() == head, "a refused append wrote something")
            #expect(try await store.streamVersion("elsewhere-\(name)") == nil)
            // Where an id lives, and that an unknown one lives nowhere.
            let location = try await store.location(ofEvent: original[2].eventId)
            #expect(location == EventLocation(position: written.lastPosition, stream: "orders-\(name)", streamVersion: written.streamVersion))
            #expect(try await store.location(ofEvent: make()) == nil)
            // In one batch: a second request repeating the first is its retry; one reusing its id elsewhere is refused.
            let fresh = testEvent("fresh", id: make())
            let results = try await store.append(batch: [
                AppendRequest(stream: "batch-\(name)", events: [fresh]),
                AppendRequest(stream: "batch-\(name)", events: [fresh]),
                AppendRequest(stream: "batch-other-\(name)", events: [fresh]),
            ])
            let first = try results[0].get()
            #expect(try results[1].get() == AppendResult(firstPosition: first.firstPosition, lastPosition: first.lastPosition, streamVersion: 0, alreadyWritten: true))
            #expect(throws: EventStoreError.self) { try results[2].get() }
            if case .failure(let error) = results[2] { #expect(error.code == .eventIdInUse && error.stream == "batch-\(name)") }
        }
    }

    static func partialOverlapIsAnError(_ store: some EventStore) async throws {
        let events = [testEvent("a"), testEvent("b")]
        _ = try await store.append(events, to: "s", expectedVersion: .noStream)
        let head = try await store.headPosition()
        // Re-sending only the first of them repeats ids already written in order: not an overlap.
        let prefix = try await store.append([events[0]], to: "s", expectedVersion: .any)
        #expect(prefix.alreadyWritten && prefix.firstPosition == 1 && prefix.lastPosition == 1)
        for attempt in [[events[0], testEvent("new")], [events[1], events[0]], [testEvent("new"), events[1]], [events[1], testEvent("new")]] {
            do {
                _ = try await store.append(attempt, to: "s", expectedVersion: .any)
                Issue.record("a partial repeat was accepted")
            } catch let error as EventStoreError {
                guard error.code == .idempotencyConflict, let stream = error.stream else {
                    Issue.record("expected an idempotency conflict, got \(error)")
                    continue
                }
                #expect(stream == "s")
            }
        }
        #expect(try await store.headPosition() == head)
    }

    static func batchAppendsAreIndependent(_ store: some EventStore) async throws {
        _ = try await store.append([testEvent()], to: "b", expectedVersion: .noStream)
        let results = try await store.append(batch: [
            AppendRequest(stream: "a", events: [testEvent("a1")], expectedVersion: .noStream),
            AppendRequest(stream: "b", events: [testEvent("b1")], expectedVersion: .noStream),
            AppendRequest(stream: "", events: [testEvent("bad")]),
            AppendRequest(stream: "c", events: [testEvent("c1"), testEvent("c2")], expectedVersion: .any),
        ])
        #expect(results.count == 4)
        #expect(try results[0].get().firstPosition == 2)
        #expect(throws: EventStoreError.wrongExpectedVersion(stream: "b", expected: .noStream, actual: 0)) { try results[1].get() }
        guard case .failure(let error) = results[2], error.code == .invalidStreamID else {
            Issue.record("an empty stream id was not refused: \(results[2])")
            return
        }
        #expect(try results[3].get().firstPosition == 3)
        #expect(try results[3].get().lastPosition == 4)
        #expect(try await store.headPosition() == 4)
        // Requests to one stream in one batch see each other: versions chain, a refusal moves nothing.
        let chained = try await store.append(batch: [
            AppendRequest(stream: "c", events: [testEvent("c3")], expectedVersion: .exactly(1)),
            AppendRequest(stream: "c", events: [testEvent("c4")], expectedVersion: .exactly(1)),
            AppendRequest(stream: "c", events: [testEvent("c5"), testEvent("c6")], expectedVersion: .exactly(2)),
            AppendRequest(stream: "d", events: [testEvent("d1")], expectedVersion: .exactly(0)),
            AppendRequest(stream: "d", events: [testEvent("d2")], expectedVersion: .noStream),
        ])
        #expect(try chained[0].get().streamVersion == 2)
        #expect(throws: EventStoreError.wrongExpectedVersion(stream: "c", expected: .exactly(1), actual: 2)) { try chained[1].get() }
        #expect(try chained[2].get() == AppendResult(firstPosition: 6, lastPosition: 7, streamVersion: 4, alreadyWritten: false))
        #expect(throws: EventStoreError.wrongExpectedVersion(stream: "d", expected: .exactly(0), actual: nil)) { try chained[3].get() }
        #expect(try chained[4].get() == AppendResult(firstPosition: 8, lastPosition: 8, streamVersion: 0, alreadyWritten: false))
        #expect(try await store.readStream("c", from: 0, direction: .forward, limit: 10).map(\.text) == ["c1", "c2", "c3", "c5", "c6"])
        #expect(try await store.streamVersion("d") == 0)
    }

    static func appendsAreAtomic(_ store: some EventStore) async throws {
        _ = try await store.append([testEvent("before")], to: "s")
        let bad = [testEvent("1"), testEvent("2"), testEvent("3", type: ""), testEvent("4")]
        await #expect(throws: EventStoreError.self) { try await store.append(bad, to: "s") }
        #expect(try await store.headPosition() == 1)
        #expect(try await store.readStream("s", from: 0, direction: .forward, limit: 10).map(\.text) == ["before"])
    }

    static func streamReads(_ store: some EventStore) async throws {
        for chunk in 0..<10 {
            let events = (0..<10).map { testEvent("\(chunk * 10 + $0)") }
            _ = try await store.append(events, to: "long")
            _ = try await store.append([testEvent("noise")], to: "noise-\(chunk)")
        }
        let forward = try await store.readStream("long", from: 10, direction: .forward, limit: 5)
        #expect(forward.map(\.streamVersion) == [10, 11, 12, 13, 14])
        #expect(forward.map(\.text) == ["10", "11", "12", "13", "14"])
        let backward = try await store.readStream("long", from: 50, direction: .backward, limit: 3)
        #expect(backward.map(\.streamVersion) == [50, 49, 48])
        #expect(try await store.readStream("long", from: 100, direction: .forward, limit: 5).isEmpty)
        #expect(try await store.readStream("long", from: 1000, direction: .backward, limit: 2).map(\.streamVersion) == [99, 98])
        #expect(try await store.readStream("long", from: 97, direction: .forward, limit: 10).map(\.streamVersion) == [97, 98, 99])
        #expect(try await store.readStream("long", from: 1, direction: .backward, limit: 10).map(\.streamVersion) == [1, 0])
        #expect(try await store.readStream("missing", from: 0, direction: .forward, limit: 10).isEmpty)
        let all = try await store.readStream("long", from: 0, direction: .forward, limit: 1000)
        #expect(all.map(\.text) == (0..<100).map(String.init))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.position < $1.position })
    }

    static func readAllWithFilters(_ store: some EventStore) async throws {
        for i in 1...30 {
            let type = i % 3 == 0 ? "goal.set" : "steps.recorded"
            _ = try await store.append([testEvent("\(i)", type: type)], to: i % 2 == 0 ? "goals-u1" : "steps-u1")
        }
        let page = try await store.readAll(from: 1, direction: .forward, limit: 100, filter: .all)
        #expect(page.events.map(\.position.rawValue) == Array(1...30))
        #expect(page.reachedEnd)
        let goals = try await store.readAll(from: 1, direction: .forward, limit: 4, filter: EventFilter(eventTypes: ["goal.set"]))
        #expect(goals.events.map(\.position.rawValue) == [3, 6, 9, 12])
        #expect(goals.scannedThrough == 12)
        #expect(!goals.reachedEnd)
        let prefixed = try await store.readAll(
            from: 30, direction: .backward, limit: 3, filter: EventFilter(eventTypes: ["goal.set"], streamPrefix: "goals-"))
        #expect(prefixed.events.map(\.position.rawValue) == [30, 24, 18])
        let none = try await store.readAll(from: 1, direction: .forward, limit: 10, filter: EventFilter(eventTypes: ["never.seen"]))
        #expect(none.events.isEmpty)
        #expect(none.scannedThrough == 30, "a filtered read must report how far it scanned")
        #expect(none.reachedEnd)
        let mine = try await store.readAll(from: 1, direction: .forward, limit: 10, filter: EventFilter(subject: "u-1"))
        #expect(mine.events.count == 10)
        let strangers = try await store.readAll(from: 1, direction: .forward, limit: 10, filter: EventFilter(subject: "u-never"))
        #expect(strangers.events.isEmpty)
        #expect(strangers.scannedThrough == 30)
        let tail = try await store.readAll(from: 31, direction: .forward, limit: 10, filter: .all)
        #expect(tail.events.isEmpty)
        #expect(tail.scannedThrough == nil)
    }

    static func subjectReads(_ store: some EventStore) async throws {
        for i in 1...40 {
            _ = try await store.append([testEvent("\(i)", subject: i % 4 == 0 ? "u-b" : "u-a")], to: "s-\(i % 5)")
        }
        let b = try await store.readSubject("u-b", from: 1, direction: .forward, limit: 100)
        #expect(b.map(\.position.rawValue) == [4, 8, 12, 16, 20, 24, 28, 32, 36, 40])
        let fromMiddle = try await store.readSubject("u-b", from: 13, direction: .forward, limit: 2)
        #expect(fromMiddle.map(\.position.rawValue) == [16, 20])
        let backward = try await store.readSubject("u-b", from: 23, direction: .backward, limit: 3)
        #expect(backward.map(\.position.rawValue) == [20, 16, 12])
        let a = try await store.readSubject("u-a", from: 38, direction: .forward, limit: 10)
        #expect(a.map(\.position.rawValue) == [38, 39])
        #expect(try await store.readSubject("u-c", from: 1, direction: .forward, limit: 10).isEmpty)
        #expect(try await store.readSubject("u-b", from: 41, direction: .forward, limit: 10).isEmpty)
        #expect(try await store.readSubject("u-b", from: 3, direction: .backward, limit: 10).isEmpty)
    }

    static func subscriptionsCatchUpThenGoLive(_ store: some EventStore) async throws {
        for i in 1...50 { _ = try await store.append([testEvent("\(i)")], to: "s-\(i % 3)") }
        let subscription = store.subscribe(after: 10)
        let reader = Task {
            var seen: [UInt64] = []
            for try await element in subscription {
                if let event = element.event { seen.append(event.position.rawValue) }
                if seen.count == 60 { break }
            }
            return seen
        }
        for i in 51...70 { _ = try await store.append([testEvent("\(i)")], to: "s-live") }
        let seen = try await reader.value
        #expect(seen == Array(11...70))
    }

    static func filteredSubscriptionsReportScanProgress(_ store: some EventStore) async throws {
        for i in 1...20 { _ = try await store.append([testEvent("\(i)", type: i == 5 ? "rare" : "common")], to: "s") }
        let subscription = store.subscribe(after: .start, filter: EventFilter(eventTypes: ["rare"]))
        var iterator = subscription.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.event?.position == 5)
        let progress = try await iterator.next()
        #expect(progress == .scanned(through: 20))
        // A subject filter follows one user, including a subject that first appears after the
        // subscription started.
        let feed = store.subscribe(after: .start, filter: EventFilter(subject: "u-late"))
        var feedIterator = feed.makeAsyncIterator()
        #expect(try await feedIterator.next() == .scanned(through: 20))
        _ = try await store.append([testEvent("other", subject: "u-1")], to: "s")
        _ = try await store.append([testEvent("late", subject: "u-late")], to: "s")
        var next = try await feedIterator.next()
        if next == .scanned(through: 21) { next = try await feedIterator.next() }
        #expect(next?.event?.position == 22)
        #expect(next?.event?.subject == "u-late")
    }

    static func checkpoints(_ store: some EventStore) async throws {
        #expect(try await store.checkpoint(named: "stats") == nil)
        try await store.storeCheckpoint(Checkpoint(name: "stats", position: 7, data: [1, 2, 3]))
        #expect(try await store.checkpoint(named: "stats") == Checkpoint(name: "stats", position: 7, data: [1, 2, 3]))
        let result = try await store.append(
            [testEvent()], to: "s", expectedVersion: .noStream, checkpoint: Checkpoint(name: "inline", position: 1))
        #expect(try await store.checkpoint(named: "inline")?.position == result.lastPosition)
        await #expect(throws: EventStoreError.self) {
            try await store.append([testEvent()], to: "s", expectedVersion: .noStream, checkpoint: Checkpoint(name: "inline", position: 99))
        }
        #expect(try await store.checkpoint(named: "inline")?.position == 1, "a failed append must not move its checkpoint")
        await #expect(throws: EventStoreError.self) { try await store.storeCheckpoint(Checkpoint(name: "", position: 1)) }
    }

    static func subjectConditions(_ store: some EventStore) async throws {
        // A user with no events yet: the condition names the start.
        let first = AppendRequest(
            stream: "workout-1", events: [testEvent("start", subject: "u-1")], expectedVersion: .noStream,
            subjectCondition: SubjectCondition(subject: "u-1", lastPosition: .start))
        let written = try await store.append(batch: [first])[0].get()
        #expect(written.firstPosition == 1)
        _ = try await store.append([testEvent("other user", subject: "u-2")], to: "workout-2")
        // A decision that saw the user before that event is stale, in another stream too.
        let stale = AppendRequest(
            stream: "workout-3", events: [testEvent("second start", subject: "u-1")], expectedVersion: .noStream,
            subjectCondition: SubjectCondition(subject: "u-1", lastPosition: .start))
        let refused = try await store.append(batch: [stale])[0]
        #expect(throws: EventStoreError.subjectMoved(subject: "u-1", expected: .start, actual: 1)) { try refused.get() }
        #expect(try await store.headPosition() == 2, "a refused append wrote something")
        #expect(try await store.streamVersion("workout-3") == nil)
        // Another user's events do not move this one; a current condition passes.
        var current = stale
        current.subjectCondition = SubjectCondition(subject: "u-1", lastPosition: 1)
        #expect(try await store.append(batch: [current])[0].get().firstPosition == 3)
        // A retry of a written append answers the original even though its condition is now stale.
        #expect(try await store.append(batch: [first])[0].get().alreadyWritten)
        // In one batch, the first request moves the user and the second, decided before it, is refused.
        let results = try await store.append(batch: [
            AppendRequest(stream: "steps-u-1", events: [testEvent("a", subject: "u-1")],
                          subjectCondition: SubjectCondition(subject: "u-1", lastPosition: 3)),
            AppendRequest(stream: "goals-u-1", events: [testEvent("b", subject: "u-1")],
                          subjectCondition: SubjectCondition(subject: "u-1", lastPosition: 3)),
        ])
        #expect(try results[0].get().firstPosition == 4)
        #expect(throws: EventStoreError.subjectMoved(subject: "u-1", expected: 3, actual: 4)) { try results[1].get() }
        // A condition on a subject that is not a valid one is bad input.
        let bad = AppendRequest(stream: "s", events: [testEvent()], subjectCondition: SubjectCondition(subject: "", lastPosition: .start))
        guard case .failure(let error) = try await store.append(batch: [bad])[0], error.code == .invalidSubject else {
            Issue.record("an empty subject in a condition was not refused")
            return
        }
    }

    static func badInputWritesNothing(_ store: some EventStore) async throws {
        _ = try await store.append([testEvent()], to: "s")
        func refused(_ stream: String, _ events: [ProposedEvent], _ matches: (EventStoreError) -> Bool) async throws {
            do {
                _ = try await store.append(events, to: stream)
                Issue.record("bad input was accepted: \(stream.prefix(20)) \(events.map(\.type))")
            } catch let error as EventStoreError {
                #expect(matches(error), "unexpected error \(error)")
                #expect(!error.description.isEmpty)
            }
            #expect(try await store.headPosition() == 1)
        }
        try await refused("", [testEvent()]) { $0.code == .invalidStreamID }
        try await refused(String(repeating: "x", count: 300), [testEvent()]) { $0.code == .invalidStreamID }
        try await refused("tab\there", [testEvent()]) { $0.code == .invalidStreamID }
        try await refused("s", []) { $0.code == .emptyAppend }
        try await refused("s", [testEvent(type: String(repeating: "t", count: 200))]) { $0.code == .invalidEventType }
        try await refused("s", [testEvent(subject: "")]) { $0.code == .invalidSubject }
        try await refused("s", [testEvent(subject: String(repeating: "u", count: 300))]) { $0.code == .invalidSubject }
        let nilID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        try await refused("s", [testEvent(id: nilID)]) { $0.code == .invalidEventID }
        // Nor is it a correlation or causation id (PostgreSQL would store it as none, and the
        // record would no longer match its checksum).
        var nilCorrelation = testEvent()
        nilCorrelation.correlationId = nilID
        try await refused("s", [nilCorrelation]) { $0.code == .invalidEventID }
        var nilCausation = testEvent()
        nilCausation.causationId = nilID
        try await refused("s", [nilCausation]) { $0.code == .invalidEventID }
        let twice = testEvent()
        try await refused("s", [twice, twice]) { $0.code == .invalidEventID }
        var huge = testEvent()
        huge.payload = [UInt8](repeating: 1, count: 2 << 20)
        try await refused("s", [huge]) { $0.code == .eventTooLarge }
        var badOffset = testEvent()
        badOffset.occurredAt.utcOffsetSeconds = 20 * 3600
        try await refused("s", [badOffset]) { $0.code == .invalidTimestamp }
        // Names are compared as bytes, and Swift calls an NFD name equal to its NFC twin: only
        // NFC is stored, so no two stored names are ever one name to a String-keyed table.
        let decomposed = "jose\u{301}", composed = "jos\u{e9}"
        try await refused("user-" + decomposed, [testEvent()]) { $0.code == .invalidStreamID && $0.description.contains("NFC") }
        try await refused("s", [testEvent(subject: decomposed)]) { $0.code == .invalidSubject && $0.description.contains("NFC") }
        try await refused("s", [testEvent(type: "caf" + "e\u{301}.set")]) { $0.code == .invalidEventType }
        _ = try await store.append([testEvent(subject: composed)], to: "user-" + composed)
        #expect(try await store.streamVersion("user-" + composed) == 0)
        #expect(try await store.readSubject(composed, from: Position(1), direction: .forward, limit: 10).count == 1)
    }
}
