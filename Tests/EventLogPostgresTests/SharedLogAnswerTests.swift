import EventLog
import EventLogPostgres
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// What a command on a log shared in PostgreSQL answers: a committed write answers its result
/// (never "read models behind"), and a keyed request's answer is kept in the commit of its
/// events, so it is the answer every server gives, whatever fails after the commit.
@Suite("Answers of commands on a log shared in PostgreSQL", .serialized, .timeLimit(.minutes(10)))
struct SharedLogAnswerTests {
    func withTwoServers(readYourWritesTimeout: Duration = .seconds(5), _ body: (Logbook, Logbook) async throws -> Void) async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            configuration.readYourWritesTimeout = readYourWritesTimeout
            try await withServers(url, root, configuration: configuration, body)
        }
    }

    /// The answer a test request makes of a command's result.
    static func respond(_ result: CommandResult, _: [String] = []) -> StoredResponse {
        StoredResponse(status: result.alreadyApplied ? 200 : 201, entityTag: "\"\(result.streamVersion)\"",
                       body: Array("\(result.stream) \(result.firstPosition)-\(result.lastPosition) \(result.alreadyApplied)".utf8))
    }

    static func request(_ key: String) throws -> IdempotentRequest {
        try IdempotentRequest(key: key, scope: "ana", fingerprint: IdempotentRequest.fingerprint([Array("POST /users/ana/steps \(key)".utf8)]))
    }

    static func steps(_ minute: Int) -> Command {
        let start = 1_795_000_000_000_000 + Int64(minute) * 60_000_000
        return .recordSteps(user: "ana", StepsRecorded(samples: [StepSample(
            start: Timestamp(microsecondsSinceEpoch: start), end: Timestamp(microsecondsSinceEpoch: start + 30_000_000), count: 10 + minute,
            source: "phone")]))
    }

    @Test("a command whose read-your-writes wait runs out (the read models behind) answers its result: the write is committed")
    func readYourWritesTimeoutAnswers() async throws {
        // No wait at all: the server's subscription never folds a write before the write's own
        // answer. (New users: deciding each needs nothing folded first.)
        try await withTwoServers(readYourWritesTimeout: .zero) { a, _ in
            for index in 0..<5 {
                let result = try await a.execute(.registerUser(user: "u\(index)", UserRegistered(displayName: "U", timeZone: "UTC")))
                #expect(result.firstPosition == UInt64(index + 1) && !result.alreadyApplied)
                #expect(try await a.log.event(at: Position(result.lastPosition))?.type == "user.registered")
            }
        }
    }

    @Test("a keyed request's answer is kept in the commit of its events: what fails after the commit does not change the answer, and a retry on the other server gets it byte for byte")
    func answerKeptWithTheEvents() async throws {
        try await withTwoServers { a, b in
            try await a.execute(.registerUser(user: "ana", UserRegistered(displayName: "Ana", timeZone: "UTC")))
            let request = try Self.request("steps-1")
            struct AfterTheCommit: Error {}
            let (answer, replayed) = try await a.once(request) { call in
                call.answer(with: Self.respond)
                var context = CommandContext()
                context.eventId = call.eventId
                _ = try await a.execute(Self.steps(1), context: context)
                throw AfterTheCommit()
            }
            #expect(!replayed && answer.status == 201, "\(answer)")
            let written = try #require(try await a.log.location(ofEvent: request.eventId))
            #expect(answer == Self.respond(
                CommandResult.init(stream: written.stream, firstPosition: written.position.rawValue, lastPosition: written.position.rawValue,
                                   streamVersion: written.streamVersion, alreadyApplied: false, workoutId: nil)))
            let (retried, retriedReplayed) = try await b.once(request) { _ in
                Issue.record("a retry ran again")
                return StoredResponse(status: 500, body: [])
            }
            #expect(retried == answer && retriedReplayed)
        }
    }

    @Test("one keyed request sent to two servers at once: both answer the same bytes, and it is written once")
    func sameKeyOnTwoServersAtOnce() async throws {
        try await withTwoServers { a, b in
            try await a.execute(.registerUser(user: "ana", UserRegistered(displayName: "Ana", timeZone: "UTC")))
            for round in 0..<10 {
                let request = try Self.request("race-\(round)")
                func send(_ server: Logbook) async throws -> StoredResponse {
                    try await server.once(request) { call in
                        call.answer(with: Self.respond)
                        var context = CommandContext()
                        context.eventId = call.eventId
                        return Self.respond(try await server.execute(Self.steps(100 + round), context: context))
                    }.response
                }
                async let first = send(a)
                async let second = send(b)
                let answers = try await [first, second]
                #expect(answers[0] == answers[1], "round \(round): \(answers.map { String(decoding: $0.body, as: UTF8.self) })")
            }
            let page = try await a.log.readAll(from: 1, direction: .forward, limit: 1_000, filter: EventFilter(eventTypes: ["steps.recorded"]))
            #expect(page.events.count == 10)
        }
    }
}
