/// Maps each format's sport vocabulary onto `ParsedWorkout.activityType`:
/// run, walk, ride, swim, hike, strength, yoga, other.
///
/// | Format | run | walk | ride | swim | hike | strength | yoga |
/// |---|---|---|---|---|---|---|---|
/// | FIT sport (sub_sport) | 1 running | 11 walking | 2 cycling, 21 e_biking | 5 swimming | 17 hiking, 16 mountaineering | sub_sport 20 strength_training (any sport) | sub_sport 43 yoga (any sport) |
/// | TCX `Sport` | Running | – | Biking | – | – | – | – |
/// | GPX `<type>` / Strava `Activity Type` (case-insensitive words) | run, running, trail run, virtual run, treadmill | walk, walking | ride, cycling, biking, bike, virtual ride, e-bike ride, mountain bike ride, gravel ride, handcycle, velomobile | swim, swimming | hike, hiking | weight training, strength training, crossfit, workout with "strength" | yoga |
/// | Apple `HKWorkoutActivityType…` | Running | Walking | Cycling, HandCycling | Swimming | Hiking | TraditionalStrengthTraining, FunctionalStrengthTraining | Yoga |
///
/// Everything else — FIT transition sessions aside, which are dropped — is "other".
/// GPX/Strava words are matched after lower-casing and turning `_`/`-` into spaces; numeric
/// GPX types and unknown words are "other".
public enum ActivityTypeMapping {
    /// The eight activity types, in no particular order.
    public static let all: Set<String> = ["run", "walk", "ride", "swim", "hike", "strength", "yoga", "other"]

    /// FIT sport + sub_sport → activity type.
    public static func fit(sport: Int64?, subSport: Int64?) -> String {
        if subSport == 20 { return "strength" }
        if subSport == 43 { return "yoga" }
        switch sport {
        case 1: return "run"
        case 11: return "walk"
        case 2, 21: return "ride"
        case 5: return "swim"
        case 16, 17: return "hike"
        default: return "other"
        }
    }

    /// TCX `Activity Sport` attribute → activity type.
    public static func tcx(sport: String?) -> String {
        switch sport?.lowercased() {
        case "running": return "run"
        case "biking": return "ride"
        default: return "other"
        }
    }

    /// Free-text sport words (GPX `<type>`, Strava `Activity Type`) → activity type.
    public static func freeText(_ text: String?) -> String {
        guard let text else { return "other" }
        let words = text.lowercased()
            .replacingCharacters(["_", "-"], with: " ")
            .split(separator: " ").joined(separator: " ")
        switch words {
        case "run", "running", "trail run", "trail running", "virtual run", "treadmill", "treadmill running",
             "street running", "track running", "indoor running":
            return "run"
        case "walk", "walking", "casual walking", "speed walking", "indoor walking":
            return "walk"
        case "ride", "cycling", "biking", "bike", "virtual ride", "e bike ride", "ebike ride", "ebikeride",
             "mountain bike ride", "mountain biking", "gravel ride", "gravel cycling", "road biking", "road cycling",
             "handcycle", "velomobile", "indoor cycling", "virtualride", "mountainbikeride", "gravelride":
            return "ride"
        case "swim", "swimming", "open water swimming", "lap swimming", "pool swim":
            return "swim"
        case "hike", "hiking", "mountaineering":
            return "hike"
        case "weight training", "weighttraining", "strength training", "strength", "crossfit", "weights":
            return "strength"
        case "yoga":
            return "yoga"
        default:
            return "other"
        }
    }

    /// Apple `HKWorkoutActivityType…` → activity type.
    public static func healthKit(_ type: String?) -> String {
        guard let type else { return "other" }
        let name = type.hasPrefix("HKWorkoutActivityType") ? String(type.dropFirst("HKWorkoutActivityType".count)) : type
        switch name {
        case "Running": return "run"
        case "Walking": return "walk"
        case "Cycling", "HandCycling": return "ride"
        case "Swimming": return "swim"
        case "Hiking": return "hike"
        case "TraditionalStrengthTraining", "FunctionalStrengthTraining": return "strength"
        case "Yoga": return "yoga"
        default: return "other"
        }
    }
}

extension String {
    /// Replaces each of `characters` with `replacement`.
    func replacingCharacters(_ characters: Set<Character>, with replacement: Character) -> String {
        String(map { characters.contains($0) ? replacement : $0 })
    }
}
