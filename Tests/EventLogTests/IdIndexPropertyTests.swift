import DemoData
import EventLog
import EventLogLMDB
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// The log's index of event ids against a model of the rules: random appends that mix new ids
/// (time-ordered and random), retries of earlier appends, ids of other streams and partial
/// repeats, each answered as the model says, and every id found where the model put it — also
/// after the log is reopened.
@Suite("Event id index, against a model")
struct IdIndexPropertyTests {
    struct Stored: Equatable {
        var stream: String
        var version: UInt64
        var position: UInt64
    }

    enum Outcome: Equatable {
        case written(first: UInt64, last: UInt64)
        case repeated(first: UInt64, last: UInt64)
        case refused(EventStoreError.Code)
    }

    /// What the rules say of each append, given everything appended before it.
    struct Model {
        var ids: [UUID: Stored] = [:]
        /// The written ids in the order written: random choices index this, never the
        /// dictionary, whose order changes from one process to the next.
        var written: [UUID] = []
        var appends: [(stream: String, ids: [UUID])] = []
        var versions: [String: UInt64] = [:]
        var head: UInt64 = 0
        var seen: Set<String> = []

        /// What the rules say of appending `chosen` to `target` now; a write is recorded in the model.
        mutating func judge(_ chosen: [UUID], _ target: String) -> Outcome {
            let found = chosen.compactMap { ids[$0] }
            let expected: Outcome
            if found.isEmpty {
                expected = .written(first: head + 1, last: head + UInt64(chosen.count))
                for id in chosen {
                    head += 1
                    ids[id] = Stored(stream: target, version: versions[target].map { $0 + 1 } ?? 0, position: head)
                    written.append(id)
                    versions[target] = ids[id]!.version
                }
                appends.append((target, chosen))
            } else if found.contains(where: { $0.stream != target }) {
                expected = .refused(.eventIdInUse)
            } else if found.count != chosen.count || found.enumerated().contains(where: { $0.element.version != found[0].version + UInt64($0.offset) }) {
                expected = .refused(.idempotencyConflict)
            } else {
                expected = .repeated(first: found[0].position, last: found[found.count - 1].position)
            }
            switch expected {
            case .written: seen.insert("written")
            case .repeated: seen.insert("repeated")
            case .refused(let code): seen.insert(code.rawValue)
            }
            return expected
        }

        /// Every id is where the model put it, by the readers' lookup (one id, then all at once).
        func expectLocations(in store: LMDBEventStore) async throws {
            // In the order written, so that a failure here is the same in every run.
            let all = written.map { (key: $0, value: ids[$0]!) }
            let one = try #require(all.first)
            #expect(try await store.location(ofEvent: one.key)?.position.rawValue == one.value.position)
            let locations = try await store.locations(ofEvents: all.map(\.key))
            for ((id, stored), location) in zip(all, locations)
            where location != EventLocation(position: Position(stored.position), stream: stored.stream, streamVersion: stored.version) {
                Issue.record("\(id) found at \(String(describing: location)), where the model put it at \(stored.position) in \(stored.stream)")
            }
        }
    }

    static func outcome(_ result: Result<AppendResult, EventStoreError>) -> Outcome {
        switch result {
        case .success(let result):
            result.alreadyWritten
                ? .repeated(first: result.firstPosition.rawValue, last: result.lastPosition.rawValue)
                : .written(first: result.firstPosition.rawValue, last: result.lastPosition.rawValue)
        case .failure(let error): .refused(error.code)
        }
    }

    /// The first index where two answers to the same batch differ (a batch answers every request).
    static func firstDifference(_ actual: [Outcome], _ expected: [Outcome]) throws -> Int? {
        try #require(actual.count == expected.count, "a batch answers every request")
        return actual.indices.first { actual[$0] != expected[$0] }
    }

    /// Even seeds fold the journal of client ids into the index every 37 ids.
    @Test("random appends, retries and reuses agree with the model, across journal folds", arguments: [1, 2, 3, 4])
    func agreesWithModel(seed: UInt64) async throws {
        try await withStore({ if seed % 2 == 0 { $0.idJournalFoldThreshold = 37 } }) { store, path in
            var random = SplitMix64(seed: seed)
            var model = Model()
            let outcome = Self.outcome
            var clock: Int64 = 1_795_000_000_000_000
            for step in 0..<500 {
                let stream = "s-\(random.next() % 6)"
                var chosen: [UUID] = []
                var target = stream
                let roll = random.next() % 10
                if roll < 2, !model.appends.isEmpty {
                    // An earlier append sent again, to its own stream (a retry) or another one.
                    let earlier = model.appends[Int(random.next() % UInt64(model.appends.count))]
                    chosen = earlier.ids
                    target = random.next() % 4 == 0 ? stream : earlier.stream
                } else if roll == 2, !model.ids.isEmpty {
                    // Some reused id beside a new one, in some order.
                    let reused = model.written[Int(random.next() % UInt64(model.written.count))]
                    chosen = random.next() % 2 == 0 ? [reused, random.uuid()] : [random.uuid(), reused]
                } else {
                    // New ids: random ones, time-ordered ones as a server makes them (increasing),
                    // and now and then a time-ordered one from an earlier moment (out of order).
                    for _ in 0..<(1 + Int(random.next() % 12)) {
                        clock += 1_000
                        switch random.next() % 4 {
                        case 0: chosen.append(random.uuid())
                        case 1: chosen.append(random.timeOrderedUUID(at: clock - Int64(random.next() % 200) * 1_000))
                        default: chosen.append(random.timeOrderedUUID(at: clock))
                        }
                    }
                    // Concurrent appenders hand the writer new ids a little out of order.
                    if random.next() % 3 == 0 { chosen.reverse() }
                }
                let events = chosen.map { testEvent("\(step)", id: $0) }
                if roll == 9 {
                    // The same append twice in one commit: written, then answered as written.
                    let request = AppendRequest(stream: target, events: events, expectedVersion: .any)
                    let expected = [model.judge(chosen, target), model.judge(chosen, target)]
                    let actual = try await store.append(batch: [request, request]).map(outcome)
                    #expect(actual == expected, "step \(step): batch to \(target)")
                } else {
                    let expected = model.judge(chosen, target)
                    let actual = outcome(try await store.append(batch: [AppendRequest(stream: target, events: events, expectedVersion: .any)])[0])
                    #expect(actual == expected, "step \(step): \(target) \(chosen.map { $0.uuidString.prefix(8) })")
                }
            }
            #expect(model.seen == ["written", "repeated", "event_id_in_use", "idempotency_conflict"], "the history missed a case: \(model.seen)")
            #expect(try await store.headPosition().rawValue == model.head)
            let folded = try await store.storageInfo().databases.first { $0.name == "ids.other" }?.entries ?? 0
            #expect(seed % 2 == 1 || folded > 0, "the journal never folded")
            try await model.expectLocations(in: store)
            await store.close()
            var configuration = LogConfiguration()
            if seed % 2 == 0 { configuration.idJournalFoldThreshold = 37 }
            let reopened = try LMDBEventStore(path: path, configuration: configuration)
            let all = model.written.map { (key: $0, value: model.ids[$0]!) }
            let reopenedLocations = try await reopened.locations(ofEvents: all.map(\.key))
            for ((_, stored), location) in zip(all, reopenedLocations) {
                #expect(location?.position.rawValue == stored.position)
            }
            let retry = try #require(model.appends.last)
            #expect(try await reopened.append(retry.ids.map { testEvent("again", id: $0) }, to: retry.stream).alreadyWritten)
            await reopened.close()
        }
    }

