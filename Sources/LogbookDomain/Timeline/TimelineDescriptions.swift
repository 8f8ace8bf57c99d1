import EventLog

/// One-line, human descriptions of events, in English, the same on every machine: numbers are
/// grouped with commas and dates written "Tue 25 Nov" by hand, never by the process's locale.
/// The lines that need more than the event's own fields (the goal it replaced, the workout's
/// type, the place's name) are written here; the others come from the `timeline` template in the
/// type's declaration.
enum TimelineDescriptions {
    static func describe(_ event: DomainEvent, occurredAt: Timestamp, context: TimelineContext?) -> String {
        switch event {
        case .userRegistered(let e):
            return "Registered as \(e.displayName) (\(e.timeZone), weeks start \(weekday(e.weekStart)), \(e.units.rawValue))"
        case .userProfileUpdated(let e):
            var changes: [String] = []
            if let name = e.displayName { changes.append("name \(name)") }
            if let zone = e.timeZone { changes.append("time zone \(zone)") }
            if let start = e.weekStart { changes.append("weeks start \(weekday(start))") }
            if let units = e.units { changes.append("units \(units.rawValue)") }
            switch e.preferredStepSource {
            case .unchanged: break
            case .clear: changes.append("steps from the largest source")
            case .set(let source): changes.append("steps from \(source) only")
            }
            let rates = heartRateChanges(e, before: context?.previousHeartRates)
            if changes.isEmpty, !rates.isEmpty { return capitalized(rates.joined(separator: "; ")) }
            return "Profile updated: " + (changes.isEmpty ? "nothing changed" : (changes + rates).joined(separator: ", "))
        case .workoutStarted(let e):
            return "Started \(article(e.activityType)) \(e.activityType.rawValue) (\(e.source.kind.rawValue))"
        case .workoutPaused:
            return "Paused the \(type(context))"
        case .workoutResumed:
            return "Resumed the \(type(context))"
        case .workoutFinished(let e):
            return "Finished the \(type(context)): \(distance(e.distanceMeters)) in \(duration(e.movingSeconds))"
        case .workoutDiscarded:
            return "Discarded the \(type(context))\(startedOn(context))"
        case .workoutImported(let e):
            return "Imported \(article(e.activityType)) \(e.activityType.rawValue) from \(e.source.kind.rawValue): "
                + "\(distance(e.distanceMeters)) in \(duration(e.movingSeconds)) on \(day(e.startedAt.localDate))"
        case .workoutEdited(let e):
            var changes: [String] = []
            if let title = e.title { changes.append("title \"\(title)\"") }
            if e.notes != nil { changes.append("notes") }
            if let newType = e.activityType { changes.append("type \(newType.rawValue)") }
            return "Edited the \(type(context))\(startedOn(context)): " + (changes.isEmpty ? "nothing changed" : changes.joined(separator: ", "))
        case .workoutTrackRecorded(let e):
            let part = e.parts > 1 ? ", part \(e.part + 1) of \(e.parts)" : ""
            return "Recorded the track of the \(type(context))\(startedOn(context)): \(grouped(e.samples.points)) points\(part)"
        case .workoutDeleted:
            return "Deleted the \(type(context))\(startedOn(context))"
        case .workoutKeptSeparate(let e):
            return "Kept the \(type(context))\(startedOn(context)) apart from workout \(e.otherWorkoutId): not the same activity"
        case .statsWeekClosed(let e):
            let workouts = e.workouts == 1 ? "1 workout" : "\(grouped(e.workouts)) workouts"
            return "Week of \(day(e.weekStart)) closed: \(workouts), \(distance(e.distanceMeters)), \(duration(e.movingSeconds)) moving, \(grouped(e.steps)) steps"
        case .trainingWeekClosed(let e):
            let sessions = e.plannedSessions == 1 ? "1 planned session" : "\(grouped(e.plannedSessions)) planned sessions"
            var text = "Training week of \(day(e.weekStart)) closed: \(e.completed) of \(sessions) done"
            if e.partial > 0 { text += ", \(e.partial) in part" }
            if e.missed > 0 { text += ", \(e.missed) missed" }
            if e.extraSessions > 0 { text += ", \(e.extraSessions) unplanned" }
            return text + ", \(distance(e.doneDistanceMeters)) done against \(distance(e.plannedDistanceMeters)) planned"
        case .stepsRecorded(let e):
            let total = e.samples.reduce(0) { $0 + $1.count }
            var sources: [String] = []
            for sample in e.samples where !sources.contains(sample.source) { sources.append(sample.source) }
            let noun = e.samples.count == 1 ? "sample" : "samples"
            return "Recorded \(grouped(total)) steps from \(sources.joined(separator: " and ")) (\(e.samples.count) \(noun))"
        case .goalSet(let e):
            var text = "Step goal for \(day(e.date)) set to \(grouped(e.steps))"
            if let minutes = e.activeMinutes { text += " and \(minutes) active minutes" }
            if let previous = context?.previousGoal { text += ", was \(grouped(previous.steps))" }
            return text
        case .goalCleared(let e):
            var text = "Step goal for \(day(e.date)) cleared"
            if let previous = context?.previousGoal { text += ", was \(grouped(previous.steps))" }
            return text
        case .goalDefaultSet(let e):
            var text = "Default step goal set to \(grouped(e.steps)) from \(day(occurredAt.localDate))"
            if let previous = context?.previousGoal { text += ", was \(grouped(previous.steps))" }
            return text
        case .placeAdded(let e):
            return "Added \(e.name) (\(e.subcategory)) to the places"
        case .placeSwiped(let e):
            return (e.direction == .right ? "Saved " : "Hid ") + place(context, e.placeId)
        case .placeVisited(let e):
            return "Visited \(place(context, e.placeId)) on \(day(e.visitedAt.localDate))"
        case .placeNotesEdited(let e):
            return "Edited notes on \(place(context, e.placeId))"
        case .placeUpdated(let e):
            var changes: [String] = []
            if let name = e.name { changes.append("name \(name)") }
            if let category = e.category { changes.append("category \(category.rawValue)") }
            if let subcategory = e.subcategory { changes.append("subcategory \(subcategory)") }
            if e.latitude != nil || e.longitude != nil { changes.append("location") }
            for (field, changed) in [("address", e.address != .unchanged), ("phone", e.phone != .unchanged),
                                     ("price level", e.priceLevel != .unchanged), ("notes", e.notes != .unchanged)] where changed {
                changes.append(field)
            }
            return "Edited \(place(context, e.placeId)) in the places: " + changes.joined(separator: ", ")
        case .targetSet(let e):
            var text = "Target set: \(e.name), \(raceDistance(e.distanceMeters)) on \(day(e.raceDate)) \(e.raceDate.year)"
            if let goal = e.goalSeconds { text += ", goal \(clock(goal))" }
            if let previous = context?.subject, previous != e.name { text += " (was \(previous))" }
            return text
        case .targetCleared(let e):
            return "Target cleared: \(context?.subject ?? e.targetId)"
        case .planWorkoutPlanned(let e):
            return "Planned \(planned(e))"
        case .planWorkoutChanged(let e):
            return "Plan changed: \(planned(e))" + (context?.subject.map { ", was \($0)" } ?? "")
        case .planWorkoutRemoved(let e):
            return "Removed from the plan: \(context?.subject ?? e.plannedId)"
        default:
            // A type whose line needs no context declares it (`timeline` in its declaration).
            return event.declaredTimelineLine ?? event.type.rawValue
        }
    }

