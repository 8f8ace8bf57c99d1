import ArgumentParser
import EventLog
import Foundation
import Logbook

/// `logbook summary`: the stats tab in a terminal — one row per week, month or year (or all time)
/// with its totals and a bar, as `GET …/stats/summary` answers it.
struct SummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary", abstract: "Show a user's workouts per week, month or year, or over all time, with bests.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions

    @Option(help: "How the range is cut: week, month, year or all.")
    var period = "week"

    @Option(help: "First day (yyyy-mm-dd; default: the 12 buckets ending with --to's; for all, the first day with a workout).")
    var from: String?

    @Option(help: "Last day (yyyy-mm-dd; default: the user's today).")
    var to: String?

    @Option(help: "Only workouts of this activity type.")
    var type: String?

    @Option(help: "What the bars show: distance, time, elevation or workouts.")
    var metric = "distance"

    func validate() throws {
        guard SummaryPeriod(rawValue: period) != nil else { throw ValidationError("--period must be week, month, year or all.") }
        if let from, CivilDate(parsing: from) == nil { throw ValidationError("--from must be a date (yyyy-mm-dd).") }
        if let to, CivilDate(parsing: to) == nil { throw ValidationError("--to must be a date (yyyy-mm-dd).") }
        if let type, ActivityType(rawValue: type) == nil {
            throw ValidationError("--type must be one of \(ActivityType.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard ["distance", "time", "elevation", "workouts"].contains(metric) else {
            throw ValidationError("--metric must be distance, time, elevation or workouts.")
        }
    }

    func run() async throws {
        let summary = try await store.withLogbook(readOnly: true) { logbook in
            try await logbook.statsSummary(
                user: read.user, period: SummaryPeriod(rawValue: period)!, from: from.flatMap(CivilDate.init(parsing:)),
                to: to.flatMap(CivilDate.init(parsing:)), type: type.flatMap(ActivityType.init(rawValue:)), asOf: try read.parsedAsOf())
        }
        if read.json { return print(try Output.jsonText(summary)) }
        let totals = summary.totals
        print("\(read.user), \(summary.period.rawValue)s \(summary.from) – \(summary.to)\(summary.type.map { " (\($0.rawValue))" } ?? ""): "
            + "\(totals.workouts) workouts, \(Self.kilometres(totals.distanceMeters)) km, \(totals.movingSeconds / 3600) h \(totals.movingSeconds % 3600 / 60) min, "
            + "\(totals.elevationGainMeters) m climbed")
        // Clamped to 2^40 (far beyond any real history): a bar's length multiplies.
        let values = summary.buckets.map { bucket -> Int in
            let value = switch metric {
            case "time": bucket.movingSeconds / 60
            case "elevation": bucket.elevationGainMeters
            case "workouts": bucket.workouts
            default: bucket.distanceMeters
            }
            return min(max(value, 0), 1 << 40)
        }
        let unit = ["time": "min", "elevation": "m", "workouts": ""][metric] ?? "m"
        let maximum = max(values.max() ?? 0, 1)
        for (bucket, value) in zip(summary.buckets, values) {
            let bar = String(repeating: "█", count: value * 40 / maximum)
            print("  \(bucket.from) – \(bucket.to)  \(String(value).leftPadded(8)) \(unit.padding(toLength: 4, withPad: " ", startingAt: 0)) \(bar)")
        }
        if let longest = totals.longest { print("longest: \(longest.workoutId) on \(longest.date), \(Self.kilometres(longest.distanceMeters)) km") }
        if let fastest = totals.fastestPace, let pace = fastest.paceSecondsPerKm {
            let seconds = Int(pace.rounded())
            print("fastest pace: \(fastest.workoutId) on \(fastest.date), \(seconds / 60):\(String(seconds % 60).leftPadded(2, with: "0")) /km")
        }
        if let fastest = totals.fastestSpeed, let speed = fastest.speedKmh {
            print("fastest ride: \(fastest.workoutId) on \(fastest.date), \(Int((speed * 10).rounded()) / 10).\(Int((speed * 10).rounded()) % 10) km/h")
        }
    }

    private static func kilometres(_ meters: Int) -> String { "\(meters / 1000).\(meters % 1000 / 100)" }
}
