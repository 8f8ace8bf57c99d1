import HTTPTypes
import Hummingbird
import Logbook
import LogbookInput

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
        if QueryValues.noneMatch(request.headers[values: .ifNoneMatch], names: tag) {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "private, no-cache"])
        }
        return response
    }
}