    /// An import's shape: large batches of many appends in one commit, each user's ids in time
    /// order but the users' clocks interleaved (so the ids are not in log order and fall inside
    /// the runs written before them), with long ascending batches of one stream, and retries and
    /// reuses of earlier appends — from the same commit and from earlier ones, searched often
    /// enough that the writer reads whole runs into memory — each answered as the model says.
    @Test("import-shaped batches, ids in order per user only, agree with the model", arguments: [11, 12])
    func importShapedBatchesAgree(seed: UInt64) async throws {
        try await withStore { store, _ in
            var random = SplitMix64(seed: seed)
            var model = Model()
            let users = 12
            var clocks = (0..<users).map { Int64(1_795_000_000_000_000 + $0 * 7_000) }
            for step in 0..<40 {
                var requests: [AppendRequest] = []
                var expected: [Outcome] = []
                func add(_ chosen: [UUID], _ target: String) {
                    requests.append(AppendRequest(stream: target, events: chosen.map { testEvent("\(step)", id: $0) }, expectedVersion: .any))
                    expected.append(model.judge(chosen, target))
                }
                if step % 8 == 3 {
                    // A server's batch: one stream, 300 ids in order, newer than every user's.
                    let start = clocks.max()! + 1_000
                    add((0..<300).map { random.timeOrderedUUID(at: start + Int64($0) * 1_000) }, "server-\(step)")
                    for index in clocks.indices { clocks[index] = start + 300_000 + Int64(index) * 7_000 }
                }
                for _ in 0..<(20 + Int(random.next() % 40)) {
                    let roll = random.next() % 20
                    if roll < 3, !model.appends.isEmpty {
                        // A retry of an earlier append (often a long one), or the same ids to another stream.
                        let earlier = model.appends[Int(random.next() % UInt64(model.appends.count))]
                        add(earlier.ids, roll == 0 ? "elsewhere" : earlier.stream)
                    } else if roll == 3, !model.ids.isEmpty {
                        // A new id beside a written one: to the written one's stream half the
                        // time (a partial repeat), else to some user's (an id of another stream).
                        let reused = model.written[Int(random.next() % UInt64(model.written.count))]
                        let user = Int(random.next() % UInt64(users))
                        clocks[user] += 1_000
                        let target = random.next() % 2 == 0 ? model.ids[reused]!.stream : "user-\(user)"
                        add([random.timeOrderedUUID(at: clocks[user]), reused], target)
                    } else {
                        let user = Int(random.next() % UInt64(users))
                        let chosen = (0..<(1 + Int(random.next() % 8))).map { _ in
                            clocks[user] += 1_000
                            return random.timeOrderedUUID(at: clocks[user])
                        }
                        add(chosen, "user-\(user)")
                    }
                }
                let actual = try await store.append(batch: requests).map(Self.outcome)
                if let index = try Self.firstDifference(actual, expected) {
                    Issue.record("step \(step), append \(index): \(actual[index]), where the model says \(expected[index])")
                    return
                }
            }
            #expect(model.seen == ["written", "repeated", "event_id_in_use", "idempotency_conflict"], "the history missed a case: \(model.seen)")
            // Every append once more, in one commit: each is the original, found by the writer.
            let again = model.appends.map { AppendRequest(stream: $0.stream, events: $0.ids.map { testEvent("again", id: $0) }, expectedVersion: .any) }
            let answers = try await store.append(batch: again).map(Self.outcome)
            let originals = model.appends.map { append in
                Outcome.repeated(first: model.ids[append.ids[0]]!.position, last: model.ids[append.ids[append.ids.count - 1]]!.position)
            }
            if let index = try Self.firstDifference(answers, originals) {
                Issue.record("append \(index) sent again: \(answers[index]), where it was \(originals[index])")
            }
            #expect(try await store.headPosition().rawValue == model.head)
            try await model.expectLocations(in: store)
        }
    }
}
