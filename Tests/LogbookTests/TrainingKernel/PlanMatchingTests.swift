import Testing
import DemoData
@testable import LogbookDomain

private enum Sport: Hashable, Sendable, CaseIterable { case run, ride, swim }

private typealias Planned = PlanMatching.Planned<Sport>
private typealias Workout = CountedWorkout<Sport>

/// Byte order written out by hand: the first differing byte decides, else the shorter id.
private func bytesBefore(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var i = 0
    while i < x.count && i < y.count {
        if x[i] != y[i] { return x[i] < y[i] }
        i += 1
    }
    return x.count < y.count
}

/// The rules, followed literally and slowly: day by day, plans in ordinal order, a linear scan for the
/// earliest unmatched workout, statuses by the contract's arithmetic.
private func referenceMatch(planned: [Planned], workouts: [Workout], today: Int)
    -> (outcomes: [(id: String, status: PlanMatching.Status, workout: String?)], extras: [String]) {
    var taken = Set<[UInt8]>()  // bytes: `Set<String>` would merge canonically equal ids
    var outcomes: [(id: String, status: PlanMatching.Status, workout: String?)] = []
    let dates = Set(planned.map(\.date)).sorted()
    for date in dates {
        let todays = planned.filter { $0.date == date }.sorted { $0.ordinal < $1.ordinal || ($0.ordinal == $1.ordinal && bytesBefore($0.id, $1.id)) }
        for plan in todays {
            var best: Workout?
            for workout in workouts where workout.localDate == date && workout.activity == plan.activity && !taken.contains(Array(workout.id.utf8)) {
                if let current = best {
                    if workout.startInstant < current.startInstant || (workout.startInstant == current.startInstant && bytesBefore(workout.id, current.id)) {
                        best = workout
                    }
                } else {
                    best = workout
                }
            }
            if let workout = best {
                taken.insert(Array(workout.id.utf8))
                let completed: Bool
                if let distance = plan.distanceMeters {
                    completed = workout.distanceMeters * 10 >= distance * 9
                } else if let duration = plan.durationSeconds {
                    completed = workout.movingSeconds * 10 >= duration * 9
                } else {
                    completed = true
                }
                outcomes.append((plan.id, completed ? .completed : .partial, workout.id))
            } else {
                outcomes.append((plan.id, date < today ? .missed : .upcoming, nil))
            }
        }
    }
    let extras = workouts.filter { !taken.contains(Array($0.id.utf8)) }.sorted {
        ($0.localDate, $0.startInstant) < ($1.localDate, $1.startInstant)
            || (($0.localDate, $0.startInstant) == ($1.localDate, $1.startInstant) && bytesBefore($0.id, $1.id))
    }
    return (outcomes, extras.map(\.id))
}

/// A result as bytes: ids compared byte for byte (`==` on `String` treats canonically equal ids as equal).
private func bytes(_ result: PlanMatching.Result<Sport>) -> [[UInt8]] {
    result.outcomes.flatMap { [Array($0.planned.id.utf8), Array($0.status.rawValue.utf8), $0.workoutId.map { Array($0.utf8) } ?? [0xFF]] }
        + [[0xFE]] + result.extras.map { Array($0.id.utf8) }
}

@Suite struct PlanMatchingTests {
    @Test func plansTakeTheEarliestWorkoutInPlanningOrder() {
        let planned = [
            Planned(id: "p2", ordinal: 20, date: 100, activity: .run, distanceMeters: 5_000),
            Planned(id: "p1", ordinal: 10, date: 100, activity: .run, distanceMeters: 10_000),
            Planned(id: "p3", ordinal: 30, date: 100, activity: .ride, durationSeconds: 3_600),
        ]
        let workouts = [
            Workout(id: "late", activity: .run, localDate: 100, startInstant: 2_000, distanceMeters: 5_000, movingSeconds: 1_500),
            Workout(id: "early", activity: .run, localDate: 100, startInstant: 1_000, distanceMeters: 9_000, movingSeconds: 3_000),
            Workout(id: "swim", activity: .swim, localDate: 100, startInstant: 500, distanceMeters: 1_000, movingSeconds: 1_800),
        ]
        let result = PlanMatching.match(planned: planned, workouts: workouts, today: 101)
        #expect(result.outcomes.map(\.planned.id) == ["p1", "p2", "p3"])
        #expect(result.outcomes.map(\.status) == [.completed, .completed, .missed])
        #expect(result.outcomes.map(\.workoutId) == ["early", "late", nil])
        #expect(result.extras.map(\.id) == ["swim"])
    }

