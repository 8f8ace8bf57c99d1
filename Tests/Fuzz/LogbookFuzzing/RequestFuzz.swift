import EventLog
public import FuzzSupport
import Foundation
import Logbook
import LogbookInput

/// The fuzz targets of what a request carries: command bodies decoded as each route decodes them
/// (path values merged in), and the texts of query parameters, headers and path segments.
public enum RequestFuzz {
    /// How a command route reads its body.
    enum Route {
        /// `EventBody.decode` of the type's data, with the named path value (if any) merged in.
        case event(EventType, path: String?)
        /// A workout start or import: a workout id is made when the body names none.
        case newWorkout(EventType)
        /// Pause or resume: an optional `{"at": …}`.
        case pauseOrResume
        /// A planned workout: a planned id is made when the body names none.
        case newPlanned
        /// A change of some fields of a planned workout (`PATCH`), the planned id from the path.
        case plannedChanges
        /// A plan to generate: `{targetId, startDate?, daysPerWeek, longRunDay?}`.
        case planRequest
        /// A piece of a workout's track: `{"samples": …}`, the workout id from the path.
        case trackPiece
        /// A file of places for the catalog: NDJSON or GeoJSON (the path byte picks the form named, or none).
        case catalogImport
    }

    /// Every command route's body: the hand-written routes in `CommandRoutes` order, then the
    /// routes the declarations give.
    static let routes: [Route] = [
        .newWorkout(.workoutStarted), .newWorkout(.workoutImported), .pauseOrResume,
        .newPlanned, .plannedChanges, .planRequest, .trackPiece,
    ] + DeclaredRoute.all.map { .event($0.type, path: $0.pathFields.first) } + [.catalogImport]

    /// Path values as the router hands them on (ids already checked by `QueryValues.pathValue`).
    static let pathValues = ["w1", "2026-03-01", "p-1", "jos\u{E9}", "0", "0002-01-01", "9998-12-31", "x\u{1F3C3}y"]

    /// A command body: the first byte picks the route, the second the path value, the rest is
    /// the body (empty is `{}`, as the routes read it).
    public static let commandBody = FuzzTarget("FuzzCommandBody") { bytes throws(FuzzFailure) in
        guard bytes.count >= 2 else { return }
        let route = routes[Int(bytes[0]) % routes.count]
        let pathValue = pathValues[Int(bytes[1]) % pathValues.count]
        let body = bytes.count == 2 ? Data("{}".utf8) : Data(bytes[2...])
        let event: DomainEvent
        do {
            switch route {
            case .event(let type, let field):
                event = try EventBody.decode(type, body, path: field.map { [$0: pathValue] } ?? [:])
                try FuzzCheck.expect(event.type == type, "a \(type) body decoded as a \(event.type)")
                if let field { try expectField(event, field, pathValue) }
            case .newWorkout(let type):
                event = try EventBody.newWorkout(type, body, newId: pathValue)
                try FuzzCheck.expect(event.type == type, "a \(type) body decoded as a \(event.type)")
                if (try? EventBody.object(body))?["workoutId"] == nil { try expectField(event, "workoutId", pathValue) }
            case .pauseOrResume:
                _ = try EventBody.optionalTimestamp(try EventBody.object(body), field: "at")
                return
            case .newPlanned:
                event = try EventBody.withNewId(.planWorkoutPlanned, body, field: "plannedId", newId: pathValue)
                try FuzzCheck.expect(event.type == .planWorkoutPlanned, "a planned workout body decoded as a \(event.type)")
                if (try? EventBody.object(body))?["plannedId"] == nil { try expectField(event, "plannedId", pathValue) }
            case .plannedChanges:
                let changes = try EventBody.plannedChanges(body, plannedId: pathValue)
                try FuzzCheck.expect(!changes.isEmpty, "a change of a planned workout that changes nothing was accepted")
                return
            case .trackPiece:
                let samples = try EventBody.trackPiece(body, workoutId: pathValue)
                try FuzzCheck.expect(
                    (1...TrackSamples.maxPointsPerEvent).contains(samples.points)
                        && TrackSamples.Column.allCases.allSatisfy { samples[$0].map { $0.count == samples.points } ?? true },
                    "a track piece of \(samples.points) points with a column of another length was accepted")
                return
            case .catalogImport:
                let format = [nil, CatalogImportFile.Format.ndjson, .geojson][Int(bytes[1]) % 3]
                let file = try CatalogImportFile.read(Array(bytes[2...]), format: format)
                try FuzzCheck.expect((1...PlaceImportEntry.maxPlaces).contains(file.places.count) && format.map { $0 == file.format } ?? true,
                                     "a catalog file of \(file.places.count) places read as \(file.format)")
                for entry in file.places {
                    try FuzzCheck.expect(!entry.origin.isEmpty, "a place of a catalog file with no origin")
                    try WireFuzz.jsonRoundTrip(.placeAdded(entry.place), "catalog file's \(entry.origin)")
                }
                return
            case .planRequest:
                let request = try EventBody.planRequest(body)
                try FuzzCheck.expect((3...6).contains(request.daysPerWeek) && (request.longRunDay.map { (1...7).contains($0) } ?? true),
                                     "a plan request out of its ranges was accepted: \(request)")
                return
            }
        } catch let failure as FuzzFailure {
            throw failure
        } catch is InputError {
            return
        } catch is DomainCodingError {
            return
        } catch {
            throw FuzzFailure("a command body failed with an error the HTTP layer does not map: \(type(of: error)) \(error)")
        }
        try WireFuzz.jsonRoundTrip(event, "body of \(event.type)")
        try WireFuzz.binaryRoundTrip(event, "body of \(event.type)")
    }

