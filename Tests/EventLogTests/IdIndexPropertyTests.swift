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

    /// Even seeds fold the journal of client ids into the index every 37 ids.
    @Test("random appends, retries and reuses agree with the model, across journal folds", arguments: [1, 2, 3, 4])
    func agreesWithModel(seed: UInt64) async throws {
        try await withStore({ if seed % 2 == 0 { $0.idJournalFoldThreshold = 37 } }) { store, path in
            var random = SplitMix64(seed: seed)
            var ids: [UUID: Stored] = [:]
            var appends: [(stream: String, ids: [UUID])] = []
            var versions: [String: UInt64] = [:]
            var head: UInt64 = 0
            var seen: Set<String> = []
            /// What the rules say of appending `chosen` to `target` now; a write is recorded in the model.
            func judge(_ chosen: [UUID], _ target: String) -> Outcome {
                let found = chosen.compactMap { ids[$0] }
                let expected: Outcome
                if found.isEmpty {
                    expected = .written(first: head + 1, last: head + UInt64(chosen.count))
                    for id in chosen {
                        head += 1
                        ids[id] = Stored(stream: target, version: versions[target].map { $0 + 1 } ?? 0, position: head)
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
            func outcome(_ result: Result<AppendResult, EventStoreError>) -> Outcome {
                switch result {
                case .success(let result):
                    result.alreadyWritten
                        ? .repeated(first: result.firstPosition.rawValue, last: result.lastPosition.rawValue)
                        : .written(first: result.firstPosition.rawValue, last: result.lastPosition.rawValue)
                case .failure(let error): .refused(error.code)
                }
            }
            var clock: Int64 = 1_795_000_000_000_000
            for step in 0..<500 {
                let stream = "s-\(random.next() % 6)"
                var chosen: [UUID] = []
                var target = stream
                let roll = random.next() % 10
                if roll < 2, !appends.isEmpty {
                    // An earlier append sent again, to its own stream (a retry) or another one.
                    let earlier = appends[Int(random.next() % UInt64(appends.count))]
                    chosen = earlier.ids
                    target = random.next() % 4 == 0 ? stream : earlier.stream
                } else if roll == 2, !ids.isEmpty {
                    // Some reused id beside a new one, in some order.
                    let reused = Array(ids.keys)[Int(random.next() % UInt64(ids.count))]
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
                    let expected = [judge(chosen, target), judge(chosen, target)]
                    let actual = try await store.append(batch: [request, request]).map(outcome)
                    #expect(actual == expected, "step \(step): batch to \(target)")
                } else {
                    let expected = judge(chosen, target)
                    let actual = outcome(try await store.append(batch: [AppendRequest(stream: target, events: events, expectedVersion: .any)])[0])
                    #expect(actual == expected, "step \(step): \(target) \(chosen.map { $0.uuidString.prefix(8) })")
                }
            }
            #expect(seen == ["written", "repeated", "event_id_in_use", "idempotency_conflict"], "the history missed a case: \(seen)")
            #expect(try await store.headPosition().rawValue == head)
            let folded = try await store.storageInfo().databases.first { $0.name == "ids.other" }?.entries ?? 0
            #expect(seed % 2 == 1 || folded > 0, "the journal never folded")
            for (id, stored) in ids {
                let location = try await store.location(ofEvent: id)
                #expect(location == EventLocation(position: Position(stored.position), stream: stored.stream, streamVersion: stored.version))
            }
            await store.close()
            var configuration = LogConfiguration()
            if seed % 2 == 0 { configuration.idJournalFoldThreshold = 37 }
            let reopened = try LMDBEventStore(path: path, configuration: configuration)
            let all = Array(ids)
            let reopenedLocations = try await reopened.locations(ofEvents: all.map(\.key))
            for ((_, stored), location) in zip(all, reopenedLocations) {
                #expect(location?.position.rawValue == stored.position)
            }
            let retry = try #require(appends.last)
            #expect(try await reopened.append(retry.ids.map { testEvent("again", id: $0) }, to: retry.stream).alreadyWritten)
            await reopened.close()
        }
    }
}