    @Test func distanceAloneDecidesWhenPlanned() {
        let plan = Planned(id: "p", ordinal: 1, date: 5, activity: .run, distanceMeters: 10_000, durationSeconds: 60)
        let short = Workout(id: "w", activity: .run, localDate: 5, startInstant: 0, distanceMeters: 8_999, movingSeconds: 99_999)
        #expect(PlanMatching.match(planned: [plan], workouts: [short], today: 5).outcomes[0].status == .partial)
        var enough = short
        enough.distanceMeters = 9_000
        #expect(PlanMatching.match(planned: [plan], workouts: [enough], today: 5).outcomes[0].status == .completed)
        let byTime = Planned(id: "t", ordinal: 1, date: 5, activity: .run, durationSeconds: 3_000)
        var timed = short
        timed.movingSeconds = 2_699
        #expect(PlanMatching.match(planned: [byTime], workouts: [timed], today: 5).outcomes[0].status == .partial)
        timed.movingSeconds = 2_700
        #expect(PlanMatching.match(planned: [byTime], workouts: [timed], today: 5).outcomes[0].status == .completed)
        #expect(PlanMatching.reachesNinetyPercent(.max, of: .max))
        #expect(!PlanMatching.reachesNinetyPercent(.min, of: 1))
    }

    @Test func missedBeforeTodayUpcomingFromToday() {
        let planned = [Planned(id: "a", ordinal: 1, date: 9, activity: .run), Planned(id: "b", ordinal: 2, date: 10, activity: .run)]
        #expect(PlanMatching.match(planned: planned, workouts: [], today: 10).outcomes.map(\.status) == [.missed, .upcoming])
    }

    /// Equal start instants: the lowest id by bytes wins — "e" + U+0301 (65 CC 81) before "é" (C3 A9), which
    /// Swift's `String` calls equal, and "Z" (5A) before "a" (61).
    @Test func tiesOnStartGoToTheLowestIdBytewise() {
        let planned = [Planned(id: "p", ordinal: 1, date: 3, activity: .run)]
        for (low, high) in [("e\u{301}", "\u{E9}"), ("Z", "a"), ("ab", "abc")] {
            let workouts = [Workout(id: high, activity: .run, localDate: 3, startInstant: 7, distanceMeters: 1, movingSeconds: 1),
                            Workout(id: low, activity: .run, localDate: 3, startInstant: 7, distanceMeters: 1, movingSeconds: 1)]
            let result = PlanMatching.match(planned: planned, workouts: workouts, today: 0)
            #expect(result.outcomes[0].workoutId.map { Array($0.utf8) } == Array(low.utf8))
            #expect(result.extras.map { Array($0.id.utf8) } == [Array(high.utf8)])
        }
    }

    /// Random plans and workouts, in random orders: the same answer as the reference model, whatever the order.
    @Test(arguments: Array(1...40) as [UInt64])
    func agreesWithTheReferenceModelInAnyOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let idAlphabet = ["a", "b", "B", "é", "e\u{301}", "z", "0"]
        func randomId(_ prefix: String) -> String {
            prefix + (0..<Int.random(in: 0...2, using: &random)).map { _ in idAlphabet.randomElement(using: &random)! }.joined()
        }
        var plannedIds = Set<[UInt8]>()
        var planned: [Planned] = []
        for ordinal in 0..<Int.random(in: 0...25, using: &random) {
            let id = randomId("p")
            guard plannedIds.insert(Array(id.utf8)).inserted else { continue }
            planned.append(Planned(
                id: id, ordinal: ordinal * 3 + Int.random(in: 0...2, using: &random), date: Int.random(in: 0...6, using: &random),
                activity: Sport.allCases.randomElement(using: &random)!,
                distanceMeters: Bool.random(using: &random) ? Int.random(in: 0...20, using: &random) * 1_000 : nil,
                durationSeconds: Bool.random(using: &random) ? Int.random(in: 1...20, using: &random) * 300 : nil))
        }
        var workoutIds = Set<[UInt8]>()
        var workouts: [Workout] = []
        for _ in 0..<Int.random(in: 0...25, using: &random) {
            let id = randomId("w")
            guard workoutIds.insert(Array(id.utf8)).inserted else { continue }
            workouts.append(Workout(
                id: id, activity: Sport.allCases.randomElement(using: &random)!, localDate: Int.random(in: 0...6, using: &random),
                startInstant: Int64(Int.random(in: 0...4, using: &random)), distanceMeters: Int.random(in: 0...22_000, using: &random),
                movingSeconds: Int.random(in: 0...6_000, using: &random)))
        }
        let today = Int.random(in: 0...7, using: &random)
        let result = PlanMatching.match(planned: planned, workouts: workouts, today: today)
        let reference = referenceMatch(planned: planned, workouts: workouts, today: today)
        #expect(result.outcomes.map { Array($0.planned.id.utf8) } == reference.outcomes.map { Array($0.id.utf8) })
        #expect(result.outcomes.map(\.status) == reference.outcomes.map(\.status))
        #expect(result.outcomes.map { $0.workoutId.map { Array($0.utf8) } } == reference.outcomes.map { $0.workout.map { Array($0.utf8) } })
        #expect(result.extras.map { Array($0.id.utf8) } == reference.extras.map { Array($0.utf8) })
        for _ in 0..<5 {
            let shuffled = PlanMatching.match(planned: planned.shuffled(using: &random), workouts: workouts.shuffled(using: &random), today: today)
            #expect(bytes(shuffled) == bytes(result))
            #expect(shuffled == result)
        }
    }
}
