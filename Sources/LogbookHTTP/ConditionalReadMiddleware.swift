import HTTPTypes
import Hummingbird
import Logbook

/// Conditional reads: a read whose answer comes from Logbook's queries answers an `ETag` derived
/// from the log positions it depends on (``AnswerTrail``), with `Cache-Control: private,
/// no-cache`, and `304 Not Modified` (no body) when `If-None-Match` names that tag.
///
/// The tag changes exactly when the answer can: an append for the user of a type the answer
/// reads, a catalog change for places, a new day for answers judged by the user's today, the clock
/// for the running workout, a new code version. A write of another user never changes it.
/// Reads that do not go through the queries (the log's pages, administrators' status) carry no tag.
struct ConditionalReadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        let trail = AnswerTrail()
        var response = try await AnswerTrail.$current.withValue(trail) { try await next(request, context) }
        guard response.status == .ok, let tag = trail.entityTag else { return response }
        response.headers[.eTag] = tag
        response.headers[.cacheControl] = "private, no-cache"
        if let condition = request.headers[values: .ifNoneMatch].nonEmpty, Self.matches(condition, tag) {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "private, no-cache"])
        }
        return response
    }

    /// Whether an `If-None-Match` list names `tag`, by the weak comparison RFC 9110 §13.1.2
    /// prescribes for it (`W/` ignored), or is `*`. A malformed member matches nothing.
    static func matches(_ fields: [String], _ tag: String) -> Bool {
        for field in fields {
            for member in field.split(separator: ",") {
                var candidate = member.trimmingCharacters(in: " \t")
                if candidate == "*" { return true }
                if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
                if candidate == tag { return true }
            }
        }
        return false
    }
}

private extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let blanks = Set(set)
        var text = self[...]
        while let first = text.first, blanks.contains(first) { text.removeFirst() }
        while let last = text.last, blanks.contains(last) { text.removeLast() }
        return String(text)
    }
}
