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
                    for _ in 0..<(1 + Int(random.next() % 3)) {
                        chosen.append(random.next() % 2 == 0 ? random.uuid() : random.timeOrderedUUID(at: 1_795_000_000_000_000 + Int64(step) * 1000))
                    }
                }
                // What the rules say.
                let found = chosen.compactMap { ids[$0] }
                let expected: Outcome
                if found.isEmpty {
                    expected = .written(first: head + 1, last: head + UInt64(chosen.count))
                } else if found.contains(where: { $0.stream != target }) {
                    expected = .refused(.eventIdInUse)
                } else if found.count != chosen.count || found.enumerated().contains(where: { $0.element.version != found[0].version + UInt64($0.offset) }) {
                    expected = .refused(.idempotencyConflict)
                } else {
                    expected = .repeated(first: found[0].position, last: found[found.count - 1].position)
                }
                // What the log does.
                let events = chosen.map { testEvent("\(step)", id: $0) }
                let actual: Outcome
                do {
                    let result = try await store.append(events, to: target, expectedVersion: .any)
                    actual = result.alreadyWritten
                        ? .repeated(first: result.firstPosition.rawValue, last: result.lastPosition.rawValue)
                        : .written(first: result.firstPosition.rawValue, last: result.lastPosition.rawValue)
                } catch let error as EventStoreError {
                    actual = .refused(error.code)
                }
                #expect(actual == expected, "step \(step): \(target) \(chosen.map { $0.uuidString.prefix(8) })")
                switch expected {
                case .written: seen.insert("written")
                case .repeated: seen.insert("repeated")
                case .refused(let code): seen.insert(code.rawValue)
                }
                if case .written = expected {
                    for id in chosen {
                        head += 1
                        ids[id] = Stored(stream: target, version: versions[target].map { $0 + 1 } ?? 0, position: head)
                        versions[target] = ids[id]!.version
                    }
                    appends.append((target, chosen))
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
            for (id, stored) in ids.prefix(50) {
                #expect(try await reopened.location(ofEvent: id)?.position.rawValue == stored.position)
            }
            let retry = try #require(appends.last)
            #expect(try await reopened.append(retry.ids.map { testEvent("again", id: $0) }, to: retry.stream).alreadyWritten)
            await reopened.close()
        }
    }
}
