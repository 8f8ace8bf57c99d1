public import Logging
public import ServiceLifecycle
import LogbookWebhooks

extension LogbookRoutes {
    /// The services the routes need running beside them, in the order a service group is given
    /// them (it stops them in reverse): ``LogbookService``, which closes the Logbook last; webhook
    /// delivery, when the configuration delivers webhooks; the server's presence and the
    /// overview's sampler, for the console; the week closer, when the configuration has an
    /// interval for it; and the administrative jobs, which end first. Put the HTTP server after
    /// them (Hummingbird's `Application` does), so it drains before any of them stops.
    public func services(logger: Logger) -> [any Service] {
        var services: [any Service] = [LogbookService(logbook: logbook)]
        if configuration.deliversWebhooks { services.append(WebhookService(dispatcher: webhooks)) }
        services.append(ServerPresence(logbook: logbook, server: server, logger: logger))
        services.append(OverviewSamplingService(sampler: overview))
        if let interval = configuration.weekClosingInterval {
            services.append(WeekClosingService(logbook: logbook, interval: interval, logger: logger))
        }
        services.append(jobs)
        return services
    }
}
