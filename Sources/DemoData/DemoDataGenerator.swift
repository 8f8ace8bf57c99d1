public import Logbook
public import EventLog
import Foundation

/// A realistic, deterministic history for N users, as commands in chronological order: profiles
/// in several time zones (one across the date line, several with a daylight-saving change inside
/// the range), twelve weeks of workouts of mixed types and sources (some imported twice, some
/// discarded, edited or deleted), per-minute step samples during waking hours from a phone and
/// on some days a watch (with re-sent duplicates), goals set and edited (some at the 10-week
/// horizon, some beyond it and rejected), and a 50-place catalog with swipes, visits, notes and
/// resets. The same seed gives the same commands, event ids and timestamps.
public struct DemoDataGenerator: Sendable {
    public var seed: UInt64
    public var users: Int
    public var weeks = 12
    /// The first day (a Monday) of the generated range.
    public var firstDay = CivilDate(year: 2026, month: 8, day: 24)!
    /// One-minute samples per `steps.recorded` command.
    public var samplesPerStepsCommand = 15

    /// The zones users live in, in turn.
    public static let timeZones = [
        "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Australia/Sydney", "Pacific/Pago_Pago", "UTC",
    ]

    public init(seed: UInt64, users: Int) {
        self.seed = seed
        self.users = users
    }

    /// The user id of user `index`.
    public static func userId(_ index: Int) -> String { "u-\(1000 + index)" }

    /// Hands the commands to `execute` in batches (chronological; one command per user, or the
    /// catalog, per batch), day by day, so memory stays bounded by one day of commands.
    public func generate(_ execute: ([(Command, CommandContext)]) async throws -> Void) async throws {
        var random = SplitMix64(seed: seed)
        let zones = Self.timeZones.map { TimeZone(identifier: $0)! }
        let start = try DemoUser.instant(of: firstDay, minute: 5 * 60, in: TimeZone(identifier: "UTC")!)
        var catalogBatch: [(Command, CommandContext)] = []
        for (index, place) in DemoCatalog.places().enumerated() {
            let now = Timestamp(microsecondsSinceEpoch: start.instant + Int64(index) * 1_000_000)
            catalogBatch.append((.addPlace(place), CommandContext(now: now, eventId: random.timeOrderedUUID(at: now.instant), recordAtNow: true)))
        }
        for item in catalogBatch { try await execute([item]) }
        var people = (0..<users).map { index in
            DemoUser(index: index, zone: zones[index % zones.count], seed: seed &+ UInt64(index) &* 0x9E37_79B9, generator: self)
        }
        for dayIndex in 0..<(weeks * 7) {
            var commands: [DemoUser.Planned] = []
            for index in people.indices { commands += try people[index].plan(day: firstDay.adding(days: dayIndex), dayIndex: dayIndex) }
            commands.sort { ($0.at.instant, $0.user, $0.sequence) < ($1.at.instant, $1.user, $1.sequence) }
            var batch: [(Command, CommandContext)] = []
            var inBatch = Set<Int>()
            for command in commands {
                if inBatch.contains(command.user) || batch.count == 1024 {
                    try await execute(batch)
                    batch.removeAll(keepingCapacity: true)
                    inBatch.removeAll(keepingCapacity: true)
                }
                batch.append((command.command, CommandContext(now: command.at, eventId: command.eventId, recordAtNow: true)))
                inBatch.insert(command.user)
            }
            if !batch.isEmpty { try await execute(batch) }
        }
    }

    /// Counts of what running the generator against a Logbook did.
    public struct Report: Sendable, Hashable, Codable {
        public var commands = 0
        public var accepted = 0
        public var alreadyApplied = 0
        /// Rejections by rule name.
        public var rejected: [String: Int] = [:]

        public init() {}
    }

    /// Runs every command against `logbook`.
    public func run(on logbook: Logbook, progress: @Sendable (Int) -> Void = { _ in }) async throws -> Report {
        var report = Report()
        try await generate { batch in
            let results = try await logbook.execute(batch: batch)
            for result in results {
                report.commands += 1
                switch result {
                case .success(let outcome):
                    if outcome.alreadyApplied { report.alreadyApplied += 1 } else { report.accepted += 1 }
                case .failure(let error) where error.code == .ruleViolation:
                    report.rejected[error.rule?.rawValue ?? "rule", default: 0] += 1
                case .failure(let error):
                    throw error
                }
            }
            progress(report.commands)
        }
        return report
    }
}
