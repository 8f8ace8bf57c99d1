import ArgumentParser
import EventLog
import Foundation
import Logbook
import LogbookInput

/// `logbook timeline`: a user's audit timeline, newest first, paged by cursor.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "timeline", abstract: "Show a user's audit timeline.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions

    @Option(help: "Only these event types (comma-separated, e.g. goal.set,goal.cleared).")
    var types: String?

    @Option(help: "Entries per page (1–500).")
    var limit = 20

    @Option(help: "Continue from a page's cursor.")
    var cursor: String?

    @Flag(help: "Oldest first.")
    var oldestFirst = false

    func validate() throws {
        guard (1...500).contains(limit) else { throw ValidationError("--limit must be between 1 and 500.") }
        _ = try filter()
    }

    private func filter() throws -> TimelineFilter {
        var filter = TimelineFilter(newestFirst: !oldestFirst)
        if let types {
            filter.types = Set(try types.split(separator: ",").map { name in
                guard let type = EventType(rawValue: String(name)) else {
                    throw ValidationError("unknown event type \"\(name)\"; known: \(EventType.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                return type
            })
        }
        return filter
    }

    func run() async throws {
        let page = try await store.withLogbook(readOnly: true) { logbook in
            try await logbook.timeline(user: read.user, filter: try filter(), limit: limit, cursor: cursor, asOf: try read.parsedAsOf())
        }
        if read.json { return print(try Output.jsonText(page)) }
        for entry in page.entries { print("#\(entry.position)  \(entry.occurredAt)  \(entry.description)") }
        if let next = page.nextCursor { print("more: --cursor \(next)") }
    }
}

/// `logbook stats`: a user's week as a terminal bar chart.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show a user's week: steps, workouts, distance, as bars.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions
    @OptionGroup var week: WeekOption

    @Option(help: "What the bars show: steps, distance or time.")
    var metric = "steps"

    func validate() throws {
        guard ["steps", "distance", "time"].contains(metric) else { throw ValidationError("--metric must be steps, distance or time.") }
    }

    func run() async throws {
        let stats = try await store.withLogbook(readOnly: true) { logbook in
            try await logbook.weeklyStats(user: read.user, containing: try await week.day(of: read.user, in: logbook), asOf: try read.parsedAsOf())
        }
        if read.json { return print(try Output.jsonText(stats)) }
        print("\(read.user), week \(stats.from) – \(stats.to): \(stats.steps) steps, \(stats.totals.workouts) workouts, "
            + "\(stats.totals.distanceMeters / 1000).\(stats.totals.distanceMeters % 1000 / 100) km, \(stats.totals.movingSeconds / 60) min")
        let values = stats.days.map { day in metric == "steps" ? day.steps : metric == "distance" ? day.distanceMeters : day.movingSeconds / 60 }
        let unit = metric == "steps" ? "steps" : metric == "distance" ? "m" : "min"
        let maximum = max(values.max() ?? 0, 1)
        for (day, value) in zip(stats.days, values) {
            let bar = String(repeating: "█", count: value * 40 / maximum)
            print("  \(day.date)  \(String(value).leftPadded(7)) \(unit.padding(toLength: 5, withPad: " ", startingAt: 0)) \(bar)")
        }
    }
}

/// `--week`, shared by `stats` and `goals`: a day of the week to show, by default the day of the
/// user's latest event (so the week shown has data).
struct WeekOption: ParsableArguments {
    @Option(help: "A day of the week to show (yyyy-mm-dd; default: the user's last week with data).")
    var week: String?

    func validate() throws {
        if let week, CivilDate(parsing: week) == nil { throw ValidationError("--week must be a date (yyyy-mm-dd).") }
    }

    /// The day asked for, or the local day of the user's latest event.
    func day(of user: String, in logbook: Logbook) async throws -> CivilDate {
        try await Self.day(week, of: user, in: logbook)
    }

