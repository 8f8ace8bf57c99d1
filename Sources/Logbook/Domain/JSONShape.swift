import Foundation

/// The fields each payload may carry, checked before decoding so that unknown fields are
/// refused (as the JSON Schemas in `Schemas/events` refuse them) and errors name the field.
enum JSONShape {
    indirect enum Shape {
        /// An object with these fields (required or not).
        case object([String: (required: Bool, shape: Shape)])
        case array(Shape)
        /// Anything else but null: the decoder checks its type.
        case value
        /// A value or null (null means something, e.g. "clear the preferred step source").
        case valueOrNull
    }

    static func shape(of type: EventType, schemaVersion: UInt32) -> Shape {
        func object(_ required: [String], _ optional: [String] = [], nested: [String: Shape] = [:]) -> Shape {
            var fields: [String: (Bool, Shape)] = [:]
            for name in required { fields[name] = (true, nested[name] ?? .value) }
            for name in optional { fields[name] = (false, nested[name] ?? .value) }
            return .object(fields)
        }
        let source = object(["kind"], ["sourceId"])
        let laps = schemaVersion == 1
            ? Shape.array(object(["distanceMeters", "movingSeconds"]))
            : Shape.array(object(["distanceMeters", "movingSeconds"],
                                 ["startedAt", "elapsedSeconds", "activeKcal", "avgHeartRate", "maxHeartRate"]))
        let importedOptional = ["steps", "activeKcal", "avgHeartRate", "laps", "title"]
            + (schemaVersion == 1 ? [] : ["elapsedSeconds", "maxHeartRate"])
        switch type {
        case .userRegistered: return object(["displayName", "timeZone", "weekStart", "units"])
        case .userProfileUpdated:
            return object([], ["displayName", "timeZone", "weekStart", "units", "preferredStepSource"], nested: ["preferredStepSource": .valueOrNull])
        case .workoutStarted: return object(["workoutId", "activityType", "startedAt", "source"], nested: ["source": source])
        case .workoutPaused, .workoutResumed: return object(["workoutId", "at"])
        case .workoutFinished:
            return object(["workoutId", "endedAt", "distanceMeters", "movingSeconds"],
                          ["steps", "activeKcal", "avgHeartRate", "laps"], nested: ["laps": laps])
        case .workoutDiscarded, .workoutDeleted: return object(["workoutId"])
        case .workoutImported:
            return object(["workoutId", "activityType", "startedAt", "endedAt", "distanceMeters", "movingSeconds", "source"],
                          importedOptional, nested: ["laps": laps, "source": source])
        case .workoutTrackRecorded:
            let samples = object(["points"], TrackSamples.Column.allCases.map(\.name))
            return object(["workoutId", "part", "parts", "samples"], nested: ["samples": samples])
        case .workoutEdited: return object(["workoutId"], ["title", "notes", "activityType"])
        case .stepsRecorded:
            if schemaVersion == 1 {
                return object(["source", "samples"], nested: ["samples": .array(object(["start", "end", "count"]))])
            }
            return object(["samples"], nested: ["samples": .array(object(["start", "end", "count", "source"]))])
        case .goalSet: return object(["date", "steps"], ["activeMinutes"])
        case .goalCleared: return object(["date"])
        case .goalDefaultSet: return object(["steps"], ["activeMinutes"])
        case .placeAdded:
            return object(["placeId", "name", "category", "subcategory", "latitude", "longitude"],
                          ["address", "phone", "priceLevel", "notes"])
        case .placeSwiped: return object(["placeId", "direction"])
        case .placeVisited: return object(["placeId", "visitedAt"])
        case .placeNotesEdited: return object(["placeId", "notes"])
        case .placesReset, .userErased: return object([])
        }
    }

    static func check(_ value: Any, against shape: Shape, at path: String, type: EventType) throws(DomainCodingError) {
        switch shape {
        case .value:
            // An optional field is left out, never null (the schemas give each field one type).
            if value is NSNull { throw .invalidJSON(type: type.rawValue, field: path, reason: "must not be null") }
        case .valueOrNull:
            return
        case .array(let element):
            guard let array = value as? [Any] else { throw .invalidJSON(type: type.rawValue, field: path, reason: "expected an array") }
            for (index, item) in array.enumerated() { try check(item, against: element, at: "\(path)[\(index)]", type: type) }
        case .object(let fields):
            guard let object = value as? [String: Any] else {
                throw .invalidJSON(type: type.rawValue, field: path, reason: "expected an object")
            }
            for key in object.keys.sorted() where fields[key] == nil {
                throw .invalidJSON(type: type.rawValue, field: "\(path).\(key)", reason: "unknown field")
            }
            for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
                guard let member = object[name] else {
                    if field.required { throw .invalidJSON(type: type.rawValue, field: "\(path).\(name)", reason: "required field is missing") }
                    continue
                }
                try check(member, against: field.shape, at: "\(path).\(name)", type: type)
            }
        }
    }

    /// A decoder's error as one naming the field, e.g. `data.samples[2].count`.
    static func describe(_ error: DecodingError, type: EventType) -> DomainCodingError {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("data") { partial, key in
                if let index = key.intValue { return "\(partial)[\(index)]" }
                return "\(partial).\(key.stringValue)"
            }
        }
        switch error {
        case .typeMismatch(let expected, let context):
            return .invalidJSON(type: type.rawValue, field: path(context.codingPath), reason: "expected \(expected)")
        case .valueNotFound(_, let context):
            return .invalidJSON(type: type.rawValue, field: path(context.codingPath), reason: "must not be null")
        case .keyNotFound(let key, let context):
            return .invalidJSON(type: type.rawValue, field: path(context.codingPath + [key]), reason: "required field is missing")
        case .dataCorrupted(let context):
            return .invalidJSON(type: type.rawValue, field: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .invalidJSON(type: type.rawValue, field: "data", reason: "\(error)")
        }
    }
}
