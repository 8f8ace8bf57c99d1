/// The deterministic training-plan generator (the Training article, "Plan generation"), version ``version``.
///
/// From a target race, a start date, sessions per week and four weeks of history it plans one session a day
/// on chosen weekdays, from the start date through the race. Everything is integer arithmetic on meters and
/// day numbers: the same request gives the same plan, byte for byte, on every platform. The algorithm and its
/// numbers are described in the Training article ("The plan generator"); in short:
///
/// 1. **Start volume** = the average of the four recent weeks, at least a beginner's floor of
///    max(8,000 m + D/2, 2,500 m × days per week) (D = race distance).
/// 2. **Build**: each week at most 10% above the previous week's planned volume, up to a peak of
///    max(start, 25,000 m + D); every fourth week (weeks 4, 8, …) is easy: 75% of the week before, no quality
///    session, and the week after returns to the level before it. The week before the taper is never easy.
/// 3. **Taper** (the last weeks, the race week included): 1 week below 16 km races (60%), 2 below 30 km
///    (75%, 50%), else 3 (75%, 60%, 40%) of the last build week.
/// 4. **Week**: a fixed weekday pattern around the long-run day (see the Training article): a long run, a
///    quality session three days later (tempo and intervals alternating), easy runs, and with six days a
///    recovery run the day after the long run. Hard days are never adjacent.
/// 5. **Sizes**: shares of the week (long 40/35/30/27% for 3/4/5/6 days, 5 points more from 16 km races and 10
///    from 30 km; quality 25/22/20/18%), the long run
///    at most ``longRunCap(distance:)`` and at most 10% longer than the last one, quality at most
///    min(16 km, 8 km + D/4) and 90% of the long run, easy runs share the rest and stay at most 90% of the
///    long run; every distance is rounded down to whole 100 m and sessions under 1,000 m are left out.
/// 6. **Race**: the day before is free, no long run in the six days before and no quality session in the two
///    days before; the race itself (kind `race`, the target distance and goal time) on its date.
/// 7. **Horizon**: only days up to ``horizonDays`` (26 weeks) after today are planned; a race further ahead
///    gets the first 26 weeks of its plan (``GeneratedPlan/reachesRace`` is false).
package enum PlanGenerator {
    /// The generator's version: a plan records it, and a change of any rule or number here increments it.
    package static let version = 1
    /// Planned dates are at most this many days (26 weeks) after the user's today.
    package static let horizonDays = 182
    /// The race may be at most this many days (two years) after today.
    package static let maxLeadDays = 730
    /// Accepted sessions per week.
    package static let daysPerWeekRange = 3...6
    /// Accepted race distances, meters.
    package static let distanceRange = 1_000...1_000_000
    /// Accepted goal times, seconds.
    package static let goalSecondsRange = 1...1_000_000
    /// Weeks of history the start volume averages.
    package static let historyWeeks = 4
    /// A history week counts at most this many meters (larger values are clamped: hostile input).
    package static let maxHistoryMeters = 1_000_000
    /// Shorter sessions are left out of the plan.
    package static let minimumSessionMeters = 1_000

    /// The plan for a request, or the rule the request breaks.
    package static func generate<Activity>(_ request: PlanRequest<Activity>) throws(PlanGenerationError) -> GeneratedPlan<Activity> {
        try validate(request)
        let rules = Rules(distance: request.target.distanceMeters, daysPerWeek: request.daysPerWeek)
        let weeks = weekPlans(request, rules: rules)
        return layOut(request, rules: rules, weeks: weeks)
    }

    static func validate<Activity>(_ request: PlanRequest<Activity>) throws(PlanGenerationError) {
        guard daysPerWeekRange.contains(request.daysPerWeek) else { throw .daysPerWeekOutOfRange(request.daysPerWeek) }
        if let weekday = request.longRunWeekday, !(0...6).contains(weekday) { throw .longRunWeekdayOutOfRange(weekday) }
        let target = request.target
        guard distanceRange.contains(target.distanceMeters) else { throw .distanceOutOfRange(target.distanceMeters) }
        if let goal = target.goalSeconds, !goalSecondsRange.contains(goal) { throw .goalSecondsOutOfRange(goal) }
        for day in [request.today, request.startDate, target.raceDate] where !DayNumbers.validRange.contains(day) {
            throw .dayOutOfRange(day)
        }
        guard request.startDate >= request.today else { throw .startBeforeToday(start: request.startDate, today: request.today) }
        let horizon = request.today + horizonDays
        guard request.startDate <= horizon else { throw .startBeyondHorizon(start: request.startDate, lastDay: horizon) }
        guard target.raceDate >= request.startDate else { throw .raceBeforeStart(race: target.raceDate, start: request.startDate) }
        let latest = request.today + maxLeadDays
        guard target.raceDate <= latest else { throw .raceTooFarAhead(race: target.raceDate, lastDay: latest) }
    }

    /// The longest long run for a race of `distance` meters: 8 km + D/2 below 16 km, D itself up to 28 km,
    /// then max(28 km, 3/4 D) (a marathon: 31.6 km). Continuous, rounded down to 100 m.
    package static func longRunCap(distance: Int) -> Int {
        let cap = if distance < 16_000 {
            8_000 + distance / 2
        } else if distance <= 28_000 {
            distance
        } else {
            max(28_000, distance * 3 / 4)
        }
        return cap.roundedDownToHundred
    }

    /// The numbers a request's distance and days per week fix.
    struct Rules {
        let distance: Int
        let template: [(offset: Int, slot: Slot)]
        let longPercent: Int
        let qualityPercent: Int
        let longCap: Int
        let qualityCap: Int
        /// The shortest long run a beginner starts with.
        let minimumLong: Int
        let floorVolume: Int
        let peakVolume: Int
        /// Taper targets, percent of the last build week, race week last.
        let taperPercents: [Int]

        init(distance: Int, daysPerWeek: Int) {
            self.distance = distance
            template = PlanGenerator.template(daysPerWeek: daysPerWeek)
            let (basePercent, qualityPercent) = switch daysPerWeek {
            case 3: (40, 25)
            case 4: (35, 22)
            case 5: (30, 20)
            default: (27, 18)
            }
            // Longer races lean on the long run: +5 points from 16 km, +10 from 30 km.
            longPercent = basePercent + (distance < 16_000 ? 0 : distance < 30_000 ? 5 : 10)
            self.qualityPercent = qualityPercent
            longCap = PlanGenerator.longRunCap(distance: distance)
            qualityCap = min(16_000, 8_000 + distance / 4).roundedDownToHundred
            minimumLong = min(longCap, (3_000 + distance / 5).roundedDownToHundred)
            floorVolume = max(8_000 + distance / 2, 2_500 * daysPerWeek).roundedDownToHundred
            peakVolume = (25_000 + distance).roundedDownToHundred
            taperPercents = if distance < 16_000 {
                [60]
            } else if distance < 30_000 {
                [75, 50]
            } else {
                [75, 60, 40]
            }
        }
    }

    /// A session's role in the weekly pattern.
    enum Slot { case long, quality, easy, recovery }

    /// The weekly pattern: days after the long-run day and their roles. Hard days (long at 0, quality at 3)
    /// are three and four days apart, across weeks too.
    static func template(daysPerWeek: Int) -> [(offset: Int, slot: Slot)] {
        switch daysPerWeek {
        case 3: [(0, .long), (3, .quality), (5, .easy)]
        case 4: [(0, .long), (2, .easy), (3, .quality), (5, .easy)]
        case 5: [(0, .long), (2, .easy), (3, .quality), (4, .easy), (6, .easy)]
        default: [(0, .long), (1, .recovery), (2, .easy), (3, .quality), (4, .easy), (6, .easy)]
        }
    }
}
