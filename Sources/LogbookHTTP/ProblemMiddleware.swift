import Hummingbird
import Logging

/// Turns every error a route throws into `application/problem+json`, and logs the unexpected
/// ones (500) with the request id. The server keeps serving whatever a request did.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem: Problem
            if let known = Problem.from(error) {
                problem = known
            } else if let http = error as? HTTPError {
                problem = Problem(http.status, type: "/problems/http", title: http.status.reasonPhrase,
                                  detail: http.body ?? http.status.reasonPhrase)
            } else {
                context.logger.error("unexpected error", metadata: ["error": "\(error)"])
                problem = Problem(.internalServerError, type: "/problems/internal", title: "Internal error", detail: "\(error)")
            }
            if problem.status.code >= 500 {
                context.logger.error("request failed", metadata: ["status": "\(problem.status.code)", "detail": "\(problem.detail)"])
            }
            return try problem.response(from: request, context: context)
        }
    }
}
