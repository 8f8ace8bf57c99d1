import DemoData
import EventLog
import Foundation
@_spi(Benchmarks) import Logbook

/// The hostile benchmark's store: a catalog of `places` places with names from a small
/// vocabulary (so searches find something and miss something), a victim with the demo's weeks
/// of history, and an attacker whose history holds `attackerEvents` events (steps, imported
/// workouts and goals over twenty years).
struct HostileDataSet {
    static let victim = "u-1000"
    static let attacker = "attacker"
    /// Syllables place names are made of: searches of two or three of them find a few places.
    static let syllables = ["ka", "lo", "mi", "ra", "to", "ne", "su", "vi", "pa", "do", "re", "li", "ma", "zo", "bu", "te", "ni", "go",
                            "sa", "ko", "lu", "fe", "ri", "da", "mo", "ti", "be", "na", "jo", "ce"]
    static let firstDay = CivilDate(year: 2006, month: 1, day: 2)!

    /// Events of the attacker's day: a goal, three imported workouts and 130 step samples.
    static let eventsPerDay = 134

    /// The days of history `attackerEvents` events make (the first is the user's registration).
    static func days(holding attackerEvents: Int) -> Int { max(1, (attackerEvents - 1 + eventsPerDay - 1) / eventsPerDay) }

    var places: Int
    var attackerEvents: Int
    var progress: @Sendable (String) -> Void

    /// Builds the data set into a new store at `path` (nothing is built into a store that has events).
    func build(at path: String) async throws {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .noSync
        configuration.log.initialMapSize = 1 << 33
        let logbook = try await Logbook.open(path: path, configuration: configuration)
        do {
            if try await logbook.log.headPosition().rawValue == 0 {
                try await catalog(logbook)
                progress("victim: the demo's history of one user")
                _ = try await DemoDataGenerator(seed: 7, users: 1).run(on: logbook)
                try await attacker(logbook)
            }
        } catch {
            await logbook.close()
            throw error
        }
        await logbook.close()
    }

    private func catalog(_ logbook: Logbook) async throws {
        progress("catalog: \(places) places")
        var rng = SplitMix64(seed: 11)
        var number = 0
        while number < places {
            var entries: [PlaceImportEntry] = []
            while entries.count < PlaceImportEntry.maxPlaces, number < places {
                number += 1
                let name = (0..<(2 + Int(rng.next() % 3))).map { _ in Self.syllables[Int(rng.next() % UInt64(Self.syllables.count))] }.joined()
                let place = PlaceAdded(
                    placeId: "place-\(number)", name: name.capitalized + " " + Self.syllables[Int(rng.next() % 30)] + "bar",
                    category: rng.next() % 2 == 0 ? .restaurant : .activity, subcategory: Self.syllables[Int(rng.next() % 30)] + "ian",
                    latitude: 48 + Double(rng.next() % 100_000) / 25_000, longitude: 2 + Double(rng.next() % 100_000) / 25_000,
                    address: "\(1 + rng.next() % 200) Rue " + Self.syllables[Int(rng.next() % 30)].capitalized)
                entries.append(PlaceImportEntry(place: place, origin: "place \(number)"))
            }
            _ = try await logbook.importPlaces(entries)
        }
    }

    /// The attacker's history: each day a goal, a few imported workouts and many step samples
    /// (one per event), until the events add up.
    private func attacker(_ logbook: Logbook) async throws {
        progress("attacker: \(attackerEvents) events")
        _ = try await logbook.execute(.registerUser(user: Self.attacker, UserRegistered(displayName: "Attacker", timeZone: "Europe/Paris")))
        var written = 1
        var day = 0
        var batch: [(Command, CommandContext)] = []
        // One user's commands go one at a time (a batch holds one command per user).
        func flush() async throws {
            for (command, context) in batch { _ = try await logbook.execute(command, context: context) }
            batch.removeAll(keepingCapacity: true)
        }
        while written < attackerEvents {
            let date = Self.firstDay.adding(days: day)
            let midnight = Int64(date.daysSinceEpoch) * 86_400_000_000
            let context = CommandContext(now: Timestamp(microsecondsSinceEpoch: midnight + 23 * 3_600_000_000, utcOffsetSeconds: 3600))
            batch.append((.setGoal(user: Self.attacker, GoalSet(date: date, steps: 8_000 + day % 5 * 1_000)), context))
            written += 1
            for workout in 0..<3 where written < attackerEvents {
                let start = Timestamp(microsecondsSinceEpoch: midnight + Int64(6 + workout * 5) * 3_600_000_000, utcOffsetSeconds: 3600)
                let end = Timestamp(microsecondsSinceEpoch: start.instant + 1_800_000_000, utcOffsetSeconds: 3600)
                batch.append((.importWorkout(user: Self.attacker, WorkoutImported(
                    workoutId: "a-\(day)-\(workout)", activityType: workout == 1 ? .ride : .run, startedAt: start, endedAt: end,
                    distanceMeters: 5_000 + day % 7 * 100, movingSeconds: 1_700, source: WorkoutSource(kind: .garmin, sourceId: "g-\(day)-\(workout)"))),
                    context))
                written += 1
            }
            for sample in 0..<130 where written < attackerEvents {
                let start = Timestamp(microsecondsSinceEpoch: midnight + Int64(sample) * 600_000_000, utcOffsetSeconds: 3600)
                let end = Timestamp(microsecondsSinceEpoch: start.instant + 60_000_000, utcOffsetSeconds: 3600)
                batch.append((.recordSteps(user: Self.attacker, StepsRecorded(samples: [StepSample(start: start, end: end, count: 40 + sample % 60, source: "phone")])), context))
                written += 1
            }
            if batch.count >= 4_000 { try await flush() }
            day += 1
            if day % 1_000 == 0 { progress("  \(written) events, day \(day)") }
        }
        try await flush()
    }
}