    /// The event's data names `value` as `field` (the path value the route merged in).
    static func expectField(_ event: DomainEvent, _ field: String, _ value: String) throws(FuzzFailure) {
        let data = JSONEventCodec.encodedBytes(event)
        let object = (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any]
        try FuzzCheck.expect(object?[field] as? String == value,
                             "\(event.type): \(field) is not the path's \(value): \(String(decoding: data, as: UTF8.self))")
    }

    /// One text through every parser of query parameters, headers and path segments; each answers
    /// a value or nothing (or its typed error), and what it reads writes back and reads the same.
    public static let query = FuzzTarget("FuzzQuery") { bytes throws(FuzzFailure) in
        let text = String(decoding: bytes, as: UTF8.self)
        if let date = QueryValues.date(text) {
            try FuzzCheck.expect(QueryValues.date(date.description) == date, "date \(text) writes back as \(date.description)")
        }
        if let month = QueryValues.month(text) { try FuzzCheck.expect(month.day == 1, "month \(text) is not a first day") }
        if let position = QueryValues.decimalPosition(text) {
            try FuzzCheck.expect(position <= UInt64(Int64.max), "position \(text) is beyond 2^63 - 1")
            try FuzzCheck.expect(QueryValues.decimalPosition(String(position)) == position, "position \(text) writes back otherwise")
        }
        if let types = try? QueryValues.eventTypes(text) {
            let written = types.map(\.rawValue).sorted().joined(separator: ",")
            try FuzzCheck.expect(types.isEmpty || (try? QueryValues.eventTypes(written)) == types, "types \(text) write back otherwise")
        }
        if let limit = QueryValues.limit(text, maximum: 500) { try FuzzCheck.expect((1...500).contains(limit), "limit \(text) is \(limit)") }
        switch try? QueryValues.asOf(text) {
        case .time(let time): try timestampRoundTrip(time, text)
        case .position(let position): try FuzzCheck.expect(position.rawValue <= UInt64(Int64.max), "asOf \(text) is beyond 2^63 - 1")
        case nil: break
        }
        _ = try? QueryValues.expectedVersion(ifMatch: text)
        // If-None-Match: any text is read without a trap, and a list naming a tag matches it.
        _ = QueryValues.noneMatch([text], names: "\"0123456789abcdef0123456789abcdef\"")
        try FuzzCheck.expect(QueryValues.noneMatch([text + ", W/\"t\""], names: "\"t\""), "If-None-Match \(text) hides a tag after it")
        for name in ["user", "workoutId", "placeId", "date"] {
            if let value = try? QueryValues.pathValue(text, name: name), name != "date" {
                try FuzzCheck.expect(IdRule.violation(value) == nil, "path \(name) \(text) passes as \(value), not an id")
            }
        }
        // The wire codec's timestamps read bytes, not text: invalid UTF-8 included.
        if let time = try? Timestamp(rfc3339: bytes[...]) { try timestampRoundTrip(time, text) }
        if let time = try? Timestamp(parsing: text) { try timestampRoundTrip(time, text) }
        if let date = CivilDate(parsing: text) {
            try FuzzCheck.expect(CivilDate(parsing: date.description) == date, "date \(text) writes back as \(date.description)")
        }
        // A places search (`q`): the text searched for, and the catalog names cut from the same bytes.
        if let search = QueryValues.searchText(text) {
            let names = text.split(separator: "|", maxSplits: 8).map(String.init)
            if let violation = CatalogSearchCheck.violation(names: names, text: search) { throw FuzzFailure(violation) }
            if let last = names.last, let piece = QueryValues.searchText(String(last.prefix(6))),
               let violation = CatalogSearchCheck.violation(names: names, text: piece) {
                throw FuzzFailure(violation)
            }
        }
    }

    /// The timestamp's canonical text reads back as the same timestamp.
    static func timestampRoundTrip(_ time: Timestamp, _ text: String) throws(FuzzFailure) {
        let written = time.rfc3339
        try FuzzCheck.expect((try? Timestamp(parsing: written)) == time, "time \(text) writes back as \(written), read otherwise")
        try FuzzCheck.expect((try? Timestamp(rfc3339: Array(written.utf8)[...])) == time, "time \(text) writes back as \(written)")
    }
}
