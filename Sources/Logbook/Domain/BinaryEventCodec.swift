import BinaryCoding
import EventLog

/// The compact binary storage encoding of every event type and schema version.
///
/// Fields are written in declaration order: integers as zigzag varints, strings and arrays
/// length-prefixed, timestamps as (micros, offset), dates as days since 1970, enums as their
/// index, optionals behind a presence byte. The envelope's `schemaVersion` says which layout a
/// payload has; older layouts are upcast to the current value when read (see ``Upcasting``).
/// Version 2 of `workout.finished` and `workout.imported` writes each lap's optional start, elapsed
/// time, energy and heart rates after its distance and moving time, and `workout.imported` ends
/// with the optional elapsed time and maximum heart rate.
public enum BinaryEventCodec {
    /// The payload bytes of `event`, in the current schema version of its type.
    public static func encode(_ event: DomainEvent) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        switch event {
        case .userRegistered(let e):
            w.string(e.displayName); w.string(e.timeZone); w.enumeration(e.weekStart); w.enumeration(e.units)
        case .userProfileUpdated(let e):
            w.optionalString(e.displayName); w.optionalString(e.timeZone)
            w.byte(e.weekStart.map { $0 == .monday ? 1 : 2 } ?? 0)
            w.byte(e.units.map { $0 == .metric ? 1 : 2 } ?? 0)
            switch e.preferredStepSource {
            case .unchanged: w.byte(0)
            case .clear: w.byte(1)
            case .set(let source): w.byte(2); w.string(source)
            }
        case .workoutStarted(let e):
            w.string(e.workoutId); w.enumeration(e.activityType); w.timestamp(e.startedAt); writeSource(e.source, &w)
        case .workoutPaused(let e), .workoutResumed(let e):
            w.string(e.workoutId); w.timestamp(e.at)
        case .workoutFinished(let e):
            w.string(e.workoutId); w.timestamp(e.endedAt); w.int(e.distanceMeters); w.int(e.movingSeconds)
            w.optionalInt(e.steps); w.optionalInt(e.activeKcal); w.optionalInt(e.avgHeartRate); writeLaps(e.laps, &w)
        case .workoutDiscarded(let e), .workoutDeleted(let e):
            w.string(e.workoutId)
        case .workoutImported(let e):
            w.string(e.workoutId); w.enumeration(e.activityType); w.timestamp(e.startedAt); w.timestamp(e.endedAt)
            w.int(e.distanceMeters); w.int(e.movingSeconds); w.optionalInt(e.steps); w.optionalInt(e.activeKcal)
            w.optionalInt(e.avgHeartRate); writeLaps(e.laps, &w); writeSource(e.source, &w); w.optionalString(e.title)
            w.optionalInt(e.elapsedSeconds); w.optionalInt(e.maxHeartRate)
        case .workoutTrackRecorded(let e):
            w.string(e.workoutId); w.int(e.part); w.int(e.parts); TrackSampleCoding.encode(e.samples, into: &w)
        case .workoutEdited(let e):
            w.string(e.workoutId); w.optionalString(e.title); w.optionalString(e.notes)
            if let type = e.activityType { w.byte(1); w.enumeration(type) } else { w.byte(0) }
        case .stepsRecorded(let e):
            StepSampleCoding.encode(e.samples, into: &w)
        case .goalSet(let e):
            w.date(e.date); w.int(e.steps); w.optionalInt(e.activeMinutes)
        case .goalCleared(let e):
            w.date(e.date)
        case .goalDefaultSet(let e):
            w.int(e.steps); w.optionalInt(e.activeMinutes)
        case .placeAdded(let e):
            w.string(e.placeId); w.string(e.name); w.enumeration(e.category); w.string(e.subcategory)
            w.double(e.latitude); w.double(e.longitude); w.optionalString(e.address); w.optionalString(e.phone)
            w.optionalInt(e.priceLevel); w.optionalString(e.notes)
        case .placeSwiped(let e):
            w.string(e.placeId); w.enumeration(e.direction)
        case .placeVisited(let e):
            w.string(e.placeId); w.timestamp(e.visitedAt)
        case .placeNotesEdited(let e):
            w.string(e.placeId); w.string(e.notes)
        case .placesReset, .userErased:
            break
        }
        return w.bytes
    }

    /// Decodes a payload of `type` written in `schemaVersion`, upcast to the current version.
    public static func decode(_ type: EventType, schemaVersion: UInt32, payload: Span<UInt8>) throws(DomainCodingError) -> DomainEvent {
        guard type.schemaVersions.contains(schemaVersion) else {
            throw .unknownSchemaVersion(type: type.rawValue, version: schemaVersion)
        }
        var o = 0
        do {
            let event = try decodeFields(type, schemaVersion: schemaVersion, payload, &o)
            guard o == payload.count else { throw DecodeFailure(reason: "\(payload.count - o) bytes left over") }
            return event
        } catch let failure as DecodeFailure {
            throw .undecodable(type: type.rawValue, reason: failure.reason)
        } catch {
            throw .undecodable(type: type.rawValue, reason: "\(error)")
        }
    }

    private static func decodeFields(_ type: EventType, schemaVersion: UInt32, _ s: Span<UInt8>, _ o: inout Int) throws -> DomainEvent {
        typealias R = FieldReader
        switch type {
        case .userRegistered:
            return .userRegistered(UserRegistered(
                displayName: try ByteReader.string(s, &o), timeZone: try ByteReader.string(s, &o),
                weekStart: try R.enumeration(s, &o, WeekStart.self), units: try R.enumeration(s, &o, Units.self)))
        case .userProfileUpdated:
            let displayName = try R.optionalString(s, &o)
            let timeZone = try R.optionalString(s, &o)
            let weekStart: WeekStart? = switch try ByteReader.byte(s, &o) { case 1: .monday; case 2: .sunday; default: nil }
            let units: Units? = switch try ByteReader.byte(s, &o) { case 1: .metric; case 2: .imperial; default: nil }
            let preferred: OptionalChange<String> = switch try ByteReader.byte(s, &o) {
            case 0: .unchanged
            case 1: .clear
            default: .set(try ByteReader.string(s, &o))
            }
            return .userProfileUpdated(UserProfileUpdated(
                displayName: displayName, timeZone: timeZone, weekStart: weekStart, units: units, preferredStepSource: preferred))
        case .workoutStarted:
            return .workoutStarted(WorkoutStarted(
                workoutId: try ByteReader.string(s, &o), activityType: try R.enumeration(s, &o, ActivityType.self),
                startedAt: try R.timestamp(s, &o), source: try readSource(s, &o)))
        case .workoutPaused, .workoutResumed:
            let change = WorkoutPauseChange(workoutId: try ByteReader.string(s, &o), at: try R.timestamp(s, &o))
            return type == .workoutPaused ? .workoutPaused(change) : .workoutResumed(change)
        case .workoutFinished:
            return .workoutFinished(WorkoutFinished(
                workoutId: try ByteReader.string(s, &o), endedAt: try R.timestamp(s, &o), distanceMeters: try R.int(s, &o),
                movingSeconds: try R.int(s, &o), steps: try R.optionalInt(s, &o), activeKcal: try R.optionalInt(s, &o),
                avgHeartRate: try R.optionalInt(s, &o), laps: try readLaps(s, &o, schemaVersion: schemaVersion)))
        case .workoutDiscarded, .workoutDeleted:
            let reference = WorkoutReference(workoutId: try ByteReader.string(s, &o))
            return type == .workoutDiscarded ? .workoutDiscarded(reference) : .workoutDeleted(reference)
        case .workoutImported:
            var imported = WorkoutImported(
                workoutId: try ByteReader.string(s, &o), activityType: try R.enumeration(s, &o, ActivityType.self),
                startedAt: try R.timestamp(s, &o), endedAt: try R.timestamp(s, &o), distanceMeters: try R.int(s, &o),
                movingSeconds: try R.int(s, &o), steps: try R.optionalInt(s, &o), activeKcal: try R.optionalInt(s, &o),
                avgHeartRate: try R.optionalInt(s, &o), laps: try readLaps(s, &o, schemaVersion: schemaVersion),
                source: try readSource(s, &o), title: try R.optionalString(s, &o))
            if schemaVersion >= 2 {
                imported.elapsedSeconds = try R.optionalInt(s, &o)
                imported.maxHeartRate = try R.optionalInt(s, &o)
            }
            return .workoutImported(imported)
        case .workoutTrackRecorded:
            return .workoutTrackRecorded(WorkoutTrackRecorded(
                workoutId: try ByteReader.string(s, &o), part: try R.int(s, &o), parts: try R.int(s, &o),
                samples: try TrackSampleCoding.decode(s, &o)))
        case .workoutEdited:
            let id = try ByteReader.string(s, &o)
            let title = try R.optionalString(s, &o)
            let notes = try R.optionalString(s, &o)
            let activity = try ByteReader.byte(s, &o) == 0 ? nil : try R.enumeration(s, &o, ActivityType.self)
            return .workoutEdited(WorkoutEdited(workoutId: id, title: title, notes: notes, activityType: activity))
        case .stepsRecorded:
            return .stepsRecorded(try schemaVersion == 1 ? Upcasting.stepsRecordedV1(s, &o) : StepSampleCoding.decode(s, &o))
        case .goalSet:
            return .goalSet(GoalSet(date: try R.date(s, &o), steps: try R.int(s, &o), activeMinutes: try R.optionalInt(s, &o)))
        case .goalCleared:
            return .goalCleared(GoalCleared(date: try R.date(s, &o)))
        case .goalDefaultSet:
            return .goalDefaultSet(GoalDefaultSet(steps: try R.int(s, &o), activeMinutes: try R.optionalInt(s, &o)))
        case .placeAdded:
            return .placeAdded(PlaceAdded(
                placeId: try ByteReader.string(s, &o), name: try ByteReader.string(s, &o),
                category: try R.enumeration(s, &o, PlaceCategory.self), subcategory: try ByteReader.string(s, &o),
                latitude: try ByteReader.double(s, &o), longitude: try ByteReader.double(s, &o),
                address: try R.optionalString(s, &o), phone: try R.optionalString(s, &o),
                priceLevel: try R.optionalInt(s, &o), notes: try R.optionalString(s, &o)))
        case .placeSwiped:
            return .placeSwiped(PlaceSwiped(placeId: try ByteReader.string(s, &o), direction: try R.enumeration(s, &o, SwipeDirection.self)))
        case .placeVisited:
            return .placeVisited(PlaceVisited(placeId: try ByteReader.string(s, &o), visitedAt: try R.timestamp(s, &o)))
        case .placeNotesEdited:
            return .placeNotesEdited(PlaceNotesEdited(placeId: try ByteReader.string(s, &o), notes: try ByteReader.string(s, &o)))
        case .placesReset:
            return .placesReset
        case .userErased:
            return .userErased
        }
    }

    private static func writeSource(_ source: WorkoutSource, _ w: inout ByteWriter) {
        w.enumeration(source.kind)
        w.optionalString(source.sourceId)
    }

    private static func readSource(_ s: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> WorkoutSource {
        WorkoutSource(kind: try FieldReader.enumeration(s, &o, SourceKind.self), sourceId: try FieldReader.optionalString(s, &o))
    }

    /// Laps in the version-2 layout (every version-1 field, then the optional ones).
    static func writeLaps(_ laps: [Lap]?, _ w: inout ByteWriter) {
        guard let laps else { return w.byte(0) }
        w.byte(1)
        w.varint(UInt64(laps.count))
        for lap in laps {
            w.int(lap.distanceMeters); w.int(lap.movingSeconds)
            if let start = lap.startedAt { w.byte(1); w.timestamp(start) } else { w.byte(0) }
            w.optionalInt(lap.elapsedSeconds); w.optionalInt(lap.activeKcal); w.optionalInt(lap.avgHeartRate)
            w.optionalInt(lap.maxHeartRate)
        }
    }

    /// Laps written by ``writeLaps(_:_:)``, or (schema version 1) distance and moving time only.
    static func readLaps(_ s: Span<UInt8>, _ o: inout Int, schemaVersion: UInt32) throws(DecodeFailure) -> [Lap]? {
        guard try ByteReader.byte(s, &o) != 0 else { return nil }
        let count = try ByteReader.int(s, &o)
        guard count <= s.count else { throw DecodeFailure(reason: "\(count) laps") }
        var laps: [Lap] = []
        laps.reserveCapacity(count)
        for _ in 0..<count {
            var lap = Lap(distanceMeters: try FieldReader.int(s, &o), movingSeconds: try FieldReader.int(s, &o))
            if schemaVersion >= 2 {
                lap.startedAt = try ByteReader.byte(s, &o) == 0 ? nil : try FieldReader.timestamp(s, &o)
                lap.elapsedSeconds = try FieldReader.optionalInt(s, &o)
                lap.activeKcal = try FieldReader.optionalInt(s, &o)
                lap.avgHeartRate = try FieldReader.optionalInt(s, &o)
                lap.maxHeartRate = try FieldReader.optionalInt(s, &o)
            }
            laps.append(lap)
        }
        return laps
    }
}

/// Why an event's payload could not be turned into a ``DomainEvent``.
public enum DomainCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownEventType(String)
    case unknownSchemaVersion(type: String, version: UInt32)
    case undecodable(type: String, reason: String)
    /// A JSON payload is malformed or breaks the schema; `field` names where.
    case invalidJSON(type: String, field: String, reason: String)

    public var description: String {
        switch self {
        case .unknownEventType(let type): "unknown event type \"\(type)\""
        case .unknownSchemaVersion(let type, let version): "\(type) has no schema version \(version)"
        case .undecodable(let type, let reason): "undecodable \(type) payload: \(reason)"
        case .invalidJSON(let type, let field, let reason): "invalid \(type) data at \(field): \(reason)"
        }
    }
}
