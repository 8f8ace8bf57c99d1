public import Logbook
import EventLog
import Testing

/// Two Logbooks following one log (two servers): a user registered and a goal set through `a`
/// are read through `b` once it has caught up to each write's position — its cache included.
/// Failures are recorded in the calling test.
public func expectWritesOnOneReadOnTheOther(_ a: Logbook, _ b: Logbook) async throws {
    let now = when("2026-11-20T08:00:00+01:00")
    let registered = try await a.execute(.registerUser(user: "u", UserRegistered(displayName: "U", timeZone: "UTC")), context: now)
    try await b.catchUp(to: Position(registered.lastPosition))
    let before = try await b.goalWeek(user: "u", containing: day("2026-11-25"))
    #expect(before.days.allSatisfy { $0.goal.steps == 10_000 })
    let set = try await a.execute(.setGoal(user: "u", GoalSet(date: day("2026-11-25"), steps: 4_321)), context: now)
    try await b.catchUp(to: Position(set.lastPosition))
    let after = try await b.goalWeek(user: "u", containing: day("2026-11-25"))
    #expect(after.days.first { $0.date == day("2026-11-25") }?.goal.steps == 4_321, "B answered from a stale cache")
}
