public import ServiceLifecycle

/// Runs a ``WebhookDispatcher`` as a service: starts it, and at graceful shutdown stops its
/// workers (before the Logbook closes, when registered after ``LogbookService``).
public struct WebhookService: Service {
    public let dispatcher: WebhookDispatcher

    public init(dispatcher: WebhookDispatcher) { self.dispatcher = dispatcher }

    public func run() async throws {
        try await dispatcher.start()
        try? await gracefulShutdown()
        await dispatcher.shutdown()
    }
}
