public import Foundation
public import OpenAPIRuntime
public import OpenAPIURLSession

extension Client {
    /// A client of the Logbook server at `serverURL` (its root, e.g. `https://logbook.example`), whose
    /// requests carry a bearer token from `tokens` and read the log's times with ``LogTimes``.
    ///
    /// With a `cache` (one per signed-in user), reads are answered through it (``QueryCache``).
    /// `transport` defaults to URLSession's; `middlewares` run after the token is added, in order.
    public init(
        logbook serverURL: URL, tokens: any AccessTokenProvider, cache: QueryCache? = nil,
        transport: any ClientTransport = URLSessionTransport(), middlewares: [any ClientMiddleware] = []
    ) {
        let caching: [any ClientMiddleware] = cache.map { [$0] } ?? []
        self.init(
            serverURL: serverURL, configuration: Configuration(dateTranscoder: LogTimes()), transport: transport,
            middlewares: caching + [BearerAuthentication(tokens: tokens)] + middlewares)
    }
}
