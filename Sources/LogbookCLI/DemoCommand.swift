import ArgumentParser
import EventLog
import Foundation
import Logbook

/// `logbook demo`: generates the realistic demo data set into a Logbook (unless it is already
/// there) and shows what the read models answer for one user.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Generate the demo data set into ./data (once) and show what Logbook answers for one user.")

    @Option(help: "Directory of the Logbook.")
    var path = "./data"

    @Option(help: "Users to generate (each has 12 weeks of workouts, steps, goals and places).")
    var users = 20

    @Option(help: "Seed of the generated data.")
    var seed: UInt64 = 2026

    func validate() throws {
        guard (1...5000).contains(users) else { throw ValidationError("--users must be between 1 and 5000.") }
    }

    func run() async throws {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .noSync  // regenerable data; closing flushes
        var logbook = try await Logbook.open(path: path, configuration: configuration)
        if try await logbook.log.headPosition() == .start {
            print("generating \(users) users × 12 weeks into \(path) …")
            let started = ContinuousClock.now
            let report = try await DemoDataGenerator(seed: seed, users: users).run(on: logbook)
            let head = try await logbook.log.headPosition()
            print("  \(head) events from \(report.commands) commands in \(ContinuousClock.now - started); "
                + "rejected by rule: \(report.rejected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        }
        await logbook.close()
        logbook = try await Logbook.open(path: path)
        do {
            try await show(logbook)
        } catch {
            await logbook.close()
            throw error
        }
        await logbook.close()
    }

    private func show(_ logbook: Logbook) async throws {
        let user = DemoDataGenerator.userId(0)
        let profile = try await logbook.profile(user: user)
        let week = CivilDate(year: 2026, month: 10, day: 28)!
        print("\n\(profile.displayName) (\(user), \(profile.timeZone), weeks start \(profile.weekStart.rawValue))")
        let stats = try await logbook.weeklyStats(user: user, containing: week)
        print("week of \(stats.from): \(stats.steps) steps, \(stats.totals.workouts) workouts, \(stats.totals.distanceMeters / 1000) km")
        for day in stats.days {
            let bar = String(repeating: "▇", count: min(40, day.steps / 1000))
            print("  \(day.date)  \(String(day.steps).leftPadded(6)) steps  \(bar)")
        }
        let goals = try await logbook.goalWeek(user: user, containing: week)
        print("goals met \(goals.daysMet)/7; streak \(goals.streaks.current), longest \(goals.streaks.longest)")
        let saved = try await logbook.savedPlaces(user: user, category: .restaurant)
        print("saved restaurants: \(saved.map(\.place.name).joined(separator: ", "))")
        print("latest timeline:")
        for entry in try await logbook.timeline(user: user, limit: 5).entries {
            print("  #\(entry.position) \(entry.occurredAt)  \(entry.description)")
        }
        print("collectibles: \(try await logbook.collectibles(user: user).map(\.title).joined(separator: ", "))")
        print("\nread-model digests:")
        for digest in try logbook.digests() {
            print("  \(digest.projection.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(digest.sha256.prefix(16))… at \(digest.position)")
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
