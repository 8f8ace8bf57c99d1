import DemoData
import EventLog
import EventLogPostgres
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Several Logbook servers on one log in PostgreSQL, each with its read models in a local
/// directory: the same bytes at the same position, reads of writes made elsewhere, caches that
/// hear about them, and rules across a user's streams that hold when two servers decide at once.
@Suite("Logbook servers sharing a log in PostgreSQL", .serialized, .timeLimit(.minutes(20)))
struct LogbookOnPostgresTests {
    func sha(_ digests: [ReadModelDigest]) -> [String] { digests.map { "\($0.projection.rawValue) \($0.sha256)" } }

    /// Two Logbooks (two servers: a connection pool and a read-model directory each) on one fresh
    /// database, each waiting up to `readYourWritesTimeout` for the other's writes.
    func withTwoServers<R>(readYourWritesTimeout: Duration = .seconds(5), _ body: (Logbook, Logbook) async throws -> R) async throws -> R {
        let url = try await TestPostgres.freshDatabase()
        return try await withTemporaryDirectory { root in
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            configuration.readYourWritesTimeout = readYourWritesTimeout
            return try await withServers(url, root, configuration: configuration, body)
        }
    }

    @Test("a generated history written through one server: the other reaches the same digests at the same position, and both verify")
    func sameBytesOnEveryServer() async throws {
        try await withTwoServers { a, b in
            var generator = DemoDataGenerator(seed: 31, users: 3)
            generator.weeks = 1
            let report = try await generator.run(on: a)
            #expect(report.accepted > 100)
            let head = try await a.log.headPosition()
            try await b.catchUp(to: head)
            let (digestsA, digestsB) = (try a.digests(), try b.digests())
            #expect(digestsA.allSatisfy { $0.position == head.rawValue }, "\(digestsA.map(\.position))")
            #expect(sha(digestsA) == sha(digestsB))
            #expect(try await b.verify().allSatisfy(\.matches))
        }
    }

    @Test("a catalog import of 2,500 places through one server is one commit; the other reads them all, and the same file there writes nothing")
    func catalogImportAcrossServers() async throws {
        // The other server folds the import to catch up: a debug build on a loaded machine takes seconds.
        try await withTwoServers(readYourWritesTimeout: .seconds(120)) { a, b in
            var places: [PlaceImportEntry] = []
            for index in 0..<2_500 {
                let category: PlaceCategory = index % 2 == 0 ? .restaurant : .activity
                let place = PlaceAdded(placeId: "p\(index)", name: "Place \(index)", category: category, subcategory: "misc",
                                       latitude: Double(index % 180) - 90, longitude: Double(index % 360) - 180)
                places.append(PlaceImportEntry(place: place, origin: "line \(index + 1)"))
            }
            try await a.execute(.registerUser(user: "ana", UserRegistered(displayName: "Ana", timeZone: "UTC")))
            let report = try await a.importPlaces(places)
            #expect(report.added == places.count && report.result.lastPosition - report.result.firstPosition == UInt64(places.count - 1))
            try await b.catchUp(to: Position(rawValue: report.result.lastPosition))
            #expect(try await b.placesDeck(user: "ana", limit: 5_000).count == places.count)
            let again = try await b.importPlaces(places)
            #expect(again.result.alreadyApplied && again.unchanged == places.count)
            #expect(sha(try a.digests()) == sha(try b.digests()))
        }
    }

    @Test("a write on one server is read on the other through catchUp(to:) with the write's position, and invalidates its cache")
    func readYourWritesAcrossServers() async throws {
        try await withTwoServers { a, b in try await expectWritesOnOneReadOnTheOther(a, b) }
    }

    @Test("the same user starting a workout on both servers at the same moment: exactly one start succeeds, every round")
    func racingStartsForOneUser() async throws {
        try await withTwoServers { a, b in
            let now = when("2026-11-20T08:00:00+01:00")
            for round in 0..<12 {
                let user = "racer-\(round)"
                let registered = try await a.execute(.registerUser(user: user, UserRegistered(displayName: "R", timeZone: "UTC")), context: now)
                try await b.catchUp(to: Position(registered.lastPosition))
                let started = at("2026-11-20T07:00:00+01:00")
                async let first = Self.outcome {
                    try await a.execute(.startWorkout(user: user, WorkoutStarted(workoutId: "a-\(round)", activityType: .run, startedAt: started)), context: now)
                }
                async let second = Self.outcome {
                    try await b.execute(.startWorkout(user: user, WorkoutStarted(workoutId: "b-\(round)", activityType: .ride, startedAt: started)), context: now)
                }
                let outcomes = await [first, second]
                #expect(outcomes.filter { $0 == nil }.count == 1, "round \(round): \(outcomes)")
                #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .oneActiveWorkout }, "round \(round): \(outcomes)")
            }
            // Nothing of the losers reached the log: one workout.started per user.
            let head = try await a.log.headPosition()
            let page = try await a.log.readAll(from: 1, direction: .forward, limit: 1_000, filter: EventFilter(eventTypes: ["workout.started"]))
            #expect(page.events.count == 12)
            #expect(Set(page.events.compactMap(\.subject)).count == 12)
            try await b.catchUp(to: head)
            #expect(sha(try a.digests()) == sha(try b.digests()))
        }
    }

    /// nil if `body` succeeded, else the rule that refused it (or a marker for another error).
    static func outcome(_ body: () async throws -> CommandResult) async -> DomainRule? {
        do {
            _ = try await body()
            return nil
        } catch let error as LogbookError {
            return error.rule ?? DomainRule(rawValue: "error: \(error)")
        } catch {
            return DomainRule(rawValue: "error: \(error)")
        }
    }
}
