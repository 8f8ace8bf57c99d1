// The JSON schemas of the training answers (the Training article): targets, the plan, the weekly summary, load.
package import Logbook

extension TrainingTarget: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A race the user trains towards", required: [
            "targetId": .string("The target's id, the user's own"),
            "name": .string("The race's name"),
            "activityType": .enumeration("The race's activity type", ActivityType.self),
            "distanceMeters": .integer("The race distance, in metres", minimum: 1),
            "raceDate": .date("The race's local date"),
        ], optional: [
            "goalSeconds": .integer("The goal time, in seconds", minimum: 1),
        ])
    }
}

extension ActiveTarget: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The target trained towards now: the nearest race on or after today", required: [
            "target": .reference(TrainingTarget.self),
            "daysToRace": .count("Days from today to the race"),
            "predictedSeconds": JSONSchema.integer(
                "Riegel's prediction: movingSeconds × (target distance / distance)^1.06 of the best workout of the target's type of at least "
                    + "3 km in the 42 days before today, rounded; null without one", minimum: 0).orNull,
            "predictedFrom": JSONSchema.string("The workout the prediction comes from; null without one").orNull,
        ])
    }
}

extension TrainingTargets: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A user's training targets", required: [
            "user": .string("The user"),
            "today": .date("The day the active target is chosen as of"),
            "targets": .array("Every target, by race date then id", of: .reference(TrainingTarget.self)),
        ], optional: [
            "active": .reference(ActiveTarget.self, "The nearest race on or after today (absent without one)"),
        ])
    }
}

extension PlannedWorkoutStatus: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A planned workout and what became of it", required: [
            "plannedId": .string("The planned workout's id"),
            "date": .date("The local date it is planned for"),
            "activityType": .enumeration("The planned activity type", ActivityType.self),
            "kind": .enumeration("What the workout is for", PlannedKind.self),
            "status": .enumeration(
                "completed (≥ 90% of the planned distance, else duration), partial, missed (before today and not done) or upcoming",
                PlannedStatus.self),
        ], optional: [
            "distanceMeters": .integer("Planned distance, in metres (decides completion when given)", minimum: 1),
            "durationSeconds": .integer("Planned duration, in seconds", minimum: 1),
            "notes": .string("Notes on the planned workout"),
            "workoutId": .string("The counted workout matched to it (completed and partial)"),
        ])
    }
}

extension ExtraWorkout: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A counted workout no planned workout took", required: [
            "workoutId": .string("The workout"),
            "date": .date("The local date it started"),
            "activityType": .enumeration("Its activity type", ActivityType.self),
            "distanceMeters": .count("Its distance, in metres"),
            "movingSeconds": .count("Its moving time, in seconds"),
        ])
    }
}

extension TrainingPlan: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The plan over a range of days", required: [
            "user": .string("The user"),
            "from": .date("First day"),
            "to": .date("Last day"),
            "today": .date("The day statuses are judged as of"),
            "planned": .array("Planned workouts by date, then the order they were planned in", of: .reference(PlannedWorkoutStatus.self)),
            "extra": .array("Counted workouts no planned workout took, by date then start", of: .reference(ExtraWorkout.self)),
        ])
    }
}

extension ZoneTime: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One heart-rate zone by the user's current settings, and the time spent in it", required: [
            "zone": .integer("The zone, 0 (below zone 1) to 5", minimum: 0, maximum: 5),
            "fromBeatsPerMinute": .count("The smallest whole heart rate in the zone"),
            "toBeatsPerMinute": JSONSchema.count("The largest whole heart rate in the zone; null for zone 5").orNull,
            "seconds": .count("Seconds in the zone"),
        ])
    }
}

extension TrainingIntensity: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Time at intensity; the zones, their sums and the load are null without a maximum heart rate", required: [
            "zones": JSONSchema.array("Zones 0–5", of: .reference(ZoneTime.self), maxItems: 6).orNull,
            "withoutHeartRateSeconds": .count("Moving seconds of workouts with neither track heart rates nor an average"),
            "easySeconds": JSONSchema.count("Zones 1 and 2").orNull,
            "moderateSeconds": JSONSchema.count("Zone 3").orNull,
            "hardSeconds": JSONSchema.count("Zones 4 and 5").orNull,
            "load": JSONSchema.count("Edwards TRIMP: each workout's floor(Σ seconds in zone k × k / 60), summed").orNull,
            "estimated": .boolean("Some of the time comes from a workout's average heart rate rather than its track"),
        ])
    }
}

extension TrainingLoadDay: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Training load as of one day; null without a maximum heart rate", required: [
            "date": .date("The day"),
            "load": JSONSchema.count("The day's load: its counted workouts' loads, each floored").orNull,
            "acute": JSONSchema.count("Load of the 7 days ending on the day").orNull,
            "chronic28": JSONSchema.count("Load of the 28 days ending on the day").orNull,
            "acwr": JSONSchema.number("acute × 4 / chronic28, rounded half away from zero to 2 decimals; null when chronic28 is 0").orNull,
        ])
    }
}

extension TrainingLoad: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("Daily training load over a range of days", required: [
            "user": .string("The user"),
            "from": .date("First day"),
            "to": .date("Last day"),
            "days": .array("One entry per day, in order", of: .reference(TrainingLoadDay.self)),
        ])
    }
}

extension TrainingWeek: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("The weekly training summary (the Training article) of the user's week", required: [
            "user": .string("The user"),
            "from": .date("The week's first day (the user's week start)"),
            "to": .date("The week's last day"),
            "today": .date("The day statuses, the active target and the prediction are judged as of"),
            "planned": .array("The week's planned workouts with their statuses", of: .reference(PlannedWorkoutStatus.self)),
            "extra": .array("The week's counted workouts no planned workout took", of: .reference(ExtraWorkout.self)),
            "plannedSessions": .count("Planned workouts"),
            "plannedDistanceMeters": .count("Planned distance, in metres"),
            "plannedDurationSeconds": .count("Planned duration, in seconds"),
            "doneSessions": .count("Counted workouts of the week"),
            "doneDistanceMeters": .count("Their distance, in metres"),
            "doneMovingSeconds": .count("Their moving time, in seconds"),
            "completed": .count("Planned workouts completed"),
            "partial": .count("Planned workouts done in part"),
            "missed": .count("Planned workouts missed"),
            "upcoming": .count("Planned workouts still ahead"),
            "compliancePercent": JSONSchema.integer("floor(100 × completed / planned); null with nothing planned", minimum: 0, maximum: 100).orNull,
            "intensity": .reference(TrainingIntensity.self, "Time in zones and load of the week's counted workouts"),
            "load": .reference(TrainingLoadDay.self, "Load, acute, chronic28 and ACWR as of the week's last day"),
        ], optional: [
            "target": .reference(ActiveTarget.self, "The active target (absent without one)"),
        ])
    }
}
