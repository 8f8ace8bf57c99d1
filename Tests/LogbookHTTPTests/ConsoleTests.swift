import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logbook
@testable import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import NIOCore
import Testing

/// The console's files and the overview it shows: `GET /console/…` and `GET /admin/overview`,
/// on a real LMDB store served in process (the browser itself: ConsoleBrowserTests).
@Suite("Console files and overview")
struct ConsoleTests {
    /// The time the tests' hand clock starts at: 2026-11-18 12:00 UTC.
    static let start = Timestamp(microsecondsSinceEpoch: 1_795_003_200_000_000)

    static func later(_ seconds: Double, than time: Timestamp = start) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: time.microsecondsSinceEpoch + Int64(seconds * 1_000_000))
    }

    @Test("The console's files: a redirect to the slash, a strict CSP on each, ETag revalidation, no inline code, under 200 kB")
    func files() async throws {
        try await withServer { server in
            // Relative: `//console` must not send the browser to a host named console.
            for path in ["/console", "//console"] {
                let bare = try await server.client.execute(uri: path, method: .get, headers: [:], body: nil)
                #expect(bare.status == .movedPermanently && bare.headers[.location] == "console/", "\(path)")
            }
            var total = 0
            for name in ["", "console.css", "app.js", "api.js", "view.js", "overview.js", "readmodels.js", "log.js", "users.js", "caches.js", "webhooks.js"] {
                let response = try await server.client.execute(uri: "/console/" + name, method: .get, headers: [:], body: nil)
                #expect(response.status == .ok, "\(name)")
                let csp = response.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
                #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && !csp.contains("unsafe"), "\(name): \(csp)")
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                let type = response.headers[.contentType] ?? ""
                #expect(type.hasPrefix(name.isEmpty ? "text/html" : name.hasSuffix(".css") ? "text/css" : "text/javascript"), "\(name): \(type)")
                let text = String(buffer: response.body)
                total += response.body.readableBytes
                // Built with the DOM API: text from the log never becomes markup or code.
                for forbidden in ["innerHTML", "outerHTML =", "insertAdjacentHTML", "eval(", "new Function", "document.write"] {
                    #expect(!text.contains(forbidden), "\(name) uses \(forbidden)")
                }
                let etag = try #require(response.headers[.eTag])
                let again = try await server.client.execute(uri: "/console/" + name, method: .get, headers: [.ifNoneMatch: etag], body: nil)
                #expect(again.status == .notModified && again.body.readableBytes == 0, "\(name)")
                if name.isEmpty {
                    // No inline script, style or handler: the CSP would block them.
                    #expect(text.range(of: #"<script(?![^>]*\bsrc=)"#, options: .regularExpression) == nil)
                    #expect(text.range(of: #"\s(style|on[a-z]+)="#, options: .regularExpression) == nil)
                    #expect(!text.contains("<style"))
                }
            }
            #expect(total == ConsoleAssets.totalBytes)
            #expect(total < 200_000, "the console is \(total) bytes")
            let missing = try await server.client.execute(uri: "/console/secrets.js", method: .get, headers: [:], body: nil)
            #expect(missing.status == .notFound && String(buffer: missing.body).contains("secrets.js"))
            let traversal = try await server.client.execute(uri: "/console/..%2FPackage.swift", method: .get, headers: [:], body: nil)
            #expect(traversal.status == .notFound)
        }
    }

    @Test("The overview: head, writer counters and events by type equal the log's; samples one a second by the Logbook's clock; administrators only")
    func overview() async throws {
        let clock = HandClock(Self.start)
        try await withServer(logbook: { $0.clock = clock }) { server in
            for user in ["ana", "ben"] { try await register(server, user) }
            func steps(_ user: String, _ count: Int) async throws {
                let body = #"{"samples":[{"start":"2026-11-17T08:00:00Z","end":"2026-11-17T08:01:00Z","count":\#(count),"source":"phone"}]}"#
                #expect(try await server.call(.post, "/users/\(user)/steps", as: user, body: body).status == .created)
            }
            try await steps("ana", 100)
            #expect(try await server.call(.get, "/admin/overview", as: "ana").status == .forbidden)

            let first = try await server.call(.get, "/admin/overview", as: "op", admin: true)
            #expect(first.status == .ok, "\(first.text)")
            let overview = try JSONDecoder().decode(ConsoleOverview.self, from: Data(first.text.utf8))
            #expect(overview.head == (try await server.head()))
            #expect(overview.backend == "lmdb" && overview.appends >= 3 && overview.rejected == 0 && overview.writerQueue == 0)
            #expect(overview.typesCountedThrough == overview.head)
            #expect(overview.eventsByType.map { [$0.type: $0.count] } == (try await Self.typeCounts(server.logbook)).map { [$0.key: $0.value] })
            #expect(overview.samples.count == 1 && overview.eventsPerSecond == 0)
            #expect(overview.readModels.map(\.projection) == ReadModelKind.allCases && overview.readModels.allSatisfy { !$0.stalled && $0.lag == 0 })
            #expect(overview.mapSize != nil && overview.readersInUse != nil)
            // An embedded store has one server: this one, delivering webhooks, its read models caught up.
            #expect(overview.servers.count == 1)
            #expect(overview.servers.first.map { $0.thisServer && $0.deliversWebhooks && $0.head == overview.head && $0.readThrough == overview.head && $0.lag == 0 } == true)

            // Within the same second the last sample answers; two seconds on, a new one.
            try await steps("ben", 50)
            try await steps("ana", 60)
            let cached = try JSONDecoder().decode(ConsoleOverview.self, from: Data(try await server.call(.get, "/admin/overview", as: "op", admin: true).text.utf8))
            #expect(cached == overview)
            clock.set(Self.later(2))
            let next = try JSONDecoder().decode(ConsoleOverview.self, from: Data(try await server.call(.get, "/admin/overview", as: "op", admin: true).text.utf8))
            let appended = next.head - overview.head
            #expect(appended == 2 && next.samples.count == 2)
            #expect(abs(next.samples[1].eventsPerSecond - Double(appended) / (next.sampledAt - overview.sampledAt)) < 1e-9)
            #expect(abs(next.eventsPerSecond - next.samples[1].eventsPerSecond) < 1e-9)
            #expect(next.samples[1].commitLatencyMicroseconds != nil && next.commitLatencyMicroseconds != nil)
            #expect(next.appends == overview.appends + 2)
            #expect(next.eventsByType.map { [$0.type: $0.count] } == (try await Self.typeCounts(server.logbook)).map { [$0.key: $0.value] })

            let metrics = try await server.call(.get, "/metrics")
            #expect(metrics.text.contains(#"logbook_projection_stalled{projection="stats"} 0"#), "\(metrics.text.prefix(2000))")
        }
    }

    @Test("Events by type catch up with a large log a bounded chunk per sample; types past the limit count as (other types)")
    func typeCounting() async throws {
        let clock = HandClock(Self.start)
        try await withLogbook({ $0.clock = clock }) { logbook, _ in
            // 25,000 events of 1,100 types, in 25 commits of 1,000.
            let total = 25_000, types = 1_100
            for commit in 0..<(total / 1_000) {
                let requests = (0..<1_000).map { index in
                    let number = commit * 1_000 + index
                    return AppendRequest(stream: "s-\(number % 50)", events: [testEvent("\(number)", type: "test.t\(number % types)")], expectedVersion: .any)
                }
                for result in try await logbook.log.append(batch: requests) { _ = try result.get() }
            }
            let sampler = OverviewSampler(logbook: logbook)
            let first = try await sampler.overview()
            #expect(first.head == UInt64(total) && first.typesCountedThrough == UInt64(OverviewSampler.typeChunk))
            #expect(first.eventsByType.reduce(0) { $0 + $1.count } == UInt64(OverviewSampler.typeChunk))
            clock.set(Self.later(1))
            let second = try await sampler.overview()
            #expect(second.typesCountedThrough == UInt64(total))
            #expect(second.eventsByType.reduce(0) { $0 + $1.count } == UInt64(total))
            #expect(second.eventsByType.count == OverviewSampler.maxTypes + 1)
            let other = second.eventsByType.first { $0.type == "(other types)" }
            // The first 1,024 types met keep their names; the other 76 types' events are pooled.
            let perType = UInt64(total / types)
            #expect(other.map { $0.count >= 76 * perType } == true, "\(String(describing: other))")
            let named = second.eventsByType.map(\.type).filter { $0 != "(other types)" }
            #expect(named == named.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    @Test("Stall detection: behind and still for the stall time is stalled; caught up or moving is not")
    func stalls() {
        var detector = StallDetector(stallAfterSeconds: 30)
        #expect(detector.observe(.stats, position: 10, lag: 0, at: 0) == (0, false))
        #expect(detector.observe(.stats, position: 10, lag: 5, at: 10) == (0, false))      // behind, just now
        #expect(detector.observe(.stats, position: 10, lag: 9, at: 39) == (29, false))
        #expect(detector.observe(.stats, position: 10, lag: 9, at: 40) == (30, true))
        #expect(detector.observe(.goals, position: 10, lag: 9, at: 40) == (0, false))      // each read model on its own
        #expect(detector.observe(.stats, position: 12, lag: 7, at: 41) == (0, false))      // it moved
        #expect(detector.observe(.stats, position: 12, lag: 7, at: 80) == (39, true))
        #expect(detector.observe(.stats, position: 12, lag: 0, at: 90) == (0, false))      // caught up: the log did not grow
    }

    /// Every event of the log counted by type, in byte order of the type.
    static func typeCounts(_ logbook: Logbook) async throws -> [(key: String, value: UInt64)] {
        var counts: [String: UInt64] = [:]
        var from = Position(1)
        while true {
            let page = try await logbook.log.readAll(from: from, direction: .forward, limit: 500, filter: EventFilter())
            for event in page.events { counts[event.envelope.type, default: 0] += 1 }
            guard let scanned = page.scannedThrough, !page.reachedEnd else { break }
            from = Position(scanned.rawValue + 1)
        }
        return counts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
