public import ServiceLifecycle

/// Takes an overview sample every ``interval`` in the background (``LogbookServer`` runs it), so
/// the console's charts cover the last 5 minutes whether or not anyone was watching, and stall
/// detection keeps running between `/metrics` scrapes. Without it the sampler samples only when
/// asked.
public struct OverviewSamplingService: Service {
    public let sampler: OverviewSampler
    public let interval: Duration

    public init(sampler: OverviewSampler, interval: Duration = .seconds(1)) {
        self.sampler = sampler
        self.interval = interval
    }

    /// Samples until graceful shutdown; a sample that fails (the log briefly unavailable) is skipped.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                _ = try? await sampler.overview()
                try? await Task.sleep(for: interval)
            }
        }
    }
}
