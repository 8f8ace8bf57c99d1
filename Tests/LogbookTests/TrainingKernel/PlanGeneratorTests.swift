import Testing
import DemoData
@testable import LogbookDomain

private typealias Request = PlanRequest<String>

/// A random request within the generator's limits (history, distances, weekdays, leads up to two years).
private func randomRequest(_ random: inout SplitMix64) -> Request {
    let today = 20_000 + Int.random(in: 0...400, using: &random)
    let start = today + Int.random(in: 0...30, using: &random)
    let lead = [Int.random(in: 0...20, using: &random), Int.random(in: 0...180, using: &random), Int.random(in: 0...730, using: &random)]
        .randomElement(using: &random)!
    let race = min(start + lead, today + PlanGenerator.maxLeadDays)
    let distance = [1_000, 5_000, 10_000, 15_000, 16_000, 21_097, 29_999, 30_000, 42_195, 50_000, 100_000, 1_000_000,
                    Int.random(in: PlanGenerator.distanceRange, using: &random)].randomElement(using: &random)!
    let history = (0..<Int.random(in: 0...5, using: &random)).map { _ in
        let total = [0, Int.random(in: 0...30_000, using: &random), Int.random(in: 0...150_000, using: &random), .max].randomElement(using: &random)!
        return WeekHistory(totalMeters: total, longestMeters: [0, total / 3, Int.random(in: -5...40_000, using: &random)].randomElement(using: &random)!)
    }
    return Request(
        target: RaceTarget(activity: "run", distanceMeters: distance, raceDate: race,
                           goalSeconds: Bool.random(using: &random) ? Int.random(in: 600...30_000, using: &random) : nil),
        startDate: start, today: today, daysPerWeek: Int.random(in: 3...6, using: &random),
        longRunWeekday: Bool.random(using: &random) ? Int.random(in: 0...6, using: &random) : nil,
        weekStart: Bool.random(using: &random) ? .monday : .sunday, recentWeeks: history)
}

