public import Foundation
public import OpenAPIRuntime
public import OpenAPIURLSession

extension Client {
    /// A client of the Logbook server at `serverURL` (its root, e.g. `https://logbook.example`), whose
    /// requests carry a bearer token from `tokens` and read the log's times with ``LogTimes``.
    ///
    /// With a `cache` (one per signed-in user), reads are answered through it (``QueryCache``).
    /// With a `journal` (one per signed-in user), commands are journaled before they are sent and
    /// sent in order until the server answers them (``CommandJournal``); it starts sending the
    /// commands a previous run left in it. `transport` defaults to URLSession's; `middlewares` run
    /// after the token is added, in order.
    public init(
        logbook serverURL: URL, tokens: any AccessTokenProvider, cache: QueryCache? = nil, journal: CommandJournal? = nil,
        transport: any ClientTransport = URLSessionTransport(), middlewares: [any ClientMiddleware] = []
    ) {
        let caching: [any ClientMiddleware] = cache.map { [$0] } ?? []
        let sending = caching + [BearerAuthentication(tokens: tokens)] + middlewares
        if let journal {
            let sender = JournalSender(serverURL: serverURL, transport: transport, middlewares: sending)
            Task { await journal.attach(sender) }
        }
        let journaling: [any ClientMiddleware] = journal.map { [$0] } ?? []
        self.init(
            serverURL: serverURL, configuration: Configuration(dateTranscoder: LogTimes()), transport: transport,
            middlewares: journaling + sending)
    }
}
