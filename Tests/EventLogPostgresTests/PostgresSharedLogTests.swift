import EventLog
@testable import EventLogPostgres
import Foundation
import LogbookTestSupport
import Testing

/// Leases and the servers' register of a log several servers share, on a real PostgreSQL: one
/// holder at a time, taken over only when its time is up or it gives the lease up, and a write
/// made under a lease refused once another holds it.
@Suite("A shared PostgreSQL log's leases and servers", .timeLimit(.minutes(10)))
struct PostgresSharedLogTests {
    @Test("one holder at a time; renewed by its holder; taken when its time is up; writes under it refused once lost")
    func leases() async throws {
        try await withPostgresStore { a, url in
            let b = try await connect(url)
            defer { Task { await b.close() } }
            #expect(try await a.leaseHolder("job") == nil)
            // Leases far longer than the test: a loaded machine never lets one run out by itself
            // here; running out is made explicit below.
            let first = try await a.claimLease("job", holder: "a", for: .seconds(120))
            #expect(first.holder == "a")
            #expect(first.remainingMicroseconds > 119_000_000 && first.remainingMicroseconds <= 120_000_000)
            // Another server is told who holds it, and for how long.
            let refused = try await b.claimLease("job", holder: "b", for: .seconds(600))
            #expect(refused.holder == "a")
            #expect(refused.remainingMicroseconds <= 120_000_000)
            #expect(try await a.claimLease("job", holder: "a", for: .seconds(120)).holder == "a", "the holder renews")
            #expect(try await a.claimLease("other", holder: "b", for: .seconds(60)).holder == "b", "leases are independent")

            // Writes count only while their holder holds the lease.
            #expect(try await a.storeCheckpoint(Checkpoint(name: "c", position: 5, data: [1]), holding: "job", holder: "a"))
            #expect(try await b.storeCheckpoint(Checkpoint(name: "c", position: 9, data: [2]), holding: "job", holder: "b") == false)
            #expect(try await b.checkpoint(named: "c") == Checkpoint(name: "c", position: 5, data: [1]))

            // Once its time is up, another takes it, and the old holder's writes are refused.
            try await TestPostgres.psql(url, "UPDATE logbook.leases SET expires_at = now() - interval '1 millisecond' WHERE name = 'job'")
            #expect(try await a.leaseHolder("job") == nil)
            #expect(try await b.claimLease("job", holder: "b", for: .seconds(600)).holder == "b")
            #expect(try await a.storeCheckpoint(Checkpoint(name: "c", position: 7, data: [3]), holding: "job", holder: "a") == false)
            #expect(try await a.claimLease("job", holder: "a", for: .seconds(120)).holder == "b")
            #expect(try await a.checkpoint(named: "c") == Checkpoint(name: "c", position: 5, data: [1]))

            // Giving it up frees it at once, and only its holder can.
            try await a.releaseLease("job", holder: "a")
            #expect(try await a.leaseHolder("job")?.holder == "b")
            try await b.releaseLease("job", holder: "b")
            #expect(try await a.leaseHolder("job") == nil)
            #expect(try await a.claimLease("job", holder: "a", for: .seconds(120)).holder == "a")

            // Names follow the rules of checkpoint names.
            await #expect(throws: EventStoreError.self) { _ = try await a.claimLease("", holder: "a", for: .seconds(1)) }
            await #expect(throws: EventStoreError.self) { _ = try await a.claimLease("job", holder: String(repeating: "h", count: 300), for: .seconds(1)) }
            await #expect(throws: EventStoreError.self) { _ = try await a.claimLease("job", holder: "a\u{0}b", for: .seconds(1)) }
        }
    }

    @Test("a write under a lease and a claim racing it: a write that counted is read by the new holder at once")
    func claimWaitsForWrites() async throws {
        try await withPostgresStore { a, url in
            let b = try await connect(url)
            defer { Task { await b.close() } }
            var outcomes = (written: 0, refused: 0)
            for round in 0..<30 {
                _ = try await a.claimLease("race", holder: "a", for: .milliseconds(60))
                try await Task.sleep(for: .milliseconds(Int.random(in: 40...80)))
                let position = UInt64(round + 1)
                async let written = a.storeCheckpoint(Checkpoint(name: "race", position: Position(position)), holding: "race", holder: "a")
                // b reads as soon as it holds the lease, while a's write may still be in flight:
                // had the write not locked the lease, it could commit after this read.
                async let observed = { () async throws -> UInt64? in
                    try await Self.claimUntilHeld(b, "race", holder: "b")
                    return try await b.checkpoint(named: "race")?.position.rawValue
                }()
                let (wrote, seen) = try await (written, observed)
                if wrote {
                    outcomes.written += 1
                    #expect(seen == position, "round \(round): a's write counted, but the new holder read \(seen.map(String.init) ?? "nothing")")
                } else {
                    outcomes.refused += 1
                    #expect(seen != position)
                }
                try await b.releaseLease("race", holder: "b")
            }
            print("lease race: \(outcomes.written) writes counted, \(outcomes.refused) refused")
        }
    }

    static func claimUntilHeld(_ store: PostgresEventStore, _ name: String, holder: String) async throws {
        while try await store.claimLease(name, holder: holder, for: .seconds(10)).holder != holder {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test("servers announce themselves; the list has those seen lately, in the order they started; long-silent ones are forgotten")
    func servers() async throws {
        try await withPostgresStore { store, url in
            let one = ServerAnnouncement(id: "one/1", name: "one", url: "http://10.0.0.1:8080", startedAt: 1_700_000_000_000_000, head: 10, readThrough: 8)
            let two = ServerAnnouncement(id: "two/2", name: "two", url: "", startedAt: 1_600_000_000_000_000, head: 12, readThrough: 12)
            try await store.announce(one)
            try await store.announce(two)
            // "Lately" is ten minutes here, so that a loaded machine's pauses between these steps
            // never drop a server announced moments before; silence is made explicit below.
            let lately = Duration.seconds(600)
            var listed = try await store.servers(seenWithin: lately, forgetAfter: .seconds(3_600))
            #expect(listed.map(\.announcement) == [two, one])
            #expect(listed.allSatisfy { $0.silentMicroseconds >= 0 && $0.silentMicroseconds < 600_000_000 })
            var moved = one
            moved.head = 20
            moved.readThrough = 19
            try await store.announce(moved)
            listed = try await store.servers(seenWithin: lately, forgetAfter: .seconds(3_600))
            #expect(listed.map(\.announcement) == [two, moved])
            // "two" went silent an hour ago: not listed, then forgotten.
            try await TestPostgres.psql(url, "UPDATE logbook.servers SET seen_at = now() - interval '2 hours' WHERE id = 'two/2'")
            #expect(try await store.servers(seenWithin: lately, forgetAfter: .seconds(86_400)).map(\.announcement) == [moved])
            #expect(try await TestPostgres.psql(url, "SELECT count(*) FROM logbook.servers").trimmingCharacters(in: .whitespacesAndNewlines) == "2")
            _ = try await store.servers(seenWithin: lately, forgetAfter: .seconds(3_600))
            #expect(try await TestPostgres.psql(url, "SELECT count(*) FROM logbook.servers").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            var long = one
            long.url = String(repeating: "u", count: 3_000)
            await #expect(throws: EventStoreError.self) { try await store.announce(long) }
        }
    }
}