@Suite struct PlanGeneratorTests {
    @Test(arguments: Array(1...200) as [UInt64])
    func plansKeepTheirPromises(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let request = randomRequest(&random)
        let plan = try PlanGenerator.generate(request)
        let race = request.target.raceDate
        let lastDay = min(race, request.today + PlanGenerator.horizonDays)

        // Deterministic: the same request, the same plan.
        #expect(try PlanGenerator.generate(request) == plan)
        #expect(plan.version == PlanGenerator.version)

        // Dates: within [start, race] and the horizon, one session a day, in order; the race last, on its date.
        let dates = plan.sessions.map(\.date)
        #expect(dates == dates.sorted() && Set(dates).count == dates.count)
        #expect(dates.allSatisfy { $0 >= request.startDate && $0 <= lastDay })
        #expect(plan.reachesRace == (race <= request.today + PlanGenerator.horizonDays))
        if plan.reachesRace {
            let last = try #require(plan.sessions.last)
            #expect(last.kind == .race && last.date == race && last.distanceMeters == request.target.distanceMeters)
            #expect(last.durationSeconds == request.target.goalSeconds)
            #expect(!dates.contains(race - 1))
        }
        #expect(plan.sessions.filter { $0.kind == .race }.count == (plan.reachesRace ? 1 : 0))

        // No two hard days in a row; no long run in the six days before the race, no quality in the two.
        for (a, b) in zip(plan.sessions, plan.sessions.dropFirst()) where b.date == a.date + 1 {
            #expect(!(a.kind.isHard && b.kind.isHard), "hard days \(a.date) \(a.kind), \(b.date) \(b.kind)")
        }
        for session in plan.sessions where session.date >= race - 6 && session.date < race {
            #expect(session.kind != .long)
            if session.date >= race - 2 { #expect(session.kind == .easy || session.kind == .recovery) }
        }

        // Distances: whole 100 m, at least 1,000 m, long runs within their cap, on the long-run weekday.
        let longWeekday = request.longRunWeekday ?? 6
        for session in plan.sessions where session.kind != .race {
            let meters = try #require(session.distanceMeters)
            #expect(meters % 100 == 0 && meters >= PlanGenerator.minimumSessionMeters)
            if session.kind == .long {
                #expect(meters <= PlanGenerator.longRunCap(distance: request.target.distanceMeters))
                #expect(DayNumbers.weekday(of: session.date) == longWeekday)
            }
        }

        // Weeks: consecutive, each session in its week, planned ≤ target, at most one long and one quality each.
        for (index, week) in plan.weeks.enumerated() {
            #expect(week.firstDay == DayNumbers.firstDayOfWeek(containing: request.startDate, weekStart: request.weekStart) + 7 * index)
            let sessions = plan.sessions.filter { $0.date >= week.firstDay && $0.date < week.firstDay + 7 && $0.kind != .race }
            #expect(week.plannedMeters == sessions.reduce(0) { $0 + ($1.distanceMeters ?? 0) })
            #expect(week.plannedMeters <= week.targetMeters)
            #expect(sessions.filter { $0.kind == .long }.count <= 1)
            #expect(sessions.filter { $0.kind == .tempo || $0.kind == .intervals }.count <= 1)
            if week.phase == .easy { #expect(sessions.allSatisfy { $0.kind == .easy || $0.kind == .long || $0.kind == .recovery }) }
        }

        // Volume: a whole build week is followed by at most 10% more (except after an easy week: no previous
        // build week there); an easy week asks at most 75% of the week before; the taper falls at every step.
        for (previous, week) in zip(plan.weeks, plan.weeks.dropFirst()) {
            let previousIsWhole = previous.firstDay >= request.startDate && previous.firstDay + 6 <= lastDay
            if previous.phase == .build && previousIsWhole {
                #expect(week.plannedMeters * 10 <= previous.plannedMeters * 11, "week \(week.firstDay) grew over 10%")
                if week.phase == .easy { #expect(week.targetMeters * 4 <= previous.plannedMeters * 3) }
            }
            if week.phase == .taper || week.phase == .race {
                #expect(week.targetMeters < previous.targetMeters)
                if previous.phase == .build && previousIsWhole { #expect(week.targetMeters < previous.plannedMeters) }
            }
        }
        if plan.reachesRace { #expect(plan.weeks.last?.phase == .race) }
    }

    /// Quality sessions alternate, tempo first.
    @Test func qualitySessionsAlternate() throws {
        let request = Request(target: RaceTarget(activity: "run", distanceMeters: 21_097, raceDate: 20_000 + 120), startDate: 20_000,
                              today: 20_000, daysPerWeek: 5)
        let kinds = try PlanGenerator.generate(request).sessions.map(\.kind).filter { $0 == .tempo || $0 == .intervals }
        #expect(kinds.count >= 10)
        for (index, kind) in kinds.enumerated() { #expect(kind == (index % 2 == 0 ? .tempo : .intervals)) }
    }

    /// Without history, the first week asks the beginner's floor: max(8,000 + D/2, 2,500 × days), whole 100 m.
    @Test func beginnersStartAtTheFloor() throws {
        for (distance, days, floor) in [(5_000, 3, 10_500), (5_000, 6, 15_000), (10_000, 4, 13_000), (42_195, 4, 29_000)] {
            let request = Request(target: RaceTarget(activity: "run", distanceMeters: distance, raceDate: 20_006 + 70), startDate: 20_006,
                                  today: 20_006, daysPerWeek: days, weekStart: .monday)
            #expect(try PlanGenerator.generate(request).weeks.first?.targetMeters == floor)
        }
        // With history, the average of the four weeks (when above the floor); older weeks are not read.
        let experienced = Request(target: RaceTarget(activity: "run", distanceMeters: 10_000, raceDate: 20_006 + 70), startDate: 20_006,
                                  today: 20_006, daysPerWeek: 5,
                                  recentWeeks: [.init(totalMeters: 900_000, longestMeters: 1), .init(totalMeters: 30_000, longestMeters: 12_000),
                                                .init(totalMeters: 34_000, longestMeters: 12_000), .init(totalMeters: 38_000, longestMeters: 14_000),
                                                .init(totalMeters: 40_000, longestMeters: 15_000)])
        #expect(try PlanGenerator.generate(experienced).weeks.first?.targetMeters == 35_500)
    }

    @Test func theHorizonIsTwentySixWeeks() throws {
        let today = 20_000
        let far = Request(target: RaceTarget(activity: "run", distanceMeters: 42_195, raceDate: today + 300), startDate: today, today: today, daysPerWeek: 4)
        let plan = try PlanGenerator.generate(far)
        #expect(!plan.reachesRace)
        #expect(plan.sessions.allSatisfy { $0.date <= today + 182 && $0.kind != .race })
        #expect(plan.sessions.last.map { $0.date > today + 175 } == true)
        // What is planned is the beginning of the whole plan: build and easy weeks, the same however far
        // beyond the horizon the race is.
        #expect(plan.weeks.allSatisfy { $0.phase == .build || $0.phase == .easy })
        var atTwoYears = far
        atTwoYears.target.raceDate = today + 730
        #expect(try PlanGenerator.generate(atTwoYears) == plan)
    }

    @Test func refusals() {
        let today = 20_000
        let good = Request(target: RaceTarget(activity: "run", distanceMeters: 10_000, raceDate: today + 50, goalSeconds: 3_000),
                           startDate: today, today: today, daysPerWeek: 4)
        func error(_ change: (inout Request) -> Void) -> PlanGenerationError? {
            var request = good
            change(&request)
            do { _ = try PlanGenerator.generate(request); return nil } catch { return error }
        }
        #expect(error { _ in } == nil)
        #expect(error { $0.daysPerWeek = 2 } == .daysPerWeekOutOfRange(2))
        #expect(error { $0.daysPerWeek = 7 } == .daysPerWeekOutOfRange(7))
        #expect(error { $0.longRunWeekday = 7 } == .longRunWeekdayOutOfRange(7))
        #expect(error { $0.target.distanceMeters = 999 } == .distanceOutOfRange(999))
        #expect(error { $0.target.goalSeconds = 0 } == .goalSecondsOutOfRange(0))
        #expect(error { $0.startDate = today - 1 } == .startBeforeToday(start: today - 1, today: today))
        #expect(error { $0.startDate = today + 183; $0.target.raceDate = today + 200 } == .startBeyondHorizon(start: today + 183, lastDay: today + 182))
        #expect(error { $0.target.raceDate = today - 1 } == .raceBeforeStart(race: today - 1, start: today))
        #expect(error { $0.target.raceDate = today + 731 } == .raceTooFarAhead(race: today + 731, lastDay: today + 730))
        #expect(error { $0.today = .min } == .dayOutOfRange(.min))
        #expect(error { $0.target.raceDate = today } == nil)
    }

    /// A race on a Tuesday, long runs on Sundays: the Sunday before becomes easy, the Monday is free.
    @Test func theDaysBeforeTheRace() throws {
        // 2027-03-30 (day 20,907) is a Tuesday.
        let request = Request(target: RaceTarget(activity: "run", distanceMeters: 21_097, raceDate: 20_907), startDate: 20_878,
                              today: 20_878, daysPerWeek: 6)
        let plan = try PlanGenerator.generate(request)
        let lastDays = plan.sessions.filter { $0.date >= 20_902 }.map { "\($0.date) \($0.kind)" }
        #expect(lastDays == ["20902 easy", "20904 easy", "20905 easy", "20907 race"])
        #expect(plan.sessions.first { $0.date == 20_905 }?.notes == "Easy and short: stay fresh for the race.")
    }

    /// One fixed request, its whole plan written out: a change here is a new generator version.
    ///
    /// A 10 km race on Sunday 2027-03-28 (day 20,905), planned on Monday 2027-03-01 (day 20,878) to start on
    /// Wednesday 2027-03-03, four days a week, long runs on Sundays, weeks from Monday, four weeks of 18–24 km.
    @Test func pinnedPlan() throws {
        let request = Request(
            target: RaceTarget(activity: "run", distanceMeters: 10_000, raceDate: 20_905, goalSeconds: 3_000),
            startDate: 20_880, today: 20_878, daysPerWeek: 4,
            recentWeeks: [.init(totalMeters: 18_000, longestMeters: 6_000), .init(totalMeters: 22_000, longestMeters: 8_000),
                          .init(totalMeters: 20_000, longestMeters: 7_000), .init(totalMeters: 24_000, longestMeters: 9_000)])
        let plan = try PlanGenerator.generate(request)
        #expect(plan.version == 1 && plan.reachesRace)
        #expect(plan.weeks == [
            PlanWeek(firstDay: 20_878, phase: .build, targetMeters: 21_000, plannedMeters: 16_400),
            PlanWeek(firstDay: 20_885, phase: .build, targetMeters: 22_900, plannedMeters: 22_800),
            PlanWeek(firstDay: 20_892, phase: .build, targetMeters: 25_000, plannedMeters: 25_000),
            PlanWeek(firstDay: 20_899, phase: .race, targetMeters: 15_000, plannedMeters: 9_700),
        ])
        let easy = "Easy run at a conversational pace."
        let long = "Long run at an easy, steady pace."
        let expected: [(Int, SessionKind, Int, Int?, String)] = [
            (20_880, .tempo, 4_600, nil, "Tempo: warm up easy, 2.3 km at a comfortably hard effort, then cool down."),
            (20_882, .easy, 4_500, nil, easy),
            (20_884, .long, 7_300, nil, long),
            (20_886, .easy, 4_900, nil, easy),
            (20_887, .intervals, 5_000, nil, "Intervals: warm up easy, 3 × 800 m at about 5K effort with easy jogs of the same distance, then cool down."),
            (20_889, .easy, 4_900, nil, easy),
            (20_891, .long, 8_000, nil, long),
            (20_893, .easy, 5_400, nil, easy),
            (20_894, .tempo, 5_500, nil, "Tempo: warm up easy, 2.7 km at a comfortably hard effort, then cool down."),
            (20_896, .easy, 5_400, nil, easy),
            (20_898, .long, 8_700, nil, long),
            (20_900, .easy, 3_200, nil, easy),
            (20_901, .intervals, 3_300, nil, "Intervals: warm up easy, 3 × 400 m at about 5K effort with easy jogs of the same distance, then cool down."),
            (20_903, .easy, 3_200, nil, easy),
            (20_905, .race, 10_000, 3_000, "Race day: 10 km. Goal 50:00, about 5:00 per km."),
        ]
        #expect(plan.sessions == expected.map {
            PlannedSession(date: $0.0, kind: $0.1, activity: "run", distanceMeters: $0.2, durationSeconds: $0.3, notes: $0.4)
        })
    }
}
