import Foundation
import HummingbirdTesting
import HTTPTypes
import DemoData
import Logbook
import LogbookTestSupport
import Testing

/// Conditional reads over HTTP: every read of a user's answers carries an ETag derived from the
/// log positions it depends on, 304 answers a matching If-None-Match, and the tag moves exactly
/// with what can change the answer — never with another user's writes, always with one's own
/// writes that change the answer.
@Suite("Conditional reads (ETag, If-None-Match)")
struct ConditionalReadTests {
    /// The reads of one user's answers the tests hold to the rule.
    static func reads(_ user: String) -> [String] {
        [
            "/users/\(user)/profile", "/users/\(user)/stats/weekly?date=2026-11-16", "/users/\(user)/stats/weekly.svg?date=2026-11-16",
            "/users/\(user)/stats/period?from=2026-11-01&to=2026-11-30", "/users/\(user)/goals/week?date=2026-11-16",
            "/users/\(user)/goals/streaks", "/users/\(user)/places/deck", "/users/\(user)/places/saved?category=restaurant",
            "/users/\(user)/places/p1", "/users/\(user)/activities", "/users/\(user)/activities/\(user)-w0",
            "/users/\(user)/activities/\(user)-w0/chart.svg", "/users/\(user)/calendar?month=2026-11", "/users/\(user)/insights?days=30&today=2026-11-18",
            "/users/\(user)/records", "/users/\(user)/collectibles", "/users/\(user)/collectibles/progress", "/users/\(user)/timeline",
            "/users/\(user)/training/load?from=2026-11-01&to=2026-11-30", "/users/\(user)/training/week?date=2026-11-16&today=2026-11-18",
            "/users/\(user)/training/targets?today=2026-11-18",
            "/users/\(user)/stats/summary?period=week&from=2026-11-01&to=2026-11-30",
            "/users/\(user)/stats/summary.svg?period=month&from=2026-11-01&to=2026-11-30&metric=time",
        ]
    }

