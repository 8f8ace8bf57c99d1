package import EventLog
package import Foundation
package import Logbook

/// A command's body: the payload (`data`) of the event it asks for, checked strictly against
/// that event type's current schema, with the ids the path names filled in. Everything here is a
/// function of the request's bytes (no HTTP types), so the fuzz targets run exactly what the
/// routes run.
package enum EventBody {
    /// The JSON Schema of a command body carrying `type`'s data, relative to `Schemas/`.
    package static func schemaPath(_ type: EventType) -> String {
        type.hasRequestBodySchema ? "requests/\(type.rawValue).schema.json"
            : "events/\(type.rawValue).v\(type.currentSchemaVersion).schema.json"
    }

    /// Parses a body that must be one JSON object.
    package static func object(_ data: Data) throws(InputError) -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw InputError("the body is not valid JSON", field: "body")
        }
        guard let object = parsed as? [String: Any] else { throw InputError("the body must be a JSON object", field: "body") }
        return object
    }

    /// Decodes a body as a `type` payload after putting `path` values in. Without path values the
    /// bytes go to the codec as they came (one parse; step batches are large).
    package static func decode(_ type: EventType, _ data: Data, path: [String: String] = [:]) throws -> DomainEvent {
        if path.isEmpty { return try JSONEventCodec.decode(type, schemaVersion: type.currentSchemaVersion, data: data) }
        return try decode(type, try object(data), path: path)
    }

    /// Decodes `object` as a `type` payload after putting `path` values in; a body that names a
    /// path field with a different value is refused rather than silently overridden.
    package static func decode(_ type: EventType, _ object: [String: Any], path: [String: String]) throws -> DomainEvent {
        var object = object
        for (field, value) in path {
            if let given = object[field] {
                guard (given as? String) == value else {
                    throw InputError("\(field) in the body (\(given)) differs from the path (\(value))", field: field)
                }
            }
            object[field] = value
        }
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: object)
        } catch {
            throw InputError("the body is not a JSON object", field: "body")
        }
        return try JSONEventCodec.decode(type, schemaVersion: type.currentSchemaVersion, data: data)
    }

    /// Starting or importing a workout: a body naming no `workoutId` gets `newId` (the route's
    /// event id from an `Idempotency-Key`, or a fresh UUID); one that names it is decoded as it came.
    package static func newWorkout(_ type: EventType, _ data: Data, newId: @autoclosure () -> String) throws -> DomainEvent {
        try withNewId(type, data, field: "workoutId", newId: newId())
    }

    /// A body whose id field (`workoutId`, `plannedId`) may be left out: it then gets `newId`.
    package static func withNewId(_ type: EventType, _ data: Data, field: String, newId: @autoclosure () -> String) throws -> DomainEvent {
        var object = try object(data)
        guard object[field] == nil else { return try decode(type, data) }
        object[field] = newId()
        return try decode(type, object, path: [:])
    }

    /// A piece of a workout's track (`POST …/workouts/{workoutId}/track`,
    /// `Schemas/requests/workout.track.schema.json`): `{"samples": {…columns…}}`, the columns of
    /// `workout.track_recorded`, judged by that payload's own decoder and checks; the route numbers
    /// the parts, so no other field is taken.
    package static func trackPiece(_ data: Data, workoutId: String) throws -> TrackSamples {
        let body = try object(data)
        if let unknown = body.keys.filter({ $0 != "samples" }).sorted().first {
            throw InputError("unknown field \"\(unknown)\" (the body is {\"samples\": …}; the parts are numbered by the route)", field: unknown)
        }
        guard let samples = body["samples"] else { throw InputError("samples is required", field: "samples") }
        let filled: [String: Any] = ["part": 0, "parts": 1, "samples": samples]
        guard case .workoutTrackRecorded(let e) = try decode(.workoutTrackRecorded, filled, path: ["workoutId": workoutId]) else {
            throw InputError("not a track", field: "samples")
        }
        return e.samples
    }

    /// A change of a planned workout (`PATCH`, `Schemas/requests/training.planned-change.schema.json`):
    /// any of the planned workout's fields; `null` clears `distanceMeters`, `durationSeconds` or
    /// `notes`. The values are judged by the `plan.workout_changed` payload's own decoder (types,
    /// formats, ranges, unknown fields), over placeholders for the fields the body leaves out or
    /// clears; only the fields it names change.
    package static func plannedChanges(_ data: Data, plannedId: String) throws -> PlannedWorkoutChanges {
        let body = try object(data)
        guard !body.isEmpty else { throw InputError("names no field to change", field: "body") }
        let clearable: Set<String> = ["distanceMeters", "durationSeconds", "notes"]
        var filled: [String: Any] = ["date": "2000-01-01", "activityType": "run", "kind": "easy"]
        for (field, value) in body where !(clearable.contains(field) && value is NSNull) { filled[field] = value }
        guard case .planWorkoutChanged(let e) = try decode(.planWorkoutChanged, filled, path: ["plannedId": plannedId]) else {
            throw InputError("not a planned workout", field: "body")
        }
        func change<Value: Sendable & Hashable>(_ field: String, _ decoded: Value?) -> OptionalChange<Value> {
            switch body[field] {
            case nil: .unchanged
            case is NSNull: .clear
            default: decoded.map { .set($0) } ?? .clear
            }
        }
        return PlannedWorkoutChanges(
            date: body["date"] == nil ? nil : e.date, activityType: body["activityType"] == nil ? nil : e.activityType,
            kind: body["kind"] == nil ? nil : e.kind, distanceMeters: change("distanceMeters", e.distanceMeters),
            durationSeconds: change("durationSeconds", e.durationSeconds), notes: change("notes", e.notes))
    }

    /// The body of a generated plan (`Schemas/requests/training.plan.schema.json`): `targetId`,
    /// `startDate` (optional), `daysPerWeek` (3–6), `longRunDay` (optional ISO weekday 1–7); any
    /// other field, a wrong type or a value out of range is refused, naming the field.
    package static func planRequest(_ data: Data) throws(InputError) -> TrainingPlanRequest {
        let body = try object(data)
        if let unknown = body.keys.filter({ !["targetId", "startDate", "daysPerWeek", "longRunDay"].contains($0) }).sorted().first {
            throw InputError("unknown field \"\(unknown)\"", field: unknown)
        }
        guard let targetId = body["targetId"] as? String else { throw InputError("targetId must be an id (a text)", field: "targetId") }
        if let violation = IdRule.violation(targetId) { throw InputError("targetId \(violation)", field: "targetId") }
        var startDate: CivilDate?
        if let value = body["startDate"] {
            guard let text = value as? String, let date = CivilDate(parsing: text) else {
                throw InputError("startDate must be a local date, yyyy-mm-dd", field: "startDate")
            }
            startDate = date
        }
        guard let days = body["daysPerWeek"] else { throw InputError("daysPerWeek is required", field: "daysPerWeek") }
        let daysPerWeek = try smallInteger(days, "daysPerWeek", 3...6)
        let longRunDay = try body["longRunDay"].map { (value) throws(InputError) in try smallInteger(value, "longRunDay", 1...7) }
        return TrainingPlanRequest(targetId: targetId, startDate: startDate, daysPerWeek: daysPerWeek, longRunDay: longRunDay)
    }

    /// A JSON integer (not a boolean, not a fraction) within `range`.
    private static func smallInteger(_ value: Any, _ field: String, _ range: ClosedRange<Int>) throws(InputError) -> Int {
        guard let integer = integer(value).flatMap({ Int(exactly: $0) }), range.contains(integer)
        else { throw InputError("\(field) must be an integer from \(range.lowerBound) to \(range.upperBound)", field: field) }
        return integer
    }

    /// A JSON number that is a whole number from JSONSerialization, nil for anything else. Not
    /// `value is Bool`: Foundation bridges the numbers 0 and 1 to Bool, so that test refuses them;
    /// a JSON `true` or `false` is the one of Foundation's boolean class.
    package static func integer(_ value: Any) -> Int64? {
        guard let number = value as? NSNumber, type(of: number) != type(of: NSNumber(value: true)),
              let integer = Int64(exactly: number.doubleValue)
        else { return nil }
        return integer
    }

    /// A body that may only hold the listed optional fields (e.g. `{"at": …}` for a pause).
    package static func optionalTimestamp(_ object: [String: Any], field: String) throws(InputError) -> Timestamp? {
        if let unknown = object.keys.filter({ $0 != field }).sorted().first {
            throw InputError("unknown field \"\(unknown)\"", field: unknown)
        }
        guard let value = object[field] else { return nil }
        guard let text = value as? String else { throw InputError("\(field) must be an RFC 3339 time", field: field) }
        do {
            return try Timestamp(parsing: text)
        } catch {
            throw InputError("\(field): \(error)", field: field)
        }
    }
}
