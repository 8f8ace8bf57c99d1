import ArgumentParser
import EventLog
import Logbook

/// `logbook training week|plan|targets`: a user's training (the Training article) in the terminal, with bars
/// for time in zones and daily load, like `stats`.
struct TrainingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "training", abstract: "Show a user's training: the week's plan against done, the plan, the targets.",
        subcommands: [TrainingWeekCommand.self, TrainingPlanCommand.self, TrainingTargetsCommand.self])
}

/// `--date`: the day of the week (or of the plan's range) to show, and `--today`.
struct TrainingDays: ParsableArguments {
    @Option(help: "A day of the week to show (yyyy-mm-dd; default: the user's last week with data).")
    var date: String?

    @Option(help: "The day statuses are judged as of (yyyy-mm-dd; default: the user's today).")
    var today: String?

    func validate() throws {
        if let date, CivilDate(parsing: date) == nil { throw ValidationError("--date must be a date (yyyy-mm-dd).") }
        if let today, CivilDate(parsing: today) == nil { throw ValidationError("--today must be a date (yyyy-mm-dd).") }
    }

    var todayDate: CivilDate? { today.flatMap(CivilDate.init(parsing:)) }

    func day(of user: String, in logbook: Logbook) async throws -> CivilDate {
        try await WeekOption.day(date, of: user, in: logbook)
    }
}

struct TrainingWeekCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "week", abstract: "The weekly summary: plan against done, zones, load and the target.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions
    @OptionGroup var days: TrainingDays

    func run() async throws {
        let week = try await store.withLogbook(readOnly: true) { logbook in
            try await logbook.trainingWeek(
                user: read.user, containing: try await days.day(of: read.user, in: logbook), today: days.todayDate, asOf: try read.parsedAsOf())
        }
        if read.json { return print(try Output.jsonText(week)) }
        TrainingText.printWeek(week)
    }
}

struct TrainingPlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plan", abstract: "The plan over four weeks from --date, with statuses.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions
    @OptionGroup var days: TrainingDays

    func run() async throws {
        let plan = try await store.withLogbook(readOnly: true) { logbook in
            let from = try await days.day(of: read.user, in: logbook)
            return try await logbook.trainingPlan(user: read.user, from: from, to: from.adding(days: 27), today: days.todayDate, asOf: try read.parsedAsOf())
        }
        if read.json { return print(try Output.jsonText(plan)) }
        print("\(read.user), plan \(plan.from) – \(plan.to) (today \(plan.today))")
        for planned in plan.planned { print(TrainingText.line(planned)) }
    }
}

struct TrainingTargetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "targets", abstract: "The user's targets and the active one.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions
    @OptionGroup var days: TrainingDays

    func run() async throws {
        let targets = try await store.withLogbook(readOnly: true) { logbook in
            try await logbook.trainingTargets(user: read.user, today: days.todayDate, asOf: try read.parsedAsOf())
        }
        if read.json { return print(try Output.jsonText(targets)) }
        for target in targets.targets {
            let active = targets.active?.target.targetId == target.targetId ? "  ← active" : ""
            print("  \(target.raceDate)  \(target.name) (\(target.activityType.rawValue), \(TrainingText.km(target.distanceMeters)))"
                + (target.goalSeconds.map { ", goal \(TrainingText.clock($0))" } ?? "") + active)
        }
        if let active = targets.active {
            print("  \(active.daysToRace) days to \(active.target.name)" + (active.predictedSeconds.map { "; predicted \(TrainingText.clock($0))" } ?? ""))
        }
    }
}

/// Numbers as the training commands print them.
enum TrainingText {
    /// The weekly summary on the terminal: planned workouts with their statuses, extras, bars of
    /// time per zone, load and the target (`logbook training week`, and `logbook demo`).
    static func printWeek(_ week: TrainingWeek) {
        print("\(week.user), week \(week.from) – \(week.to) (today \(week.today))")
        print("  planned \(week.plannedSessions) (\(TrainingText.km(week.plannedDistanceMeters))), done \(week.doneSessions) "
            + "(\(TrainingText.km(week.doneDistanceMeters)), \(week.doneMovingSeconds / 60) min); compliance \(week.compliancePercent.map { "\($0)%" } ?? "–")")
        for planned in week.planned { print(line(planned)) }
        for extra in week.extra { print("  \(extra.date)  extra     \(extra.activityType.rawValue) \(TrainingText.km(extra.distanceMeters))  \(extra.workoutId)") }
        if let zones = week.intensity.zones {
            let maximum = max(zones.map(\.seconds).max() ?? 0, 1)
            for zone in zones {
                let range = "\(zone.fromBeatsPerMinute)–\(zone.toBeatsPerMinute.map(String.init) ?? "")"
                print("  zone \(zone.zone) \(range.padding(toLength: 8, withPad: " ", startingAt: 0)) \(String(zone.seconds / 60).leftPadded(5)) min "
                    + String(repeating: "█", count: zone.seconds * 40 / maximum))
            }
        } else {
            print("  zones: no maximum heart rate in the profile")
        }
        print("  load \(week.intensity.load.map(String.init) ?? "–"), acute \(week.load.acute.map(String.init) ?? "–"), "
            + "chronic28 \(week.load.chronic28.map(String.init) ?? "–"), ACWR \(week.load.acwr.map { String($0) } ?? "–")")
        if let target = week.target {
            print("  target \(target.target.name) on \(target.target.raceDate), in \(target.daysToRace) days"
                + (target.predictedSeconds.map { ", predicted \(TrainingText.clock($0))" } ?? ""))
        }
    }

    /// "  2026-11-17  partial   tempo run 8.0 km  ← w-1": a planned workout, its status and match.
    static func line(_ planned: PlannedWorkoutStatus) -> String {
        "  \(planned.date)  \(planned.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(planned.kind.rawValue) \(planned.activityType.rawValue)"
            + (planned.distanceMeters.map { " \(km($0))" } ?? "") + (planned.durationSeconds.map { " \($0 / 60) min" } ?? "")
            + (planned.workoutId.map { "  ← \($0)" } ?? "")
    }

    /// "8.0 km".
    static func km(_ meters: Int) -> String { "\(meters / 1000).\(meters % 1000 / 100) km" }

    /// "3:45:00".
    static func clock(_ seconds: Int) -> String {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return "\(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)"
    }
}
