import DemoData
import EventLog
import Foundation

/// The reads of the scale benchmark: every query route of one user's data, each with requests
/// whose answers have the same size whatever the history (a week, a month, a page, a fixed
/// window), so their cost should not grow with the history or the catalog.
struct ScaleRoutes {
    /// One route: its name in the report and the path of its next request.
    struct Route: Sendable {
        let name: String
        let next: @Sendable (inout SplitMix64) -> String
    }

    /// What a data set holds, for choosing requests inside it.
    struct Span: Sendable {
        /// The user's days with data: 0 is ``HostileDataSet/firstDay``.
        var days: Int
        var places: Int
        var head: UInt64
    }

    static let user = HostileDataSet.attacker

    static func date(_ rng: inout SplitMix64, _ span: Span) -> CivilDate {
        HostileDataSet.firstDay.adding(days: Int(rng.next() % UInt64(max(1, span.days))))
    }

    /// The routes, with requests spread over the user's history and the catalog.
    static func routes(_ span: Span) -> [Route] {
        let base = "/users/\(user)"
        @Sendable func day(_ rng: inout SplitMix64) -> CivilDate { date(&rng, span) }
        return [
            Route(name: "stats_weekly") { "\(base)/stats/weekly?date=\(day(&$0))" },
            Route(name: "stats_weekly_svg") { "\(base)/stats/weekly.svg?date=\(day(&$0))" },
            Route(name: "stats_period_month") { rng in
                let from = day(&rng)
                return "\(base)/stats/period?from=\(from)&to=\(from.adding(days: 30))"
            },
            Route(name: "stats_summary_all") { "\(base)/stats/summary?period=all&to=\(day(&$0))" },
            Route(name: "stats_summary_12_weeks") { rng in
                let to = day(&rng)
                return "\(base)/stats/summary?period=week&from=\(to.adding(days: -83))&to=\(to)"
            },
            Route(name: "goals_week") { "\(base)/goals/week?date=\(day(&$0))" },
            Route(name: "goals_streaks") { "\(base)/goals/streaks?day=\(day(&$0))" },
            Route(name: "collectibles") { _ in "\(base)/collectibles" },
            Route(name: "collectibles_progress") { _ in "\(base)/collectibles/progress" },
            Route(name: "insights_28_days") { "\(base)/insights?days=28&today=\(day(&$0))" },
            Route(name: "calendar") { rng in
                let date = day(&rng)
                return "\(base)/calendar?month=\(String(format: "%04d-%02d", date.year, date.month))"
            },
            Route(name: "activities_first_page") { _ in "\(base)/activities?limit=20" },
            Route(name: "activities_page_from") { "\(base)/activities?limit=20&from=\(day(&$0))" },
            Route(name: "activity_detail") { rng in
                "\(base)/activities/a-\(rng.next() % UInt64(max(1, span.days)))-\(rng.next() % 3)"
            },
            Route(name: "records") { _ in "\(base)/records" },
            Route(name: "profile") { _ in "\(base)/profile" },
            Route(name: "timeline_first_page") { _ in "\(base)/timeline?limit=50" },
            Route(name: "timeline_page_from") { "\(base)/timeline?limit=50&from=\(day(&$0))T00:00:00Z" },
            Route(name: "events_page") { "\(base)/events?from=\(1 + $0.next() % max(1, span.head))&limit=100" },
            Route(name: "training_week") { rng in
                let date = day(&rng)
                return "\(base)/training/week?date=\(date)&today=\(date)"
            },
            Route(name: "training_load_4_weeks") { rng in
                let to = day(&rng)
                return "\(base)/training/load?from=\(to.adding(days: -27))&to=\(to)"
            },
            Route(name: "places_deck") { _ in "\(base)/places/deck?limit=20" },
            Route(name: "places_search") { "\(base)/places/deck?limit=20&q=\(HostileRequests.text(&$0))" },
            Route(name: "places_near") { rng in
                let point = String(format: "%.5f,%.5f", 48 + Double(rng.next() % 100_000) / 25_000, 2 + Double(rng.next() % 100_000) / 25_000)
                return "\(base)/places/deck?limit=20&near=\(point)&radius=2000"
            },
            Route(name: "places_saved") { _ in "\(base)/places/saved?category=restaurant" },
            Route(name: "places_visited") { _ in "\(base)/places/visited?category=restaurant" },
            Route(name: "place_detail") { "\(base)/places/place-\(1 + $0.next() % UInt64(max(1, span.places)))" },
        ]
    }

    /// The body of the user's next command: one new step sample, minutes after the history's last day.
    static func stepsBody(_ index: Int, _ span: Span) -> String {
        let day = HostileDataSet.firstDay.adding(days: span.days)
        let start = String(format: "%04d-%02d-%02dT%02d:%02d:00+01:00", day.year, day.month, day.day, 1 + index / 60 % 22, index % 60)
        let end = String(format: "%04d-%02d-%02dT%02d:%02d:30+01:00", day.year, day.month, day.day, 1 + index / 60 % 22, index % 60)
        return #"{"samples":[{"start":"\#(start)","end":"\#(end)","count":\#(20 + index % 50),"source":"watch"}]}"#
    }
}