    /// "Tue 3 Mar: easy run 8 km" (or its duration when no distance is planned).
    static func planned(_ e: PlannedWorkout) -> String {
        var text = "\(day(e.date)): \(e.kind.rawValue) \(e.activityType.rawValue)"
        if let distance = e.distanceMeters {
            text += " \(raceDistance(distance))"
        } else if let duration = e.durationSeconds {
            text += " \(clock(duration))"
        }
        return text
    }

    /// "max heart rate set to 188, was 190", "resting heart rate cleared, was 52".
    private static func heartRateChanges(_ e: UserProfileUpdated, before: HeartRateSettings?) -> [String] {
        var changes: [String] = []
        for (name, change, previous) in [("max heart rate", e.maxHeartRate, before?.max), ("resting heart rate", e.restingHeartRate, before?.resting)] {
            let was = previous.map { ", was \($0)" } ?? ""
            switch change {
            case .unchanged: continue
            case .clear: changes.append("\(name) cleared\(was)")
            case .set(let rate): changes.append("\(name) set to \(rate)\(was)")
            }
        }
        return changes
    }

    private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// "42.2 km", "10 km", "800 m": a race's or a plan's distance, to a tenth of a kilometre.
    static func raceDistance(_ meters: Int) -> String {
        if meters < 1000 { return "\(meters) m" }
        let tenths = (meters + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) km" : "\(tenths / 10).\(tenths % 10) km"
    }

    /// "3:45:00", "45:00": a goal or planned duration, hours always shown from one hour.
    static func clock(_ seconds: Int) -> String { duration(seconds) }

    private static func weekday(_ start: WeekStart) -> String { start == .monday ? "Monday" : "Sunday" }

    private static func type(_ context: TimelineContext?) -> String { context?.activityType?.rawValue ?? "workout" }

    private static func startedOn(_ context: TimelineContext?) -> String {
        context?.startedOn.map { " of \(day($0))" } ?? ""
    }

    private static func place(_ context: TimelineContext?, _ id: String) -> String { context?.placeName ?? "place \(id)" }

    private static func article(_ type: ActivityType) -> String {
        switch type {
        case .ride, .run, .walk, .swim, .hike, .strength, .yoga: "a"
        case .other: "an"
        }
    }

    /// "12,000".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// "8.01 km".
    static func distance(_ meters: Int) -> String {
        let hundredths = (meters + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) km"
    }

    /// "45:10" or "1:02:10".
    static func duration(_ seconds: Int) -> String {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// "Tue 25 Nov".
    static func day(_ date: CivilDate) -> String {
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[date.isoWeekday - 1]) \(date.day) \(months[date.month - 1])"
    }
}
