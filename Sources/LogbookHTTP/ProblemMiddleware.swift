import Hummingbird
import Logging

/// Turns every error a route throws into `application/problem+json`. A failure of the server
/// (5xx) carries a correlation id — the request's id, as in `X-Request-Id` — and is logged with
/// it; a failure inside the server (an unexpected error, the storage, the log's database) tells
/// the client only that it happened, and its own text goes to the log alone. The server keeps
/// serving whatever a request did.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            var problem: Problem
            if let known = Problem.from(error) {
                problem = known
            } else if let http = error as? HTTPError, http.status == .notFound, http.body == nil {
                // The router matched no route: name what was asked for.
                problem = .notFound("no operation \(request.method.rawValue) \(request.uri.path); the API document (openapi.json) lists every one")
            } else if let http = error as? HTTPError {
                problem = Problem(http.status, type: "/problems/http", title: http.status.reasonPhrase,
                                  detail: http.body ?? http.status.reasonPhrase)
            } else {
                problem = .internalFailure(cause: "\(error)")
            }
            if problem.status.code >= 500 {
                let id = context.id
                problem.correlationId = id
                problem.detail += " (correlation id \(id))"
                context.logger.error("request failed", metadata: [
                    "status": "\(problem.status.code)", "correlationId": "\(id)", "detail": "\(problem.detail)", "cause": "\(problem.cause ?? "-")",
                ])
            }
            return try problem.response(from: request, context: context)
        }
    }
}
