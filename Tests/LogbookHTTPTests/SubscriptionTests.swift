import EventLog
import Foundation
import HTTPTypes
import Logbook
@testable import LogbookHTTP
import Hummingbird
import NIOCore
import LogbookTestSupport
import LogbookTesting
import Testing

/// The live subscription over Server-Sent Events: ids are positions, `Last-Event-ID` resumes with
/// no gap and no duplicate, across catch-up and live, while writers append.
@Suite("HTTP subscriptions")
struct SubscriptionTests {
    /// The `id:` of every dispatched event in an SSE body, and whether it saw a keep-alive.
    static func eventIds(_ body: String) -> [UInt64] {
        body.components(separatedBy: "\n\n").compactMap { frame in
            let lines = frame.split(separator: "\n")
            guard lines.contains(where: { $0.hasPrefix("data: ") }) else { return nil }
            return lines.first { $0.hasPrefix("id: ") }.flatMap { UInt64($0.dropFirst(4)) }
        }
    }

    static func appendSteps(_ server: TestServer, user: String, count: Int) async throws {
        for index in 0..<count {
            let minute = String(format: "%02d", index % 60)
            let hour = String(format: "%02d", 8 + index / 60)
            let response = try await server.call(.post, "/users/\(user)/steps", as: user, body: """
                {"samples":[{"start":"2026-11-17T\(hour):\(minute):00Z","end":"2026-11-17T\(hour):\(minute):30Z","count":\(index + 1),"source":"phone"}]}
                """)
            precondition(response.status == .created, response.text)
        }
    }

