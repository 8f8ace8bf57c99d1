import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logbook
import LogbookInput
import WorkoutImport

/// The write side: one route per command, each taking the payload of the event it asks for.
/// Most come from the event types' declarations (``DeclaredRoute``: the body is the payload, the
/// path fills its ids); the commands here are those whose body is not one event's payload (a
/// workout named by its idempotency key, a file, pause and resume's optional time, track pieces,
/// a catalog file, planned-workout changes, a generated plan).
///
/// Every route accepts `Idempotency-Key` (1 to 255 visible ASCII characters, such as a UUID): a
/// retry of the same request (same caller, method, path, query and body bytes) answers the
/// original status and body (with `Idempotent-Replayed: true`) and writes nothing, for
/// ``LogbookConfiguration/idempotencyKeyRetention``; the same key with another request is 422
/// `/problems/idempotency-conflict`. `If-Match` pins the stream version (409 with the current
/// version if it moved).
struct CommandRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook
    let maxBodyBytes: Int
    /// Largest workout file `POST …/imports` accepts.
    let maxImportBytes: Int
    let importSlots: ImportSlots

    let catalog: RouteCatalog

    /// The users' commands on `group`, the shared catalog's on `administrators`.
    func register(on group: RouteGroup<Context>, administrators: RouteGroup<Context>) {
        func command(
            _ method: HTTPRequest.Method, _ path: String, _ summary: String, body: EventType?, optionalBody: String? = nil,
            bodyRequired: Bool = false, emptyBodyAllowed: Bool = false, in routes: RouteGroup<Context>? = nil,
            _ handler: @escaping @Sendable (Request, Context, CommandContext) async throws -> CommandResult
        ) {
            (routes ?? group).route(
                method, path, summary, body: body.map(EventBody.schemaPath) ?? optionalBody,
                bodyRequired: bodyRequired || (optionalBody == nil && !emptyBodyAllowed), statuses: Statuses.command,
                responses: Self.commandAnswers, catalog: catalog) { request, context in
                try await keyed(request, context, handler)
            }
        }
        command(.post, "users/{user}/workouts", "Start a workout (body: workout.started data; workoutId optional)", body: .workoutStarted) {
            try await newWorkout(.workoutStarted, $0, $1, $2)
        }
        let files = FileImportRoutes<Context>(logbook: logbook, maxImportBytes: maxImportBytes, slots: importSlots)
        group.route(
            .post, "users/{user}/imports",
            "Import a finished workout: a JSON body is workout.imported data (workoutId optional); any other body is a workout "
                + "file (FIT, GPX, TCX, Apple Health export.xml or export.zip, Strava activities.csv; format detected from the bytes), "
                + "answered with what was imported, already there and skipped",
            body: EventBody.schemaPath(.workoutImported), statuses: Statuses.fileImport,
            responses: [200: .oneOf("Already there: the command's result, or the file's import report", [.reference(CommandResult.self), .reference(FileImportReport.self)]),
                        201: .oneOf("Imported: the command's result, or the file's import report", [.reference(CommandResult.self), .reference(FileImportReport.self)])],
            catalog: catalog
        ) { request, context in
            let type = MediaType.essence(request.headers[.contentType])
            guard type == "application/json" else {
                // A file is sent as its own media type: never as text/plain or a form, which a
                // page of another site could send without the browser asking the server first.
                guard let type, WorkoutFileUpload.accepted.contains(type) else {
                    throw Problem.unsupportedMediaType(request.headers[.contentType], accepted: ["application/json"] + WorkoutFileUpload.mediaTypes)
                }
                // A file import is idempotent by its content (a repeat writes nothing); the headers
                // of commands are still checked, so a malformed one is refused as on any command.
                _ = try request.expectedVersion()
                if let key = request.idempotencyKey() { try IdempotentRequest.check(key: key) }
                return try await files.importFile(request, context)
            }
            return try await keyed(request, context) { try await newWorkout(.workoutImported, $0, $1, $2) }
        }
        command(.post, "users/{user}/workouts/{workoutId}/pause", "Pause a running workout (body: optional {at})", body: nil, optionalBody: "requests/workout.paused.schema.json") {
            try await pauseOrResume(pause: true, $0, $1, $2)
        }
        command(.post, "users/{user}/workouts/{workoutId}/resume", "Resume a paused workout (body: optional {at})", body: nil, optionalBody: "requests/workout.resumed.schema.json") {
            try await pauseOrResume(pause: false, $0, $1, $2)
        }
        command(.post, "users/{user}/workouts/{workoutId}/track",
                "Record track points (body: {samples}, the columns of workout.track_recorded, 1 to 4,000 points a call): while the workout runs or is paused, each call "
                    + "continues its track (offsets from the start, never earlier than the last point so far); a finished workout takes its whole "
                    + "track once", body: nil, optionalBody: "requests/workout.track.schema.json", bodyRequired: true) { request, context, commandContext in
            let user = try context.path("user")
            let workoutId = try context.path("workoutId")
            let samples = try EventBody.trackPiece(try await request.jsonBody(limit: maxBodyBytes), workoutId: workoutId)
            return try await logbook.execute(.recordTrack(user: user, workoutId: workoutId, samples), context: commandContext)
        }
        administrators.route(
            .post, "catalog/places/import",
            "Import places into the shared catalog (administrators): NDJSON (one place.added object per line) or a GeoJSON "
                + "FeatureCollection of Points (the form named by Content-Type application/x-ndjson or application/geo+json, else "
                + "detected: one JSON object is one place), at most 10,000 places and 16 MiB; all or nothing, a refusal naming the line or feature; places new to "
                + "the catalog are added, changed ones updated (an optional field left out is cleared), equal ones left, in one "
                + "commit, so the same file again writes nothing (200)",
            body: EventBody.schemaPath(.placeAdded), statuses: Statuses.command,
            responses: [200: .reference(CatalogImportReport.self, "Nothing to change: the catalog holds every place as the file gives it"),
                        201: .reference(CatalogImportReport.self, "Imported: the places added and changed, in one commit")],
            catalog: catalog
        ) { request, context in
            // Idempotent by content (the same file again writes nothing) and, with an Idempotency-Key, by key (a
            // retry answers the original report).
            let limit = min(maxImportBytes, CatalogImportFile.maxBytes)
            // The Content-Type names the form the bytes are read in: a retry is the same request only with the same one.
            let contentType = Array((request.headers[.contentType] ?? "").utf8)
            return try await keyed(request, context, bodyLimit: limit, alsoFingerprinted: contentType) { request, _, commandContext, call in
                let body = try await request.bodyBytes(limit: limit)
                let format = try Self.catalogImportFormat(request.headers[.contentType])
                let places = try CatalogImportFile.read(Array(buffer: body), format: format).places
                // The answer kept with the events is the report they make.
                call?.answer { result, types in
                    Self.answer(result, body: try JSONOutput.encoder.encode(CatalogImportReport(places: places.count, appendedTypes: types, result: result)))
                }
                let report = try await logbook.importPlaces(places, context: commandContext)
                return (report.result, try JSONOutput.encoder.encode(report))
            }
        }
        command(.post, "users/{user}/training/planned-workouts", "Plan a workout (body: plan.workout_planned data; plannedId optional)",
                body: .planWorkoutPlanned) { request, context, commandContext in
            let user = try context.path("user")
            let body = try await request.jsonBody(limit: maxBodyBytes)
            let payload = try EventBody.withNewId(.planWorkoutPlanned, body, field: "plannedId", newId: (commandContext.eventId ?? UUID()).uuidString.lowercased())
            return try await logbook.execute(Command(user: user, event: payload), context: commandContext)
        }
        command(.patch, "users/{user}/training/planned-workouts/{plannedId}",
                "Change a planned workout (body: any of plan.workout_planned's fields; the others stay; null clears distanceMeters, "
                    + "durationSeconds or notes; it keeps its place in the plan)",
                body: nil, optionalBody: "requests/training.planned-change.schema.json", bodyRequired: true) { request, context, commandContext in
            let user = try context.path("user")
            let plannedId = try context.path("plannedId")
            let changes = try EventBody.plannedChanges(try await request.jsonBody(limit: maxBodyBytes), plannedId: plannedId)
            return try await logbook.execute(.changePlannedWorkout(user: user, plannedId: plannedId, changes), context: commandContext)
        }
        command(.post, "users/{user}/training/plans",
                "Generate a plan towards a target (body: {targetId, startDate?, daysPerWeek, longRunDay?}): its workouts appended at once, "
                    + "an earlier plan's future workouts for the same target removed in the same append",
                body: nil, optionalBody: "requests/training.plan.schema.json", bodyRequired: true) { request, context, commandContext in
            let user = try context.path("user")
            let plan = try EventBody.planRequest(try await request.jsonBody(limit: maxBodyBytes))
            return try await logbook.execute(.generatePlan(user: user, plan), context: commandContext)
        }
        // The routes the event declarations give: the body is the type's payload, the path fills its ids.
        for route in DeclaredRoute.all {
            command(HTTPRequest.Method(rawValue: route.method)!, route.path, route.summary, body: route.hasBody ? route.type : nil,
                    emptyBodyAllowed: route.emptyBodyAllowed, in: route.administrators ? administrators : group) { request, context, commandContext in
                // An administrators' route acts on the shared catalog, for no user.
                let user = route.administrators ? "" : try context.path("user")
                var values: [String: String] = [:]
                for name in route.pathFields { values[name] = try context.path(name) }
                let payload = try await EventBody.decode(route.type, request.jsonBody(limit: maxBodyBytes), path: values)
                return try await logbook.execute(Command(user: user, event: payload), context: commandContext)
            }
        }
    }

    /// The form a catalog import is read in, from its `Content-Type`: GeoJSON, NDJSON, or JSON
    /// (one place, or as the bytes say); any other media type is refused (415), so no page of
    /// another site can send one as `text/plain`.
    static func catalogImportFormat(_ contentType: String?) throws -> CatalogImportFile.Format? {
        if MediaType.isJSON(contentType) { return nil }
        guard let format = CatalogImportFile.format(contentType: contentType) else {
            throw Problem.unsupportedMediaType(contentType, accepted: ["application/json", "application/geo+json", "application/x-ndjson"])
        }
        return format
    }

    /// What a command answers: its result, 201 when it wrote, 200 when it had been applied already.
    static var commandAnswers: [Int: JSONSchema] {
        [200: .reference(CommandResult.self, "Already applied (an idempotent retry or a repeated import): nothing written"),
         201: .reference(CommandResult.self, "Created: the command's events were appended")]
    }

    /// Starting or importing a workout: the client may name it; if not, the workout id is the
    /// event id an `Idempotency-Key` gives (so a retry names the same workout) or a fresh UUID.
    private func newWorkout(_ type: EventType, _ request: Request, _ context: Context, _ commandContext: CommandContext) async throws -> CommandResult {
        let user = try context.path("user")
        let body = try await request.jsonBody(limit: maxBodyBytes)
        let payload = try EventBody.newWorkout(type, body, newId: (commandContext.eventId ?? UUID()).uuidString.lowercased())
        return try await logbook.execute(Command(user: user, event: payload), context: commandContext)
    }

    /// Pause and resume take an optional `at` (default: now).
    private func pauseOrResume(pause: Bool, _ request: Request, _ context: Context, _ commandContext: CommandContext) async throws -> CommandResult {
        let user = try context.path("user")
        let workoutId = try context.path("workoutId")
        let at = try EventBody.optionalTimestamp(try await request.jsonObject(limit: maxBodyBytes), field: "at")
        let command: Command = pause
            ? .pauseWorkout(user: user, workoutId: workoutId, at: at)
            : .resumeWorkout(user: user, workoutId: workoutId, at: at)
        return try await logbook.execute(command, context: commandContext)
    }

    /// The position of a stored command answer: its own, or its command result's (a catalog import's report).
    private struct PositionOnly: Decodable {
        struct Result: Decodable { let lastPosition: UInt64 }
        let lastPosition: UInt64?
        let result: Result?
        var position: UInt64? { lastPosition ?? result?.lastPosition }
    }

    /// Runs a command route, once per `Idempotency-Key` when the request has one (see the other
    /// ``keyed(_:_:bodyLimit:alsoFingerprinted:_:)``); the answer is the command's result.
    private func keyed(
        _ request: Request, _ context: Context,
        _ handler: @escaping @Sendable (Request, Context, CommandContext) async throws -> CommandResult
    ) async throws -> Response {
        try await keyed(request, context, bodyLimit: maxBodyBytes) { request, context, commandContext, _ in
            let result = try await handler(request, context, commandContext)
            return (result, try JSONOutput.encoder.encode(result))
        }
    }

    /// The stored answer to a keyed command whose result is `result` and body `body`.
    static func answer(_ result: CommandResult, body: Data) -> StoredResponse {
        StoredResponse(status: result.alreadyApplied ? 200 : 201, entityTag: "\"\(result.streamVersion)\"", body: Array(body))
    }

    /// Runs a command route whose answer is `body` (201 when the command wrote, 200 when it had
    /// been applied already), once per `Idempotency-Key` when the request has one: the key's
    /// request is fingerprinted (caller, method, path, query, body bytes, at most `bodyLimit`, and
    /// `alsoFingerprinted`, such as a header that changes how the body is read), its
    /// first event gets the id the key derives, and its answer is kept for retries — in the
    /// commit of its events, on a shared log: the handler's ``KeyedCall`` says how the answer is
    /// made of the command's result (the command's result as JSON unless the handler says else).
    private func keyed(
        _ request: Request, _ context: Context, bodyLimit: Int, alsoFingerprinted: [UInt8] = [],
        _ handler: @Sendable (Request, Context, CommandContext, KeyedCall?) async throws -> (result: CommandResult, body: Data)
    ) async throws -> Response {
        var commandContext = CommandContext(expectedVersion: try request.expectedVersion())
        guard let key = request.idempotencyKey() else {
            let (result, body) = try await handler(request, context, commandContext, nil)
            return JSONOutput.response(bytes: body, status: result.alreadyApplied ? .ok : .created, headers: JSONOutput.commandHeaders(result))
        }
        var request = request
        let body = try await request.bufferBody(limit: bodyLimit)
        let identity = context.identity?.idempotencyScope ?? "anonymous"
        let fingerprint = IdempotentRequest.fingerprint([
            Array(request.method.rawValue.utf8), Array(request.uri.path.utf8), Array((request.uri.query ?? "").utf8), body,
        ] + (alsoFingerprinted.isEmpty ? [] : [alsoFingerprinted]))
        let keyedRequest = try IdempotentRequest(key: key, scope: identity, fingerprint: fingerprint)
        let buffered = request
        var position: UInt64?
        let (answer, replayed) = try await logbook.once(keyedRequest) { call in
            commandContext.eventId = call.eventId
            call.answer { result, _ in Self.answer(result, body: try JSONOutput.encoder.encode(result)) }
            let (result, body) = try await handler(buffered, context, commandContext, call)
            position = result.lastPosition
            return Self.answer(result, body: body)
        }
        var headers = HTTPFields()
        headers[.eTag] = answer.entityTag
        // A replayed answer's position is in its stored body; a fresh one's came with the result
        // (or, when the request failed after its answer was kept with its events, is in that answer).
        if replayed || position == nil { position = (try? JSONDecoder().decode(PositionOnly.self, from: Data(answer.body)))?.position }
        if let position, position > 0 { headers[.logbookPosition] = String(position) }
        if replayed { headers[HTTPField.Name("Idempotent-Replayed")!] = "true" }
        return JSONOutput.response(bytes: Data(answer.body), status: HTTPResponse.Status(code: answer.status), headers: headers)
    }
}
