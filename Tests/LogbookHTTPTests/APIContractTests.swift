import Foundation
import Testing

/// The contract check the HTTP tests run on every answer (``APIContract``) catches what it is
/// there for: an undocumented field, a missing required one, a wrong type or format, a value
/// outside an enum, an undocumented status or content type.
@Suite("API contract check")
struct APIContractTests {
    func violations(method: String = "GET", _ uri: String, status: Int = 200, type: String = "application/json", _ body: String) -> [String] {
        APIContract.shared.withLock { $0.violations(method: method, uri: uri, status: status, contentType: type, body: Data(body.utf8)) }
    }

    /// A goal week with `days` days, each one valid.
    static func goalWeek(days: Int) -> String {
        let day = #"{"activeMinutes":0,"date":"2026-11-02","goal":{"steps":10000},"met":false,"movingSeconds":0,"origin":"standard","steps":0}"#
        return #"{"activeMinutes":0,"days":["# + Array(repeating: day, count: days).joined(separator: ",")
            + #"],"daysMet":0,"movingSeconds":0,"steps":0,"streaks":{"current":0,"longest":0},"user":"ana","weekStart":"2026-11-02"}"#
    }

    static let profile = #"{"displayName":"Ana","timeZone":"Europe/Berlin","units":"metric","weekStart":"monday"}"#

    @Test("a conforming answer passes; each kind of deviation is named")
    func deviationsAreCaught() {
        #expect(violations("/users/ana/profile", Self.profile).isEmpty)
        #expect(violations("/users/ana/profile", Self.profile.replacingOccurrences(of: "}", with: #","extra":1}"#))
            .contains { $0.contains("extra is not a documented property") })
        #expect(violations("/users/ana/profile", #"{"displayName":"Ana","timeZone":"UTC","units":"metric"}"#)
            .contains { $0.contains("weekStart is missing") })
        #expect(violations("/users/ana/profile", Self.profile.replacingOccurrences(of: "\"metric\"", with: "\"furlongs\"")).contains { $0.contains("is not one of") })
        #expect(violations("/users/ana/profile", Self.profile.replacingOccurrences(of: "\"Ana\"", with: "7")).contains { $0.contains("is not string") })
        #expect(violations("/users/ana/goals/streaks", #"{"asOf":"2026-13-01","current":0,"longest":0}"#).contains { $0.contains("does not match") })
        #expect(violations("/users/ana/profile", status: 418, Self.profile).contains { $0.contains("status 418 is not documented") })
        #expect(violations("/users/ana/profile", type: "text/html", Self.profile).contains { $0.contains("content type text/html") })
        // Refusals are problems; the log's pages hold events in the wire form, checked by their own schema file.
        #expect(violations("/users/ana/profile", status: 404, type: "application/problem+json",
                           #"{"type":"/problems/not-found","title":"Not found","status":404,"detail":"no user","instance":"/users/ana/profile"}"#).isEmpty)
        #expect(violations("/users/ana/events", #"{"events":[{"stream":"s"}],"nextPosition":null}"#).contains { $0.contains("eventId is missing") })
        // Numbers, lengths, array sizes, nullable values, a choice of schemas, a pattern anchored at the end.
        #expect(violations("/users/ana/goals/streaks", #"{"asOf":"2026-11-01","current":-1,"longest":0}"#).contains { $0.contains("< 0") })
        #expect(violations("/users/ana/goals/streaks", #"{"asOf":"2026-11-01\n","current":0,"longest":0}"#).contains { $0.contains("does not match") })
        #expect(violations("/users/ana/goals/week", Self.goalWeek(days: 8)).contains { $0.contains("more than 7 items") })
        #expect(violations("/users/ana/goals/week", Self.goalWeek(days: 7)).isEmpty)
        #expect(violations("/users/ana/events", #"{"events":[],"nextPosition":null}"#).isEmpty)
        #expect(violations("/users/ana/events", #"{"events":[],"nextPosition":"3"}"#).contains { $0.contains("nextPosition") })
        #expect(violations("/health", #"{"status":"ok"}"#).isEmpty)
        #expect(violations("/health", #"{"status":"fine"}"#).contains { $0.contains("is not one of") })
        #expect(violations(method: "POST", "/users/ana/imports", status: 201, #"{"nothing":1}"#).contains { $0.contains("matches 0 of oneOf") })
        // A path the document does not know is not judged (the router answers 404 itself).
        #expect(violations("/nowhere", "{}").isEmpty)
    }
}
