/// Week volumes and session sizes: steps 1, 2, 3 and 5 of ``PlanGenerator``.
extension PlanGenerator {
    /// The sizes of one week's sessions (0: left out).
    struct Sizes: Equatable {
        var long = 0
        var quality = 0
        var easy = 0
        var recovery = 0
        /// Whether the quality slot holds a quality session (else an easy run).
        var withQuality = true

        /// The size of a slot.
        func meters(_ slot: Slot) -> Int {
            switch slot {
            case .long: long
            case .quality: withQuality ? quality : easy
            case .easy: easy
            case .recovery: recovery
            }
        }
    }

    /// One planned calendar week before it is laid out on days.
    struct WeekPlan {
        var firstDay: Int
        var phase: PlanWeek.Phase
        var target: Int
        var sizes: Sizes
    }

    /// The sessions of a week of `target` meters with a long-run allowance of `allowance` meters.
    static func sizes(target: Int, allowance: Int, withQuality: Bool, rules: Rules) -> Sizes {
        var sizes = Sizes(withQuality: withQuality)
        sizes.long = min(target * rules.longPercent / 100, rules.longCap, allowance).roundedDownToHundred
        if withQuality {
            sizes.quality = min(target * rules.qualityPercent / 100, rules.qualityCap, sizes.long * 9 / 10).roundedDownToHundred
        }
        var easySlots = 0
        var recoverySlots = 0
        for (_, slot) in rules.template {
            switch slot {
            case .easy: easySlots += 1
            case .quality where !withQuality: easySlots += 1
            case .recovery: recoverySlots += 1
            case .long, .quality: break
            }
        }
        // Easy runs weigh 3, a recovery run 2, in what the long run and the quality session leave.
        let remaining = max(target - sizes.long - sizes.quality, 0)
        let weights = 3 * easySlots + 2 * recoverySlots
        let easyCap = sizes.long * 9 / 10
        sizes.easy = min(remaining * 3 / weights, easyCap).roundedDownToHundred
        sizes.recovery = min(remaining * 2 / weights, easyCap).roundedDownToHundred
        for keyPath in [\Sizes.long, \Sizes.quality, \Sizes.easy, \Sizes.recovery] where sizes[keyPath: keyPath] < minimumSessionMeters {
            sizes[keyPath: keyPath] = 0
        }
        return sizes
    }

    /// The whole week's planned meters (every slot, as if no day were left out).
    static func total(_ sizes: Sizes, rules: Rules) -> Int {
        rules.template.reduce(0) { $0 + sizes.meters($1.slot) }
    }

    /// Every calendar week from the start's week through the race week, with its phase, target and sizes.
    static func weekPlans<Activity>(_ request: PlanRequest<Activity>, rules: Rules) -> [WeekPlan] {
        let startWeek = DayNumbers.firstDayOfWeek(containing: request.startDate, weekStart: request.weekStart)
        let raceWeek = DayNumbers.firstDayOfWeek(containing: request.target.raceDate, weekStart: request.weekStart)
        let weekCount = (raceWeek - startWeek) / 7 + 1
        let taperCount = min(rules.taperPercents.count, weekCount)
        let buildCount = weekCount - taperCount

        // Step 1: the start volume and the first long-run allowance, from the last four weeks.
        let history = request.recentWeeks.suffix(historyWeeks).map {
            (total: min(max($0.totalMeters, 0), maxHistoryMeters), longest: min(max($0.longestMeters, 0), maxHistoryMeters))
        }
        let average = history.reduce(0) { $0 + $1.total } / historyWeeks
        let longest = history.reduce(0) { max($0, $1.longest) }
        let startVolume = max(average, rules.floorVolume).roundedDownToHundred
        let peak = max(startVolume, rules.peakVolume)
        var allowance = max((longest * 11 / 10).roundedDownToHundred, rules.minimumLong)

        // Step 2: build weeks.
        var weeks: [WeekPlan] = []
        var target = startVolume
        var lastBuildTotal: Int?
        for index in 0..<buildCount {
            let firstDay = startWeek + 7 * index
            if index % 4 == 3, index != buildCount - 1, let before = lastBuildTotal {
                let easyTarget = (before * 3 / 4).roundedDownToHundred
                let sizes = sizes(target: easyTarget, allowance: allowance, withQuality: false, rules: rules)
                weeks.append(WeekPlan(firstDay: firstDay, phase: .easy, target: easyTarget, sizes: sizes))
                target = before
            } else {
                let sizes = sizes(target: target, allowance: allowance, withQuality: true, rules: rules)
                weeks.append(WeekPlan(firstDay: firstDay, phase: .build, target: target, sizes: sizes))
                let total = total(sizes, rules: rules)
                lastBuildTotal = total
                allowance = max((sizes.long * 11 / 10).roundedDownToHundred, rules.minimumLong)
                target = min(peak, (total * 11 / 10).roundedDownToHundred)
            }
        }

        // Step 3: taper, from the last build week (or, with no build week, from the start volume's week).
        let peakTotal = lastBuildTotal
            ?? total(sizes(target: startVolume, allowance: allowance, withQuality: true, rules: rules), rules: rules)
        for (offset, percent) in rules.taperPercents.suffix(taperCount).enumerated() {
            let index = buildCount + offset
            let taperTarget = (peakTotal * percent / 100).roundedDownToHundred
            let sizes = sizes(target: taperTarget, allowance: allowance, withQuality: true, rules: rules)
            weeks.append(WeekPlan(firstDay: startWeek + 7 * index, phase: index == weekCount - 1 ? .race : .taper,
                                  target: taperTarget, sizes: sizes))
        }
        return weeks
    }
}