    /// `text` as a day, or the local day of the user's latest event.
    static func day(_ text: String?, of user: String, in logbook: Logbook) async throws -> CivilDate {
        if let text, let parsed = CivilDate(parsing: text) { return parsed }
        let latest = try await logbook.log.readSubject(user, from: Position(UInt64.max), direction: .backward, limit: 1)
        guard let event = latest.first else { throw CLIError("no events of user \(user)") }
        return event.occurredAt.localDate
    }
}

/// `logbook goals`: a user's goal week with streaks.
struct GoalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "goals", abstract: "Show a user's step goals for a week, with streaks.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions
    @OptionGroup var week: WeekOption

    func run() async throws {
        let goals = try await store.withLogbook(readOnly: true) { logbook in
            try await logbook.goalWeek(user: read.user, containing: try await week.day(of: read.user, in: logbook), asOf: try read.parsedAsOf())
        }
        if read.json { return print(try Output.jsonText(goals)) }
        print("\(read.user), week of \(goals.weekStart): \(goals.daysMet)/7 days met; streak \(goals.streaks.current), longest \(goals.streaks.longest)")
        for day in goals.days {
            print("  \(day.date)  \(day.met ? "✓" : "·")  \(String(day.steps).leftPadded(6)) / \(String(day.goal.steps).leftPadded(6)) steps  "
                + "\(String(day.activeMinutes).leftPadded(3)) min (\(day.movingSeconds) s)  (\(day.origin))")
        }
    }
}

/// `logbook places`: a user's deck, saved or visited places.
struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "places", abstract: "Show a user's places: deck, saved or visited.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var read: ReadOptions

    @Option(help: "deck, saved or visited.")
    var list = "saved"

    @Option(help: "restaurant or activity (saved and visited lists).")
    var category = "restaurant"

    @Option(name: .customLong("q"), help: "Only places whose name, subcategory or address holds this text (case- and accent-insensitive).")
    var text: String?

    @Option(help: "Only places within --radius of this point (latitude,longitude), nearest first.")
    var near: String?

    @Option(help: "Metres from --near a place may be (default 5,000).")
    var radius: String?

    func validate() throws {
        guard ["deck", "saved", "visited"].contains(list) else { throw ValidationError("--list must be deck, saved or visited.") }
        guard PlaceCategory(rawValue: category) != nil else { throw ValidationError("--category must be restaurant or activity.") }
        _ = try search()
    }

    /// The search the options name, read by the parsers the places routes use.
    private func search() throws -> PlaceSearch {
        if let text, QueryValues.searchText(text) == nil { throw ValidationError("--q must be 1 to \(PlaceSearch.maxTextLength) characters.") }
        if let near, QueryValues.point(near) == nil { throw ValidationError("--near must be latitude,longitude in degrees (-90…90, -180…180).") }
        if let radius, QueryValues.radius(radius) == nil {
            throw ValidationError("--radius must be metres from 1 to \(Int(PlaceSearch.maxRadiusMeters)).")
        }
        do {
            return try QueryValues.placeSearch(text: text, near: near.flatMap(QueryValues.point), radius: radius.flatMap(QueryValues.radius))
        } catch {
            throw ValidationError("--radius needs --near (a point to measure from).")
        }
    }

    func run() async throws {
        let search = try search()
        let places = try await store.withLogbook(readOnly: true) { logbook in
            let asOf = try read.parsedAsOf()
            let category = PlaceCategory(rawValue: category)!
            switch list {
            case "deck": return try await logbook.placesDeck(user: read.user, limit: 50, search: search, asOf: asOf)
            case "visited": return try await logbook.visitedPlaces(user: read.user, category: category, search: search, asOf: asOf)
            default: return try await logbook.savedPlaces(user: read.user, category: category, search: search, asOf: asOf)
            }
        }
        try Output.print(places, json: read.json) { view in
            let visits = view.visitCount > 0 ? "  visited \(view.visitCount)× (last \(view.lastVisitDate.map(\.description) ?? "-"))" : ""
            let distance = view.distanceMeters.map { "  \($0) m" } ?? ""
            return "\(view.place.placeId.padding(toLength: 8, withPad: " ", startingAt: 0)) \(view.place.name)  [\(view.place.subcategory)]\(visits)\(distance)"
        }
    }
}
