public import Foundation
import EventLog

/// The JSON wire form of event payloads (the `data` object of DESIGN §3): canonical on output
/// (sorted keys, no insignificant whitespace, so the same event always gives the same bytes),
/// strict on input (wrong types, missing fields and unknown fields are errors naming the field).
public enum JSONEventCodec {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The canonical `data` object of `event`, in the current schema version.
    public static func encode(_ event: DomainEvent) -> Data {
        do {
            return switch event {
            case .userRegistered(let e): try encoder.encode(e)
            case .userProfileUpdated(let e): try encoder.encode(e)
            case .workoutStarted(let e): try encoder.encode(e)
            case .workoutPaused(let e), .workoutResumed(let e): try encoder.encode(e)
            case .workoutFinished(let e): try encoder.encode(e)
            case .workoutDiscarded(let e), .workoutDeleted(let e): try encoder.encode(e)
            case .workoutImported(let e): try encoder.encode(e)
            case .workoutEdited(let e): try encoder.encode(e)
            case .workoutTrackRecorded(let e): try encoder.encode(e)
            case .stepsRecorded(let e): try encoder.encode(e)
            case .goalSet(let e): try encoder.encode(e)
            case .goalCleared(let e): try encoder.encode(e)
            case .goalDefaultSet(let e): try encoder.encode(e)
            case .placeAdded(let e): try encoder.encode(e)
            case .placeSwiped(let e): try encoder.encode(e)
            case .placeVisited(let e): try encoder.encode(e)
            case .placeNotesEdited(let e): try encoder.encode(e)
            case .placesReset, .userErased: Data("{}".utf8)
            }
        } catch {
            // Every payload type encodes infallibly (strings, integers, finite doubles).
            preconditionFailure("encoding \(event.type.rawValue) failed: \(error)")
        }
    }

    /// Decodes a `data` object of `type` written in `schemaVersion`, upcast to the current version.
    public static func decode(_ type: EventType, schemaVersion: UInt32, data: Data) throws(DomainCodingError) -> DomainEvent {
        guard type.schemaVersions.contains(schemaVersion) else {
            throw .unknownSchemaVersion(type: type.rawValue, version: schemaVersion)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .invalidJSON(type: type.rawValue, field: "data", reason: "not JSON")
        }
        try JSONShape.check(object, against: JSONShape.shape(of: type, schemaVersion: schemaVersion), at: "data", type: type)
        let decoder = JSONDecoder()
        do {
            switch type {
            case .userRegistered: return .userRegistered(try decoder.decode(UserRegistered.self, from: data))
            case .userProfileUpdated: return .userProfileUpdated(try decoder.decode(UserProfileUpdated.self, from: data))
            case .workoutStarted: return .workoutStarted(try decoder.decode(WorkoutStarted.self, from: data))
            case .workoutPaused: return .workoutPaused(try decoder.decode(WorkoutPauseChange.self, from: data))
            case .workoutResumed: return .workoutResumed(try decoder.decode(WorkoutPauseChange.self, from: data))
            case .workoutFinished: return .workoutFinished(try decoder.decode(WorkoutFinished.self, from: data))
            case .workoutDiscarded: return .workoutDiscarded(try decoder.decode(WorkoutReference.self, from: data))
            case .workoutImported: return .workoutImported(try decoder.decode(WorkoutImported.self, from: data))
            case .workoutEdited: return .workoutEdited(try decoder.decode(WorkoutEdited.self, from: data))
            case .workoutDeleted: return .workoutDeleted(try decoder.decode(WorkoutReference.self, from: data))
            case .workoutTrackRecorded:
                let track = try decoder.decode(WorkoutTrackRecorded.self, from: data)
                for (field, value, range) in [("points", track.samples.points, 1...TrackSamples.maxPointsPerEvent),
                                              ("part", track.part, 0...(max(track.parts, 1) - 1)), ("parts", track.parts, 1...Rules.maxTrackPoints)]
                    where !range.contains(value) {
                    throw DomainCodingError.invalidJSON(type: type.rawValue, field: field == "points" ? "data.samples.points" : "data.\(field)",
                                                        reason: "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
                }
                guard TrackSamples.Column.allCases.contains(where: { track.samples[$0] != nil }) else {
                    throw DomainCodingError.invalidJSON(type: type.rawValue, field: "data.samples", reason: "a track has at least one column of values")
                }
                if let column = TrackSamples.Column.allCases.first(where: { (track.samples[$0]?.count ?? track.samples.points) != track.samples.points }) {
                    throw DomainCodingError.invalidJSON(
                        type: type.rawValue, field: "data.samples.\(column.name)", reason: "must have \(track.samples.points) entries (samples.points)")
                }
                return .workoutTrackRecorded(track)
            case .stepsRecorded:
                if schemaVersion == 1 {
                    let v1 = try decoder.decode(StepsRecordedV1.self, from: data)
                    return .stepsRecorded(StepsRecorded(samples: v1.samples.map {
                        StepSample(start: $0.start, end: $0.end, count: $0.count, source: v1.source)
                    }))
                }
                return .stepsRecorded(try decoder.decode(StepsRecorded.self, from: data))
            case .goalSet: return .goalSet(try decoder.decode(GoalSet.self, from: data))
            case .goalCleared: return .goalCleared(try decoder.decode(GoalCleared.self, from: data))
            case .goalDefaultSet: return .goalDefaultSet(try decoder.decode(GoalDefaultSet.self, from: data))
            case .placeAdded: return .placeAdded(try decoder.decode(PlaceAdded.self, from: data))
            case .placeSwiped: return .placeSwiped(try decoder.decode(PlaceSwiped.self, from: data))
            case .placeVisited: return .placeVisited(try decoder.decode(PlaceVisited.self, from: data))
            case .placeNotesEdited: return .placeNotesEdited(try decoder.decode(PlaceNotesEdited.self, from: data))
            case .placesReset: return .placesReset
            case .userErased: return .userErased
            }
        } catch let error as DecodingError {
            throw JSONShape.describe(error, type: type)
        } catch let error as DomainCodingError {
            throw error
        } catch {
            throw .invalidJSON(type: type.rawValue, field: "data", reason: "\(error)")
        }
    }

    /// The version-1 JSON of `steps.recorded`: one source for the whole event.
    struct StepsRecordedV1: Codable {
        struct Sample: Codable {
            var start: Timestamp
            var end: Timestamp
            var count: Int
        }
        var source: String
        var samples: [Sample]
    }
}