    /// One write of `user`, the `n`th of the run (each writes something new).
    static func write(_ server: TestServer, _ user: String, kind: Int, n: Int) async throws {
        let minute = String(format: "%02d", n % 60)
        let response: TestResponse
        switch kind {
        case 0:
            response = try await server.call(.post, "/users/\(user)/steps", as: user, body: """
                {"samples":[{"start":"2026-11-17T08:\(minute):00+01:00","end":"2026-11-17T08:\(minute):30+01:00","count":\(100 + n),"source":"phone"}]}
                """)
        case 1:
            response = try await server.call(.post, "/users/\(user)/imports", as: user, body: """
                {"workoutId":"\(user)-w\(n + 1)","activityType":"run","startedAt":"2026-11-\(10 + n % 8)T07:\(minute):00+01:00",
                 "endedAt":"2026-11-\(10 + n % 8)T07:59:00+01:00","distanceMeters":\(3000 + 100 * n),"movingSeconds":1200,
                 "source":{"kind":"garmin","sourceId":"g\(n)"}}
                """)
        case 2:
            response = try await server.call(.put, "/users/\(user)/goals/2026-11-20", as: user, body: #"{"steps":\#(9000 + n)}"#)
        case 3:
            response = try await server.call(.post, "/users/\(user)/places/p\(1 + n % 2)/swipe", as: user,
                                              body: #"{"direction":"\#(n % 4 < 2 ? "right" : "left")"}"#)
        default:
            response = try await server.call(.patch, "/users/\(user)/profile", as: user, body: #"{"displayName":"\#(user) \#(n)"}"#)
        }
        #expect(response.status == .created, "write \(kind) of \(user): \(response.text)")
    }

    /// The answers and tags of `reads(user)`.
    static func snapshot(_ server: TestServer, _ user: String) async throws -> [String: (tag: String, body: String)] {
        var answers: [String: (String, String)] = [:]
        for uri in reads(user) {
            let response = try await server.call(.get, uri, as: user)
            #expect(response.status == .ok, "\(uri): \(response.text)")
            let tag = try #require(response.headers[.eTag], "\(uri) has no ETag")
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 34, "\(uri): \(tag)")
            #expect(response.headers[.cacheControl] == "private, no-cache", "\(uri)")
            answers[uri] = (tag, response.text)
        }
        return answers
    }

    static func setUp(_ server: TestServer) async throws {
        for place in ["p1", "p2"] {
            let added = try await server.call(.post, "/catalog/places", as: "op", admin: true, body: """
                {"placeId":"\(place)","name":"Café \(place)","category":"restaurant","subcategory":"cafe","latitude":52.5,"longitude":13.4}
                """)
            #expect(added.status == .created, "\(added.text)")
        }
        for user in ["ana", "bob"] {
            try await register(server, user)
            #expect(try await server.call(.post, "/users/\(user)/imports", as: user, body: """
                {"workoutId":"\(user)-w0","activityType":"run","startedAt":"2026-11-16T07:00:00+01:00","endedAt":"2026-11-16T07:45:00+01:00",
                 "distanceMeters":8000,"movingSeconds":2400,"source":{"kind":"healthkit","sourceId":"h0"}}
                """).status == .created)
        }
    }

    @Test("seeded writes of two users: another user's write never moves a tag, one's own write moves every tag whose answer it changes, 304 exactly while the tag holds")
    func tagsFollowTheAnswers() async throws {
        try await withServer { server in
            try await Self.setUp(server)
            var random = SplitMix64(seed: 29)
            var before = try await Self.snapshot(server, "ana")
            var movedByAna = 0
            for n in 0..<24 {
                let writer = random.next() % 3 == 0 ? "ana" : "bob"
                let kind = Int(random.next() % 5)
                try await Self.write(server, writer, kind: kind, n: n)
                let after = try await Self.snapshot(server, "ana")
                for uri in Self.reads("ana") {
                    let (old, new) = (before[uri]!, after[uri]!)
                    if writer == "bob" {
                        #expect(new.tag == old.tag, "bob's write \(kind) moved ana's \(uri)")
                        #expect(new.body == old.body, "bob's write \(kind) changed ana's \(uri)")
                    } else if new.body != old.body {
                        #expect(new.tag != old.tag, "ana's write \(kind) changed \(uri) but kept its tag")
                        movedByAna += 1
                    }
                    // The client's earlier tag: 304 with no body exactly while it still holds.
                    let conditional = try await server.call(.get, uri, as: "ana", headers: ["If-None-Match": old.tag])
                    if new.tag == old.tag {
                        #expect(conditional.status == .notModified, "\(uri): \(conditional.status)")
                        #expect(conditional.body.readableBytes == 0)
                        #expect(conditional.headers[.eTag] == old.tag)
                    } else {
                        #expect(conditional.status == .ok, "\(uri): \(conditional.status)")
                        #expect(conditional.text == new.body)
                    }
                }
                before = after
            }
            // The run held the rule over many changed answers, not over none.
            #expect(movedByAna >= 20, "\(movedByAna)")
        }
    }

    @Test("a write changes the tags of the reads that read its type and no others; a catalog change moves places only")
    func exactlyTheReadsThatCanChange() async throws {
        try await withServer { server in
            try await Self.setUp(server)
            let start = try await Self.snapshot(server, "ana")
            try await Self.write(server, "ana", kind: 3, n: 0)  // a swipe: places and the timeline
            let swiped = try await Self.snapshot(server, "ana")
            let moved = Set(Self.reads("ana").filter { swiped[$0]!.tag != start[$0]!.tag })
            #expect(moved == ["/users/ana/places/deck", "/users/ana/places/saved?category=restaurant", "/users/ana/places/p1", "/users/ana/timeline"],
                    "\(moved.sorted())")
            let added = try await server.call(.post, "/catalog/places", as: "op", admin: true, body: """
                {"placeId":"p3","name":"Bäckerei","category":"restaurant","subcategory":"bakery","latitude":52.5,"longitude":13.4}
                """)
            #expect(added.status == .created)
            let catalogued = try await Self.snapshot(server, "ana")
            let movedByCatalog = Set(Self.reads("ana").filter { catalogued[$0]!.tag != swiped[$0]!.tag })
            // The timeline's lines name places by their catalog entry, so it reads the catalog too.
            #expect(movedByCatalog.isSuperset(of: ["/users/ana/places/deck", "/users/ana/places/saved?category=restaurant", "/users/ana/places/p1"]))
            #expect(movedByCatalog.allSatisfy { $0.contains("/places") || $0.hasSuffix("/timeline") }, "\(movedByCatalog.sorted())")
        }
    }

    @Test("tags come from log positions: a rebuild keeps them, an as-of answer's tag never moves, and If-None-Match takes lists, W/ and *")
    func tagsAreDerivedFromPositions() async throws {
        try await withServer { server in
            try await Self.setUp(server)
            let head = try await server.head()
            let uri = "/users/ana/stats/weekly?date=2026-11-16"
            let tag = try #require(try await server.call(.get, uri, as: "ana").headers[.eTag])
            let pinned = try #require(try await server.call(.get, uri + "&asOf=\(head)", as: "ana").headers[.eTag])
            #expect(pinned != tag)
            try await server.logbook.rebuild()
            #expect(try await server.call(.get, uri, as: "ana").headers[.eTag] == tag)
            try await Self.write(server, "ana", kind: 0, n: 1)
            #expect(try await server.call(.get, uri, as: "ana").headers[.eTag] != tag)
            #expect(try await server.call(.get, uri + "&asOf=\(head)", as: "ana").headers[.eTag] == pinned)
            let current = try #require(try await server.call(.get, uri, as: "ana").headers[.eTag])
            for condition in ["W/\(current)", "\"nope\", \(current)", "*"] {
                #expect(try await server.call(.get, uri, as: "ana", headers: ["If-None-Match": condition]).status == .notModified, "\(condition)")
            }
            for condition in [tag, "\"nope\"", "W/\"nope\"", "garbage"] {
                #expect(try await server.call(.get, uri, as: "ana", headers: ["If-None-Match": condition]).status == .ok, "\(condition)")
            }
            // Refusals and writes carry no tag; the log's pages and administrators' status are not conditional.
            #expect(try await server.call(.get, "/users/ana/activities/nope", as: "ana").headers[.eTag] == nil)
            #expect(try await server.call(.get, "/admin/caches", as: "op", admin: true).headers[.eTag] == nil)
        }
    }
}
