import DemoData
import EventLog
@testable import EventLogPostgres
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// `logbook.append` (schema version 4) decides a call for all its requests at once and writes it
/// without a loop when every request passes; otherwise `logbook.append_one_by_one`, the first
/// version's loop, answers. Seeded random calls — new ids in and out of time order, retries,
/// partial retries, ids of another stream, wrong expected versions, moved subjects, checkpoints,
/// several requests to one stream or subject — go to two databases: one answers through
/// `logbook.append`, the other through the loop alone. Every answer and every row must be the
/// same, and both paths must have run.
@Suite("Appends decided at once or one by one on PostgreSQL", .serialized, .timeLimit(.minutes(10)))
struct PostgresAppendPlanTests {
    static let streams = ["s-0", "s-1", "s-2", "s-3", "é-4"]
    static let subjects = ["u-0", "u-1", "u-2"]
    static let recordedAt = Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000, utcOffsetSeconds: 3600)

    /// Makes `logbook.append` answer every call through the loop alone: the loop takes its name.
    static let loopOnly = "ALTER FUNCTION logbook.append RENAME TO append_planned; ALTER FUNCTION logbook.append_one_by_one RENAME TO append"

    /// Counts calls of the log's functions in the database at `url` (from its next connections).
    static let countCalls = "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET track_functions = ''pl''', current_database()); END $$"

    @Test("seeded random calls get the same answers and rows from the planned path as from the loop", arguments: [UInt64(11), 29])
    func plannedAgreesWithTheLoop(seed: UInt64) async throws {
        let planned = try await TestPostgres.freshDatabase()
        let looped = try await TestPostgres.freshDatabase()
        _ = try await TestPostgres.psql(planned, Self.countCalls)
        let a = try await connect(planned)
        let b = try await connect(looped)
        do {
            _ = try await TestPostgres.psql(looped, Self.loopOnly)
            try await compare(a, b, seed: seed)
            let (appends, loops) = try await calls(planned)
            #expect(loops > 0, "no call of \(appends) needed the loop: the random calls are too tame")
            #expect(appends > loops, "every one of \(appends) calls went through the loop: the planned path never ran")
            await a.close()
            await b.close()
        } catch {
            await a.close()
            await b.close()
            throw error
        }
    }

    @Test("arrays of the wrong shape are refused with an error naming it, and nothing is written")
    func misshapenCallsRefused() async throws {
        let url = try await TestPostgres.freshDatabase()
        let store = try await connect(url)
        await store.close()
        let none = "'00000000-0000-0000-0000-000000000000'"
        // Request 1 (stream x) holds event a, request 2 (stream y) events b and c.
        func call(requests: String, ordinals: String, ids: [String], counts: String = "ARRAY[1,2]") -> String {
            """
            SELECT outcomes FROM logbook.append(ARRAY['x','y'], ARRAY[-1,-1]::bigint[], \(counts), ARRAY['',''], ARRAY[-1,-1]::bigint[], \
            ARRAY['',''], ARRAY[0,0]::bigint[], ARRAY['','']::bytea[], \(requests), \(ordinals), \
            ARRAY[\(ids.map { "'00000000-0000-7000-8000-00000000000\($0)'" }.joined(separator: ","))]::uuid[], ARRAY['t','t','t'], ARRAY[1,1,1], \
            ARRAY['','',''], ARRAY[1,2,3]::bigint[], ARRAY[0,0,0], ARRAY[1,2,3]::bigint[], ARRAY[0,0,0], ARRAY[\(none),\(none),\(none)]::uuid[], \
            ARRAY[\(none),\(none),\(none)]::uuid[], ARRAY['','','']::bytea[], ARRAY['a','b','c']::bytea[], ARRAY[1,2,3]::bigint[])
            """
        }
        let misshapen = [
            ("the events are not in request order", call(requests: "ARRAY[2,2,1]", ordinals: "ARRAY[1,2,1]", ids: ["b", "c", "a"])),
            ("the events are not in request order", call(requests: "ARRAY[1,2,2]", ordinals: "ARRAY[1,2,1]", ids: ["a", "b", "c"])),
            ("do not add up to the events", call(requests: "ARRAY[1,2,2]", ordinals: "ARRAY[1,1,2]", ids: ["a", "b", "c"], counts: "ARRAY[1,1]")),
            ("holds NULL", call(requests: "ARRAY[1,2,2]", ordinals: "ARRAY[1,1,2]", ids: ["a", "b", "c"], counts: "ARRAY[1,NULL]")),
        ]
        for (reason, sql) in misshapen {
            do {
                _ = try await TestPostgres.psql(url, sql)
                Issue.record("accepted a call where \(reason)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
        #expect(try await TestPostgres.psql(url, "SELECT position || ' ' || (SELECT count(*) FROM logbook.events) FROM logbook.head")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "0 0")
        #expect(try await TestPostgres.psql(url, call(requests: "ARRAY[1,2,2]", ordinals: "ARRAY[1,1,2]", ids: ["a", "b", "c"]))
            .trimmingCharacters(in: .whitespacesAndNewlines) == "{0,0}")
        #expect(try await TestPostgres.psql(url, "SELECT string_agg(stream || stream_version, ' ' ORDER BY position) FROM logbook.events")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "x0 y0 y1")
    }

    /// Sends the same calls to `a` and `b` and compares every answer, then both logs and checkpoints.
    func compare(_ a: PostgresEventStore, _ b: PostgresEventStore, seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        var sent: [AppendRequest] = []
        var clock: Int64 = 1_795_000_000_000_000
        for round in 0..<80 {
            var items: [AppendCall.Item] = []
            var usedIds = Set<UUID>()
            for _ in 0..<Int(random.next() % 8 + 1) {
                let request = try await nextRequest(a, &random, sent: sent, clock: &clock)
                // One call holds each id once (the client splits the rest into calls of their own).
                guard request.events.allSatisfy({ usedIds.insert($0.eventId).inserted }) else { continue }
                let checkpoint = random.next() % 5 == 0
                    ? Checkpoint(name: "c-\(random.next() % 2)", position: Position(random.next() % 100), data: [UInt8(truncatingIfNeeded: round)])
                    : nil
                items.append(AppendCall.Item(request: request, checkpoint: checkpoint))
                sent.append(request)
            }
            let call = AppendCall(items: items, recordedAt: Self.recordedAt)
            let fromA = try await AppendTransaction(call: call, client: a.client, timeout: .seconds(60), logger: a.configuration.logger).run().map(\.result)
            let fromB = try await AppendTransaction(call: call, client: b.client, timeout: .seconds(60), logger: b.configuration.logger).run().map(\.result)
            #expect("\(fromA)" == "\(fromB)", "round \(round) of seed \(seed)")
        }
        let logA = try await a.readAll(from: .start, direction: .forward, limit: 10_000, filter: EventFilter()).events
        let logB = try await b.readAll(from: .start, direction: .forward, limit: 10_000, filter: EventFilter()).events
        #expect(logA.count > 100)
        #expect(logA == logB)
        for name in ["c-0", "c-1"] {
            #expect(try await a.checkpoint(named: name) == b.checkpoint(named: name))
        }
    }

    /// A request as a busy log sees them: mostly new events, sometimes a retry, a partial retry or
    /// another stream's ids; any kind of expected version; sometimes a subject condition, current or stale.
    func nextRequest(_ log: PostgresEventStore, _ random: inout SplitMix64, sent: [AppendRequest], clock: inout Int64) async throws -> AppendRequest {
        let stream = Self.streams[Int(random.next() % UInt64(Self.streams.count))]
        var events: [ProposedEvent] = []
        let kind = sent.isEmpty ? 0 : random.next() % 20
        switch kind {
        case 0..<13:
            for _ in 0..<Int(random.next() % 3 + 1) {
                clock += 1_000
                // Time-ordered ids skip the search for known ids; random ones make it run.
                let id = random.next() % 3 == 0 ? random.uuid() : random.timeOrderedUUID(at: clock)
                let subject = random.next() % 4 == 0 ? nil : Self.subjects[Int(random.next() % UInt64(Self.subjects.count))]
                events.append(testEvent("e\(clock)", subject: subject, id: id, occurredAt: Timestamp(microsecondsSinceEpoch: clock)))
            }
        case 13..<16:
            return sent[Int(random.next() % UInt64(sent.count))]
        case 16..<18:
            let earlier = sent[Int(random.next() % UInt64(sent.count))]
            clock += 1_000
            events = [earlier.events[0], testEvent("partial", id: random.timeOrderedUUID(at: clock))]
        default:
            events = sent[Int(random.next() % UInt64(sent.count))].events
        }
        let version = try await log.streamVersion(stream)
        let expected: ExpectedVersion
        switch random.next() % 10 {
        case 0..<4: expected = .any
        case 4: expected = .noStream
        case 5: expected = .streamExists
        default:
            let near = Int64(version ?? 0) + [0, 0, 0, 1, -1][Int(random.next() % 5)]
            expected = .exactly(UInt64(max(near, 0)))
        }
        var condition: SubjectCondition?
        if random.next() % 3 == 0 {
            let subject = Self.subjects[Int(random.next() % UInt64(Self.subjects.count))]
            let last = try await log.readSubject(subject, from: Position(UInt64(Int64.max)), direction: .backward, limit: 1).first?.position ?? .start
            let stale = random.next() % 4 == 0 && last.rawValue > 0
            condition = SubjectCondition(subject: subject, lastPosition: stale ? Position(last.rawValue - 1) : last)
        }
        return AppendRequest(stream: stream, events: events, expectedVersion: expected, subjectCondition: condition)
    }

    /// Calls of `logbook.append` and of `logbook.append_one_by_one` counted in the database at
    /// `url` (statistics arrive within about a second of a connection going idle).
    func calls(_ url: String) async throws -> (appends: Int, loops: Int) {
        let query = """
            SELECT coalesce(sum(calls) FILTER (WHERE funcname = 'append'), 0) || ' ' || \
            coalesce(sum(calls) FILTER (WHERE funcname = 'append_one_by_one'), 0) \
            FROM pg_stat_user_functions WHERE schemaname = 'logbook'
            """
        var counts = (appends: 0, loops: 0)
        for _ in 0..<20 {
            let fields = try await TestPostgres.psql(url, query).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            if fields.count == 2 { counts = (fields[0], fields[1]) }
            if counts.appends >= 80 { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        return counts
    }
}
