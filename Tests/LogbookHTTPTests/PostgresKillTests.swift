import AsyncHTTPClient
import EventLog
import EventLogPostgres
import Foundation
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Synchronization
import Testing

/// Two real `logbook serve --postgres` processes on one PostgreSQL cluster, six writers sending
/// keyed step batches through both, and in turn: server A killed with SIGKILL, server B killed,
/// PostgreSQL stopped as a crash (`pg_ctl stop -m immediate`); each started again. A writer whose
/// request got no success sends it again, with the same key, to the other server.
///
/// `LOGBOOK_KILL_ROUNDS` sets the number of kills (default 9, about a minute); a long campaign
/// sets hundreds.
@Suite("Servers and PostgreSQL killed in turn under keyed writers", .serialized, .timeLimit(.minutes(600)))
struct PostgresKillTests {
    typealias Request = KillCampaign.Request

    @Test("every write answered 2xx is in the log at the answered position, every kept answer is the bytes its client was first told, no committed write answered 5xx")
    func killCampaign() async throws {
        let rounds = Int(ProcessInfo.processInfo.environment["LOGBOOK_KILL_ROUNDS"] ?? "") ?? 9
        let cluster = try await TestPostgres.Cluster.start()
        defer { cluster.remove() }
        try await withTemporaryDirectory { root in
            let servers = [
                KillCampaign.Server(name: "a", url: cluster.url, readModels: root + "/a"),
                KillCampaign.Server(name: "b", url: cluster.url, readModels: root + "/b"),
            ]
            for server in servers { try await server.start() }
            defer { for server in servers { server.stop() } }
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let keys = await TokenKeys(secret: testSecret)
            var tokens: [String] = []
            for writer in 0..<6 {
                tokens.append(try await keys.token(user: "w\(writer)"))
                var registration = Request(user: "w\(writer)", key: "register-w\(writer)", path: "/users/w\(writer)",
                                           body: #"{"displayName":"W","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
                registration.attempts.append(await KillCampaign.send(registration, to: servers[0], token: tokens[writer], client: client))
                try #require(registration.told != nil, "registering w\(writer): \(registration.attempts)")
            }

            // The writers: each request until its first success, alternating servers on failure.
            let stop = KillCampaign.Flag()
            let answered = Counter()
            let tokensSoFar = tokens
            let requests = try await withThrowingTaskGroup(of: [Request].self) { group in
                for writer in 0..<6 {
                    group.addTask {
                        var mine: [Request] = []
                        var index = 0
                        while !stop.isSet {
                            var request = Request(user: "w\(writer)", key: "w\(writer)-\(index)", path: "/users/w\(writer)/steps",
                                                  body: KillCampaign.stepsBody(writer: writer, index: index))
                            let giveUp = ContinuousClock.now + .seconds(600)
                            while request.told == nil, ContinuousClock.now < giveUp {
                                let server = servers[(writer + request.attempts.count) % 2]
                                let attempt = await KillCampaign.send(request, to: server, token: tokensSoFar[writer], client: client)
                                request.attempts.append(attempt)
                                if let status = attempt.status, (400..<500).contains(status) { break }
                                if !attempt.succeeded { try await Task.sleep(for: .milliseconds(100)) }
                            }
                            mine.append(request)
                            answered.add()
                            index += 1
                        }
                        return mine
                    }
                }

                // The kills, each once the writers have made progress since the last.
                for round in 0..<rounds {
                    let progress = answered.value
                    let deadline = ContinuousClock.now + .seconds(180)
                    while answered.value < progress + 12, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                    if answered.value < progress + 12 { Issue.record("round \(round): the writers made no progress") }
                    for server in servers where !server.isRunning {
                        Issue.record("round \(round): server \(server.name) died on its own: \(server.ended.map { "\($0)" } ?? "?")")
                        try await server.start()
                    }
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...400)))
                    switch round % 3 {
                    case 0, 1:
                        let server = servers[round % 3]
                        try await server.kill()
                        try await server.start()
                    default:
                        try await cluster.crash()
                        try await Task.sleep(for: .milliseconds(Int.random(in: 0...300)))
                        try await cluster.startAgain()
                    }
                }
                try await Task.sleep(for: .seconds(1))
                stop.set()
                var all: [Request] = []
                for try await mine in group { all += mine }
                return all
            }
            for server in servers where !server.isRunning {
                Issue.record("server \(server.name) died on its own: \(server.ended.map { "\($0)" } ?? "?")")
                try await server.start()
            }
            try await check(requests, servers: servers, tokens: tokens, url: cluster.url, client: client)
            try await client.shutdown()
        }
    }

    /// The campaign's checks (see the test's name), and its numbers.
    func check(_ requests: [Request], servers: [KillCampaign.Server], tokens: [String], url: String, client: HTTPClient) async throws {
        let store = try await PostgresEventStore.connect(try PostgresURL(url))
        defer { Task { await store.close() } }
        var committedAnswered5xx = 0, notCaughtUp = 0, unanswered = 0
        for request in requests {
            guard let told = request.told else {
                unanswered += 1
                Issue.record("\(request.key) never got a success: \(request.attempts.map { "\($0.server) \($0.status.map(String.init) ?? "-") \($0.problemType ?? "")" })")
                continue
            }
            // The write is in the log at the answered position, with the request's event.
            let answer = try JSONDecoder().decode(KillCampaign.Told.self, from: Data(told.body))
            let fingerprint = IdempotentRequest.fingerprint([Array("POST".utf8), Array(request.path.utf8), [], Array(request.body.utf8)])
            let eventId = try IdempotentRequest(key: request.key, scope: "user:\(request.user)", fingerprint: fingerprint).eventId
            let event = try await store.event(at: Position(answer.firstPosition))
            #expect(event?.eventId == eventId && event?.stream == answer.stream,
                    "\(request.key) was answered \(told.status ?? 0) at position \(answer.firstPosition), which holds \(event.map { "\($0.eventId) in \($0.stream)" } ?? "nothing")")
            // A committed write is never answered 5xx: a request first answered with the original
            // answer of an earlier try, all of whose earlier tries were answered 5xx, was committed by
            // one of them. (A try answered "read models behind" before deciding wrote nothing: after
            // a database crash the follower may take longer than the wait to read again. Those are
            // counted, not refused.)
            notCaughtUp += request.attempts.filter { $0.problemType == "/problems/not-caught-up" }.count
            let earlier = request.attempts.prefix { !$0.succeeded }
            if told.replayed || answer.alreadyApplied, !earlier.isEmpty, earlier.allSatisfy(\.serverError) {
                committedAnswered5xx += 1
                Issue.record("\(request.key): committed, yet answered \(earlier.map { "\($0.status ?? 0) \($0.problemType ?? "")" })")
            }
        }

        // Every kept answer is what its client was first told: a retry now answers those bytes.
        let kept = try await TestPostgres.psql(url, "SELECT count(*) FROM logbook.request_keys").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(kept) == requests.count + 6, "\(kept) answers kept for \(requests.count + 6) keyed requests")
        var differing = 0
        for (index, request) in requests.enumerated() {
            guard let told = request.told else { continue }
            let writer = Int(request.user.dropFirst())!
            let retry = await KillCampaign.send(request, to: servers[index % 2], token: tokens[writer], client: client)
            if retry.status != told.status || retry.body != told.body || !retry.replayed {
                differing += 1
                Issue.record("\(request.key): told \(told.status ?? 0) \(String(decoding: told.body, as: UTF8.self)), kept \(retry.status ?? 0) \(String(decoding: retry.body, as: UTF8.self))")
            }
        }
        let attempts = requests.flatMap(\.attempts)
        print("""
            kill campaign: \(requests.count) keyed requests, \(attempts.count) tries: \(attempts.filter(\.succeeded).count) answered 2xx \
            (\(attempts.filter { $0.succeeded && $0.replayed }.count) replays), \(attempts.filter(\.serverError).count) answered 5xx \
            (\(Dictionary(grouping: attempts.filter(\.serverError), by: { $0.problemType ?? "?" }).mapValues(\.count))), \
            \(attempts.filter { $0.status == nil }.count) unanswered; committed but answered 5xx: \(committedAnswered5xx); \
            kept answers differing: \(differing); never answered: \(unanswered); tries refused before deciding as read models behind: \(notCaughtUp)
            """)
    }
}
