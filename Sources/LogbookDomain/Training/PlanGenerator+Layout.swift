/// Laying weeks out on days: steps 4, 6 and 7 of ``PlanGenerator``.
extension PlanGenerator {
    /// The sessions of every week on their days, the race, and the weeks' summaries.
    static func layOut<Activity>(_ request: PlanRequest<Activity>, rules: Rules, weeks: [WeekPlan]) -> GeneratedPlan<Activity> {
        let target = request.target
        let race = target.raceDate
        let lastDay = min(race, request.today + horizonDays)
        let longWeekday = request.longRunWeekday ?? 6
        var sessions: [PlannedSession<Activity>] = []
        var summaries: [PlanWeek] = []
        var qualityCount = 0
        for week in weeks where week.firstDay <= lastDay {
            var planned = 0
            var daySessions: [PlannedSession<Activity>] = []
            for (offset, slot) in rules.template {
                let day = DayNumbers.first(weekday: (longWeekday + offset) % 7, onOrAfter: week.firstDay)
                // Step 7 (horizon) and step 6 (nothing on or after the race, the day before it free).
                guard day >= request.startDate, day <= lastDay, day < race - 1 else { continue }
                var kind: SessionKind
                var meters = week.sizes.meters(slot)
                var note: Note
                switch slot {
                case .long: (kind, note) = (.long, .long)
                case .easy: (kind, note) = (.easy, .easy)
                case .recovery: (kind, note) = (.recovery, .recovery)
                case .quality where !week.sizes.withQuality: (kind, note) = (.easy, .strides)
                case .quality: (kind, note) = (.tempo, .tempo)
                }
                // Step 6: no long run in the six days before the race, no quality session in the two days before:
                // they become easy runs (of the week's easy size, never longer than the session they replace).
                if (kind == .long && day >= race - 6) || (slot == .quality && week.sizes.withQuality && day >= race - 2) {
                    (kind, note, meters) = (.easy, .beforeRace, min(meters, week.sizes.easy))
                }
                guard meters > 0 else { continue }
                if kind == .tempo {
                    if qualityCount % 2 == 1 { (kind, note) = (.intervals, .intervals) }
                    qualityCount += 1
                }
                planned += meters
                daySessions.append(PlannedSession(date: day, kind: kind, activity: target.activity, distanceMeters: meters,
                                                  notes: note.text(meters: meters)))
            }
            sessions += daySessions.sorted { $0.date < $1.date }
            summaries.append(PlanWeek(firstDay: week.firstDay, phase: week.phase, targetMeters: week.target, plannedMeters: planned))
        }
        let reachesRace = race <= lastDay
        if reachesRace {
            sessions.append(PlannedSession(date: race, kind: .race, activity: target.activity, distanceMeters: target.distanceMeters,
                                           durationSeconds: target.goalSeconds,
                                           notes: Note.race.text(meters: target.distanceMeters, goalSeconds: target.goalSeconds)))
        }
        return GeneratedPlan(version: version, sessions: sessions, weeks: summaries, reachesRace: reachesRace)
    }

    /// The notes a session carries: fixed English text with metric distances, built from integers only.
    enum Note {
        case easy, strides, recovery, long, tempo, intervals, beforeRace, race

        func text(meters: Int, goalSeconds: Int? = nil) -> String {
            switch self {
            case .easy: return "Easy run at a conversational pace."
            case .strides: return "Easy run (easier week), finishing with 6 × 20 s relaxed strides."
            case .recovery: return "Recovery run: very easy, the day after the long run."
            case .long: return "Long run at an easy, steady pace."
            case .tempo:
                return "Tempo: warm up easy, \(Self.kilometers(meters / 2 / 100 * 100)) at a comfortably hard effort, then cool down."
            case .intervals:
                let repeatMeters = meters < 5_000 ? 400 : 800
                let repeats = min(max(meters * 2 / 5 / repeatMeters, 3), 12)
                return "Intervals: warm up easy, \(repeats) × \(repeatMeters) m at about 5K effort with easy jogs of the same distance, then cool down."
            case .beforeRace: return "Easy and short: stay fresh for the race."
            case .race:
                var text = "Race day: \(Self.kilometers(meters))."
                if let goal = goalSeconds {
                    let pace = (goal * 1000 + meters / 2) / meters
                    text += " Goal \(Self.clock(goal)), about \(Self.clock(pace)) per km."
                }
                return text
            }
        }

        /// "8 km", "21.1 km": to the nearest 100 m.
        static func kilometers(_ meters: Int) -> String {
            let tenths = (meters + 50) / 100
            return tenths % 10 == 0 ? "\(tenths / 10) km" : "\(tenths / 10).\(tenths % 10) km"
        }

        /// "4:05" or "3:29:59": minutes and seconds, with hours when there are any.
        static func clock(_ seconds: Int) -> String {
            let hours = seconds / 3600
            let minutes = seconds / 60 % 60
            let rest = seconds % 60
            let mm = minutes < 10 && hours > 0 ? "0\(minutes)" : "\(minutes)"
            let ss = rest < 10 ? "0\(rest)" : "\(rest)"
            return hours > 0 ? "\(hours):\(mm):\(ss)" : "\(mm):\(ss)"
        }
    }
}
