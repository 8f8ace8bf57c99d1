import Foundation
public import Hummingbird
import EventLog
import Logbook
import LogbookInput
import WorkoutFiles

/// An RFC 9457 problem: every refusal the HTTP layer sends, as `application/problem+json`,
/// naming the field or rule that was wrong.
public struct Problem: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    /// A URI naming the kind of problem, e.g. `/problems/rule/goal_horizon`.
    public var type: String
    public var title: String
    public var detail: String
    /// The field of the request that was wrong, when one was.
    public var field: String?
    /// The domain rule that was broken, for rule violations.
    public var rule: String?
    /// The stream's version now, for version conflicts.
    public var currentVersion: UInt64?
    /// Seconds after which to ask again (`Retry-After`), for 429 and 503 (1 when not set).
    public var retryAfterSeconds: Int?
    /// For a failure of the server (5xx): the id its log records the failure under, the request's
    /// id (`X-Request-Id`), so an operator can find what the client was not told.
    public var correlationId: String?
    /// For a failure inside the server: the error's own text (paths, SQL, hosts), which goes to
    /// the server's log under ``correlationId`` and never to the client.
    var cause: String?

    /// A problem with its status, type URI, title and detail, and optionally the field, rule or current version.
    public init(
        _ status: HTTPResponse.Status, type: String, title: String, detail: String, field: String? = nil,
        rule: String? = nil, currentVersion: UInt64? = nil
    ) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.field = field
        self.rule = rule
        self.currentVersion = currentVersion
    }

    /// The `application/problem+json` response (with `WWW-Authenticate` for 401).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = "{\"type\":\(quoted(type)),\"title\":\(quoted(title)),\"status\":\(status.code),\"detail\":\(quoted(detail))"
        if let field { body += ",\"field\":\(quoted(field))" }
        if let rule { body += ",\"rule\":\(quoted(rule))" }
        if let currentVersion { body += ",\"currentVersion\":\(currentVersion)" }
        if let correlationId { body += ",\"correlationId\":\(quoted(correlationId))" }
        body += ",\"instance\":\(quoted(request.uri.path))}"
        var headers = HTTPFields()
        headers[.contentType] = "application/problem+json"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        // The log's database is down or the read models are behind: both pass within seconds.
        if status == .serviceUnavailable || status == .tooManyRequests { headers[.retryAfter] = "\(max(1, retryAfterSeconds ?? 1))" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    private func quoted(_ text: String) -> String {
        let data = (try? Self.encoder.encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Common problems

    static func badRequest(_ detail: String, field: String? = nil) -> Problem {
        Problem(.badRequest, type: "/problems/invalid-request", title: "Invalid request", detail: detail, field: field)
    }

    static func notFound(_ detail: String) -> Problem {
        Problem(.notFound, type: "/problems/not-found", title: "Not found", detail: detail)
    }

    static func unauthorized(_ detail: String) -> Problem {
        Problem(.unauthorized, type: "/problems/unauthorized", title: "Authentication required", detail: detail)
    }

    static func forbidden(_ detail: String) -> Problem {
        Problem(.forbidden, type: "/problems/forbidden", title: "Forbidden", detail: detail)
    }

    /// A failure inside the server: the client hears that it failed, the log hears `cause`.
    static func internalFailure(
        _ status: HTTPResponse.Status = .internalServerError, type: String = "/problems/internal", title: String = "Internal error", cause: String
    ) -> Problem {
        let what = status == .serviceUnavailable ? "the log's storage is unavailable; retry" : "the server failed to answer"
        var problem = Problem(status, type: type, title: title, detail: what)
        problem.cause = cause
        return problem
    }

    /// A body sent as a media type the route does not read (`Content-Type` names the field).
    static func unsupportedMediaType(_ contentType: String?, accepted: [String]) -> Problem {
        let sent = contentType.map { "as \"\($0.prefix(100))\"" } ?? "without a Content-Type"
        return Problem(.unsupportedMediaType, type: "/problems/unsupported-media-type", title: "Unsupported media type",
                       detail: "the body is sent \(sent); this route reads \(accepted.joined(separator: ", "))", field: "Content-Type")
    }

    static func tooLarge(_ limit: Int) -> Problem {
        Problem(.contentTooLarge, type: "/problems/too-large", title: "Request body too large",
                detail: "the body is larger than the limit of \(limit) bytes")
    }

    /// The problem a Logbook or log error stands for.
    static func from(_ error: any Error) -> Problem? {
        switch error {
        case let problem as Problem:
            return problem
        case let error as LogbookError:
            return from(error)
        case let error as EventStoreError:
            return from(error)
        case let error as DomainCodingError:
            return from(error)
        case let error as InputError:
            return badRequest(error.detail, field: error.field)
        case let error as TimestampParseError:
            return badRequest(error.description)
        case let error as WorkoutFileError where error.code == .limitExceeded:
            // A file past one of the reader's stated limits (inflated size, points, workouts…).
            return Problem(.contentTooLarge, type: "/problems/file-limit", title: "The file exceeds a limit",
                           detail: error.description, field: error.line.map { "line \($0)" } ?? error.byteOffset.map { "byte \($0)" })
        case let error as WorkoutFileError:
            // An uploaded workout file that cannot be read: where, by byte offset or line.
            return Problem(.unprocessableContent, type: "/problems/unreadable-file", title: "The file cannot be read",
                           detail: error.description, field: error.line.map { "line \($0)" } ?? error.byteOffset.map { "byte \($0)" })
        default:
            return nil
        }
    }

    static func from(_ error: LogbookError) -> Problem {
        switch error.code {
        case .ruleViolation:
            let rule = error.rule?.rawValue ?? "rule"
            return Problem(.unprocessableContent, type: "/problems/rule/\(rule)", title: "Rule violated: \(rule)",
                           detail: error.message, rule: rule)
        case .notFound:
            return notFound("no \(error.kind ?? "item") \"\(error.id ?? "")\"")
        case .invalidArgument:
            let field = error.field ?? "argument"
            return badRequest("\(field): \(error.message)", field: field)
        case .conflict:
            return Problem(.conflict, type: "/problems/conflict", title: "Conflict", detail: "\(error.stream ?? ""): \(error.message)")
        case .versionConflict:
            return Problem(.conflict, type: "/problems/version-conflict", title: "Version conflict",
                           detail: "\(error.stream ?? "") is at version \(error.currentVersion.map(String.init) ?? "none"), not \(error.expectedVersion.map(String.init) ?? "?")",
                           currentVersion: error.currentVersion)
        case .log:
            if let logError = error.logError { return from(logError) }
        case .coding:
            if let codingError = error.codingError { return from(codingError) }
        case .idempotencyConflict:
            return Problem(.unprocessableContent, type: "/problems/idempotency-conflict", title: "Idempotency key reused",
                           detail: error.description, field: "Idempotency-Key")
        case .notCaughtUp:
            return Problem(.serviceUnavailable, type: "/problems/not-caught-up", title: "Read models behind", detail: error.description)
        case .busy:
            var problem = Problem(.tooManyRequests, type: "/problems/too-much-uncached-work", title: "Too much uncached work", detail: error.description)
            problem.retryAfterSeconds = error.retryAfterSeconds
            return problem
        default:
            break
        }
        return internalFailure(type: "/problems/storage", title: "Storage failure", cause: error.description)
    }

    static func from(_ error: EventStoreError) -> Problem {
        switch error.code {
        case .wrongExpectedVersion:
            return Problem(.conflict, type: "/problems/version-conflict", title: "Version conflict",
                           detail: error.description, field: error.stream, currentVersion: error.actualVersion)
        case .idempotencyConflict, .eventIdInUse:
            return Problem(.conflict, type: "/problems/idempotency-conflict", title: "Idempotency conflict", detail: error.description)
        case .eventTooLarge:
            return tooLarge(error.limit ?? 0)
        case .closed, .readOnly:
            return Problem(.serviceUnavailable, type: "/problems/unavailable", title: "Unavailable", detail: error.description)
        case .unavailable:
            // The database's own words (its host, its SQL state) stay in the server's log.
            return internalFailure(.serviceUnavailable, type: "/problems/unavailable", title: "Unavailable", cause: error.description)
        case .corruption, .storage:
            return internalFailure(type: "/problems/storage", title: "Storage failure", cause: error.description)
        default:
            return badRequest(error.description)
        }
    }

    static func from(_ error: DomainCodingError) -> Problem {
        switch error {
        case .invalidJSON(_, let path, let reason):
            // The body is the event's `data`: name fields as the client wrote them.
            let field = path == "data" ? "body" : path.hasPrefix("data.") ? String(path.dropFirst(5)) : path
            return badRequest("\(field): \(reason)", field: field)
        case .unknownEventType(let type):
            return badRequest("unknown event type \"\(type)\"", field: "type")
        case .unknownSchemaVersion:
            return badRequest(error.description, field: "schemaVersion")
        case .undecodable:
            return internalFailure(type: "/problems/storage", title: "Undecodable event", cause: error.description)
        }
    }
}
