import EventLog
import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import Testing

/// The stats tab over HTTP and on the command line: the summary and its chart, with the
/// query's refusals naming the parameter.
@Suite("Stats summary route and command")
struct StatsSummaryRouteTests {
    @Test("the summary answers every bucket with its totals; the chart is an SVG; bad parameters are 400 naming them")
    func summaryOverHTTP() async throws {
        try await withServer { server in
            try await register(server, "ana")
            for (index, start) in ["2026-11-02T07:00:00+01:00", "2026-11-05T18:00:00+01:00", "2026-11-20T07:00:00+01:00"].enumerated() {
                let imported = try await server.call(.post, "/users/ana/imports", as: "ana", body: """
                    {"workoutId":"w\(index)","activityType":"run","startedAt":"\(start)","endedAt":"\(start.replacingOccurrences(of: "T07:", with: "T08:").replacingOccurrences(of: "T18:", with: "T19:"))",
                     "distanceMeters":\(5000 + 1000 * index),"movingSeconds":1800,"source":{"kind":"garmin","sourceId":"g\(index)"}}
                    """)
                #expect(imported.status == .created, "\(imported.text)")
            }
            let response = try await server.call(.get, "/users/ana/stats/summary?period=week&from=2026-11-01&to=2026-11-30", as: "ana")
            #expect(response.status == .ok, "\(response.text)")
            let summary = try JSONDecoder().decode(StatsSummary.self, from: Data(response.text.utf8))
            // Monday weeks from 26 Oct (the week of 1 Nov) to 6 Dec (the week of 30 Nov): six, two of them empty.
            #expect(summary.buckets.map(\.workouts) == [0, 2, 0, 1, 0, 0])
            #expect(summary.totals.distanceMeters == 18_000 && summary.totals.longest?.workoutId == "w2")
            let chart = try await server.call(.get, "/users/ana/stats/summary.svg?period=month&from=2026-01-01&to=2026-12-31&metric=distance", as: "ana")
            #expect(chart.status == .ok && chart.headers[.contentType] == "image/svg+xml")
            #expect(chart.text.hasPrefix("<svg") && chart.text.contains("Distance by month 2026-01-01 – 2026-12-31: 18 km"))
            #expect(chart.text.components(separatedBy: "<rect x=").count - 1 == 12)
            for (query, name) in [("period=fortnight", "period"), ("", "period"), ("period=week&from=2026-13-01", "from"),
                                  ("period=week&from=2026-12-01&to=2026-11-01", "from"), ("period=all&type=swimming", "type"),
                                  ("period=year&from=1800-01-01&to=2026-01-01", "to")] {
                let refused = try await server.call(.get, "/users/ana/stats/summary?\(query)", as: "ana")
                #expect(refused.status == .badRequest && refused.text.contains(name), "\(query): \(refused.status) \(refused.text)")
            }
            #expect(try await server.call(.get, "/users/ana/stats/summary?period=all", as: "bob").status == .forbidden)
        }
    }

    @Test("without to, the summary follows the user's today: the next day answers new buckets and a new tag, not the cached ones")
    func defaultRangeFollowsTheDay() async throws {
        let clock = HandClock(at("2026-11-29T12:00:00+01:00"))
        try await withServer(logbook: { $0.clock = clock }) { server in
            try await register(server, "ana")
            for uri in ["/users/ana/stats/summary?period=week", "/users/ana/stats/summary.svg?period=week"] {
                clock.set(at("2026-11-29T12:00:00+01:00"))  // a Sunday: the last Monday week is 23–29 Nov
                let sunday = try await server.call(.get, uri, as: "ana")
                #expect(sunday.status == .ok && sunday.text.contains("2026-11-29"), "\(uri): \(sunday.text.prefix(300))")
                let again = try await server.call(.get, uri, as: "ana", headers: ["If-None-Match": sunday.headers[.eTag] ?? ""])
                #expect(again.status == .notModified, "\(uri)")
                clock.set(at("2026-11-30T08:00:00+01:00"))  // Monday: a new week ends the range
                let monday = try await server.call(.get, uri, as: "ana", headers: ["If-None-Match": sunday.headers[.eTag] ?? ""])
                #expect(monday.status == .ok && monday.text.contains("2026-12-06"), "\(uri): \(monday.status) \(monday.text.prefix(300))")
            }
        }
    }
}
