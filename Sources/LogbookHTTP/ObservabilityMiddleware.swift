import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every response an `X-Request-Id` (the id in the request's log metadata), records the
/// request's duration under its route template, and logs it (debug for successes, notice for
/// client errors, error for server errors).
struct ObservabilityMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: LogbookMetrics?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        var response = try await next(request, context)
        let status = response.status.code
        let route = context.endpointPath ?? "unmatched"
        response.headers[HTTPField.Name("X-Request-Id")!] = context.id
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        metrics?.recordRequest(route: route, method: request.method.rawValue, status: status, nanoseconds: elapsed)
        let level: Logger.Level = status >= 500 ? .error : status >= 400 ? .notice : .debug
        context.logger.log(level: level, "\(request.method.rawValue) \(request.uri.path) \(status)", metadata: [
            "route": "\(route)", "status": "\(status)", "micros": "\(elapsed / 1000)",
        ])
        return response
    }
}
