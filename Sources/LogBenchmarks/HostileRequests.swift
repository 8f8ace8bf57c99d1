import DemoData
import EventLog
import Foundation

/// The requests of the hostile benchmark: for each route whose work a caller can make grow, the
/// worst request one user can send (fresh parameters each time, so the cache never answers), and
/// the victim's ordinary reads.
struct HostileRequests {
    /// One kind of attack: its name in the report and the path of its next request.
    struct Attack: Sendable {
        let name: String
        let next: @Sendable (inout SplitMix64) -> String
        /// Read as a stream: at most this many bytes of the answer, then the connection is dropped.
        var streamBytes: Int?
    }

    static let user = HostileDataSet.attacker

    /// A text no place name holds whole, of 2 to 5 syllables and letters (fresh each time).
    static func text(_ rng: inout SplitMix64) -> String {
        let syllables = HostileDataSet.syllables
        var text = (0..<(1 + Int(rng.next() % 2))).map { _ in syllables[Int(rng.next() % UInt64(syllables.count))] }.joined()
        text += String(UnicodeScalar(UInt8(97 + rng.next() % 26)))
        return text
    }

    static func date(_ rng: inout SplitMix64) -> CivilDate { HostileDataSet.firstDay.adding(days: Int(rng.next() % 7_300)) }

    static func point(_ rng: inout SplitMix64) -> String {
        String(format: "%.5f,%.5f", -80 + Double(rng.next() % 16_000) / 100, -179 + Double(rng.next() % 35_800) / 100)
    }

    /// The attacks, by route.
    static func attacks(head: UInt64) -> [Attack] {
        let user = Self.user
        return [
            Attack(name: "places_search") { "/users/\(user)/places/deck?limit=100&q=\(text(&$0))" },
            Attack(name: "places_near") { "/users/\(user)/places/deck?limit=100&near=\(point(&$0))&radius=20037509" },
            Attack(name: "places_saved_search") { "/users/\(user)/places/saved?category=restaurant&q=\(text(&$0))" },
            Attack(name: "summary_all") { "/users/\(user)/stats/summary?period=all&to=\(date(&$0))" },
            Attack(name: "summary_svg") { "/users/\(user)/stats/summary.svg?period=week&from=\(HostileDataSet.firstDay)&to=\(date(&$0))" },
            Attack(name: "goals_week") { "/users/\(user)/goals/week?date=\(date(&$0))" },
            Attack(name: "streaks") { "/users/\(user)/goals/streaks?day=\(date(&$0))" },
            Attack(name: "calendar") { rng in
                let day = date(&rng)
                return "/users/\(user)/calendar?month=\(String(format: "%04d-%02d", day.year, day.month))"
            },
            Attack(name: "insights") { "/users/\(user)/insights?days=3660&today=\(date(&$0))" },
            Attack(name: "activities_text") { "/users/\(user)/activities?limit=100&text=\(text(&$0))" },
            Attack(name: "timeline_rare_type") { rng in
                "/users/\(user)/timeline?types=goal.cleared&limit=500&from=\(date(&rng))T00:00:00Z"
            },
            Attack(name: "events_page") { "/users/\(user)/events?from=\(1 + $0.next() % max(1, head))&limit=1000" },
            Attack(name: "as_of_head") { rng in "/users/\(user)/goals/week?date=\(date(&rng))&asOf=\(max(1, head - rng.next() % 1_000))" },
            Attack(name: "sse_catch_up", next: { _ in "/users/\(user)/events/subscribe?after=0" }, streamBytes: 4 << 20),
        ]
    }

    /// The victim's next read: a week of stats, goals, the deck or a page of activities, on dates
    /// spread over years (mostly not cached).
    static func victim(_ rng: inout SplitMix64) -> String {
        let user = HostileDataSet.victim
        let day = CivilDate(year: 2026, month: 1, day: 1)!.adding(days: -Int(rng.next() % 3_650))
        switch rng.next() % 4 {
        case 0: return "/users/\(user)/stats/weekly?date=\(day)"
        case 1: return "/users/\(user)/goals/week?date=\(day)"
        case 2: return "/users/\(user)/stats/period?from=\(day)&to=\(day.adding(days: 30))"
        default: return "/users/\(user)/activities?limit=20&from=\(day)"
        }
    }
}