    @Test("resuming from Last-Event-ID gives every later event once, in order, while 8 writers append")
    func resumeWithoutGapOrDuplicate() async throws {
        try await withServer { server in
            for writer in 0..<8 { try await register(server, "w\(writer)") }
            try await Self.appendSteps(server, user: "w0", count: 20)
            let writers = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for writer in 0..<8 { group.addTask { try await Self.appendSteps(server, user: "w\(writer)", count: 25) } }
                    try await group.waitForAll()
                }
            }
            var seen: [UInt64] = []
            var last: UInt64 = 5
            // Read in batches of 37 events, each resuming from the last id received: catch-up first,
            // then events appended while we read (live).
            let expected = 8 + 20 + 8 * 25 - 5
            while seen.count < expected {
                let response = try await server.call(.get, "/log/subscribe?limit=\(min(37, expected - seen.count))", as: "op", admin: true, headers: ["Last-Event-ID": "\(last)"])
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/event-stream")
                let ids = Self.eventIds(response.text)
                #expect(!ids.isEmpty)
                seen += ids
                last = ids.last ?? last
            }
            try await writers.value
            #expect(seen == Array(6...UInt64(seen.count + 5)), "a gap or a duplicate in \(seen)")
            #expect(try await server.head() == UInt64(seen.count + 5))
        }
    }

    @Test("a quiet subscription sends keep-alives, then the next event as it is appended")
    func liveAndKeepAlive() async throws {
        try await withLogbook({ $0.clock = SteppingClock() }) { logbook, _ in
            // The pump writes into a collecting writer, which appends an event once it has seen
            // the first keep-alive: the order is forced, not left to timing.
            let head = try await logbook.log.headPosition().rawValue
            var writer: any ResponseBodyWriter = CollectingWriter { text in
                guard text.hasPrefix(": keep-alive") else { return }
                try await logbook.execute(.registerUser(user: "zed", UserRegistered(displayName: "Zed", timeZone: "UTC")))
            }
            let live = LiveSubscriptions()
            try await SSEPump(logbook: logbook, after: head, filter: .all, keepAlive: .milliseconds(20), limit: 1, linger: nil, live: live, expires: nil, caller: "admin").run(into: &writer)
            let text = (writer as! CollectingWriter).text
            #expect(live.snapshot().count == 0, "a pump that ended is no longer counted")
            #expect(text.hasPrefix(": keep-alive\n\n"))
            #expect(SubscriptionTests.eventIds(text) == [head + 1])
        }
    }

    @Test("a long poll (linger) ends after the events it caught up with, and at the first keep-alive when none comes",
          .timeLimit(.minutes(3)))
    func lingerEndsThePoll() async throws {
        try await withLogbook({ $0.clock = SteppingClock() }) { logbook, _ in
            for index in 0..<3 {
                try await logbook.execute(.registerUser(user: "u\(index)", UserRegistered(displayName: "U\(index)", timeZone: "UTC")))
            }
            let head = try await logbook.log.headPosition().rawValue
            // Caught up with three events, it ends 20 ms after them: without linger it would wait an
            // hour for its first keep-alive (the time limit fails the test long before). A caller of
            // its own, so its framing waits behind no other test's work on the query threads.
            var writer: any ResponseBodyWriter = CollectingWriter { _ in }
            try await SSEPump(logbook: logbook, after: 0, filter: .all, keepAlive: .seconds(3600), limit: nil, linger: .milliseconds(20),
                              live: LiveSubscriptions(), expires: nil, caller: "linger-test").run(into: &writer)
            let text = (writer as! CollectingWriter).text
            #expect(SubscriptionTests.eventIds(text) == Array(1...head))
            #expect(!text.contains("keep-alive"))
            // With nothing to send, it ends where the first keep-alive would be, sending none.
            var quiet: any ResponseBodyWriter = CollectingWriter { _ in }
            try await SSEPump(logbook: logbook, after: head, filter: .all, keepAlive: .milliseconds(30), limit: nil, linger: .milliseconds(20),
                              live: LiveSubscriptions(), expires: nil, caller: "linger-test").run(into: &quiet)
            #expect((quiet as! CollectingWriter).text.isEmpty)
        }
    }

    @Test("catching up from the start frames the events a batch at a time: every event once, in order, in few writes")
    func catchUpInBatches() async throws {
        try await withLogbook({ $0.clock = SteppingClock() }) { logbook, _ in
            for index in 0..<600 {
                try await logbook.execute(.registerUser(user: "u\(index)", UserRegistered(displayName: "U\(index)", timeZone: "UTC")))
            }
            let head = try await logbook.log.headPosition().rawValue
            var writer: any ResponseBodyWriter = CollectingWriter { _ in }
            try await SSEPump(
                logbook: logbook, after: 0, filter: .all, keepAlive: .seconds(5), limit: head, linger: nil, live: LiveSubscriptions(), expires: nil,
                caller: "admin"
            ).run(into: &writer)
            let collected = writer as! CollectingWriter
            #expect(SubscriptionTests.eventIds(collected.text) == Array(1...head))
            let batches = (Int(head) + SSEPump.batchLimit - 1) / SSEPump.batchLimit
            #expect(collected.writes <= 2 * batches, "\(collected.writes) writes for \(head) events")
        }
    }

    @Test("a filtered subscription moves the resume point past events it skipped")
    func filteredSubscriptionReportsScanned() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await Self.appendSteps(server, user: "ana", count: 3)
            #expect(try await server.call(.put, "/users/ana/goals/2026-11-20", as: "ana", body: #"{"steps":9000}"#).status == .created)
            let response = try await server.call(.get, "/log/subscribe?types=goal.set&limit=1", as: "op", admin: true)
            #expect(Self.eventIds(response.text) == [5])
            #expect(try await server.call(.get, "/log/subscribe?types=goal.exploded", as: "op", admin: true).status == .badRequest)
            #expect(try await server.call(.get, "/log/subscribe", as: "op", admin: true, headers: ["Last-Event-ID": "soon"]).status == .badRequest)
        }
    }

    @Test("a user's own live feed carries only their events, resumes by Last-Event-ID, and is theirs alone")
    func userFeed() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            try await Self.appendSteps(server, user: "bob", count: 2)
            try await Self.appendSteps(server, user: "ana", count: 2)
            // Positions: 1 ana registered, 2 bob registered, 3–4 bob's steps, 5–6 ana's steps.
            let first = try await server.call(.get, "/users/ana/events/subscribe?limit=2", as: "ana")
            #expect(first.status == .ok)
            #expect(Self.eventIds(first.text) == [1, 5])
            let bobAppends = Task { try await Self.appendSteps(server, user: "bob", count: 3) }
            let anaAppends = Task {
                try await Task.sleep(for: .milliseconds(100))
                try await Self.appendSteps(server, user: "ana", count: 1)
            }
            let resumed = try await server.call(.get, "/users/ana/events/subscribe?limit=2", as: "ana", headers: ["Last-Event-ID": "5"])
            try await bobAppends.value
            try await anaAppends.value
            let ids = Self.eventIds(resumed.text)
            #expect(ids.count == 2)
            #expect(ids.first == 6)
            for id in ids { #expect(try await server.logbook.log.event(at: .init(id))?.subject == "ana") }
            #expect(try await server.call(.get, "/users/ana/events/subscribe?limit=1", as: "bob").status == .forbidden)
        }
    }
}

/// A response body writer that keeps what was written and hands each part to `observe`.
struct CollectingWriter: ResponseBodyWriter {
    let observe: @Sendable (String) async throws -> Void
    var text = ""
    /// How many times the pump wrote.
    var writes = 0

    init(observe: @escaping @Sendable (String) async throws -> Void) { self.observe = observe }

    mutating func write(_ buffer: ByteBuffer) async throws {
        let part = String(buffer: buffer)
        text += part
        writes += 1
        try await observe(part)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
