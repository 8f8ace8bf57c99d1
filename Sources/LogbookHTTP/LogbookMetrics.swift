import EventLog
import Foundation
import Logbook
import LogbookWebhooks
import Metrics
public import Prometheus
import Synchronization

/// Logbook's metrics, recorded through swift-metrics into one Prometheus registry (injected, so
/// a host can share its own, and tests can run several servers in one process without the
/// process-wide bootstrap): request latency per route, appends, commit (fsync) sizes, cache
/// hits, projection lag. Log and cache counters are sampled at scrape time from the store's
/// own atomic counters, so the write path pays nothing for them.
public final class LogbookMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    private let timers = Mutex<[String: Metrics.Timer]>([:])
    private let previous = Mutex(Sampled())

    /// What the last scrape saw, to turn absolute counts into counter increments.
    private struct Sampled {
        var events = 0, appends = 0, rejected = 0, commits = 0
        var commitSizes: [Int] = []
        var cacheHits: [String: Int] = [:], cacheMisses: [String: Int] = [:]
    }

    /// Metrics recorded into `registry` (a fresh one by default; pass the host's to share its `/metrics`).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100), .seconds(1),
        ]
        factory.valueHistogramBuckets["logbook_log_commit_events"] = WriterStatistics.commitSizeBounds.map(Double.init)
        self.factory = factory
    }

    /// Records one request's duration under its route template (not the raw path, so the
    /// number of series stays bounded).
    func recordRequest(route: String, method: String, status: Int, nanoseconds: UInt64) {
        let key = "\(method) \(route) \(status)"
        let timer = timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = Metrics.Timer(
                label: "logbook_http_request_duration_seconds",
                dimensions: [("method", method), ("route", route), ("status", "\(status)")], factory: factory)
            timers[key] = timer
            return timer
        }
        timer.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// The Prometheus text exposition, after sampling the log, the caches, the projections and
    /// the live subscriptions.
    func exposition(
        of logbook: Logbook, subscriptions: LiveSubscriptions, webhooks: WebhookDispatcher? = nil, overview: OverviewSampler? = nil
    ) async -> [UInt8] {
        let projections = (try? await logbook.projectionStatus()) ?? []
        let (streaming, slowest) = subscriptions.snapshot()
        var subscriptionLag: (events: UInt64, seconds: Double) = (0, 0)
        if let slowest, let head = projections.first?.head, slowest < head {
            subscriptionLag = (head - slowest, (try? await logbook.secondsWaiting(after: Position(slowest))) ?? 0)
        }
        sample(logbook, projections: projections)
        Gauge(label: "logbook_subscriptions", factory: factory).record(streaming)
        Gauge(label: "logbook_subscription_lag_events", factory: factory).record(Int64(clamping: subscriptionLag.events))
        Gauge(label: "logbook_subscription_lag_seconds", factory: factory).record(subscriptionLag.seconds)
        // Per webhook (at most 64 series each): how far behind, failing how often, holding how many dead letters.
        for webhook in (try? await webhooks?.list()) ?? [] {
            let dimensions = [("webhook", webhook.id)]
            Gauge(label: "logbook_webhook_lag_events", dimensions: dimensions, factory: factory).record(Int64(clamping: webhook.lagEvents))
            Gauge(label: "logbook_webhook_failures", dimensions: dimensions, factory: factory).record(webhook.failures)
            Gauge(label: "logbook_webhook_dead_letters", dimensions: dimensions, factory: factory).record(webhook.deadLetters.count)
            Gauge(label: "logbook_webhook_events_delivered", dimensions: dimensions, factory: factory).record(Int64(clamping: webhook.eventsDelivered))
        }
        // Stall detection: behind the log and not moving for the sampler's stall time.
        for model in (try? await overview?.overview())?.readModels ?? [] {
            let dimensions = [("projection", model.projection.rawValue)]
            Gauge(label: "logbook_projection_stalled", dimensions: dimensions, factory: factory).record(model.stalled ? 1 : 0)
            Gauge(label: "logbook_projection_stalled_seconds", dimensions: dimensions, factory: factory).record(model.stalledSeconds)
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16 << 10)
        registry.emit(into: &buffer)
        return buffer
    }

    private func sample(_ logbook: Logbook, projections: [ReadModelStatus]) {
        let cacheStatus = logbook.cacheStatus()
        let head = projections.first?.head ?? 0
        let statistics = logbook.log.statistics
        previous.withLock { last in
            Gauge(label: "logbook_log_head_position", factory: factory).record(Int64(clamping: head))
            if let statistics {
                let now = Sampled(events: statistics.events, appends: statistics.appends, rejected: statistics.rejected,
                                  commits: statistics.transactions, commitSizes: statistics.commitSizes)
                Counter(label: "logbook_log_events_appended_total", factory: factory).increment(by: max(0, now.events - last.events))
                Counter(label: "logbook_log_appends_total", factory: factory).increment(by: max(0, now.appends - last.appends))
                Counter(label: "logbook_log_appends_rejected_total", factory: factory).increment(by: max(0, now.rejected - last.rejected))
                Counter(label: "logbook_log_commits_total", factory: factory).increment(by: max(0, now.commits - last.commits))
                // Each commit lands in the bucket of its size; recording the bucket's bound reproduces the
                // histogram's buckets exactly (its sum is an upper bound).
                let sizes = Recorder(label: "logbook_log_commit_events", factory: factory)
                for (bucket, count) in now.commitSizes.enumerated() {
                    let bound = bucket < WriterStatistics.commitSizeBounds.count ? WriterStatistics.commitSizeBounds[bucket] : 1 << 17
                    for _ in 0..<max(0, count - (bucket < last.commitSizes.count ? last.commitSizes[bucket] : 0)) { sizes.record(bound) }
                }
                last.events = now.events
                last.appends = now.appends
                last.rejected = now.rejected
                last.commits = now.commits
                last.commitSizes = now.commitSizes
            }
            for cache in cacheStatus {
                let dimensions = [("cache", cache.name)]
                Counter(label: "logbook_cache_hits_total", dimensions: dimensions, factory: factory)
                    .increment(by: max(0, cache.hits - (last.cacheHits[cache.name] ?? 0)))
                Counter(label: "logbook_cache_misses_total", dimensions: dimensions, factory: factory)
                    .increment(by: max(0, cache.misses - (last.cacheMisses[cache.name] ?? 0)))
                Gauge(label: "logbook_cache_entries", dimensions: dimensions, factory: factory).record(cache.entries)
                Gauge(label: "logbook_cache_bytes", dimensions: dimensions, factory: factory).record(cache.bytes)
                last.cacheHits[cache.name] = cache.hits
                last.cacheMisses[cache.name] = cache.misses
            }
            for projection in projections {
                let dimensions = [("projection", projection.projection.rawValue)]
                Gauge(label: "logbook_projection_lag_events", dimensions: dimensions, factory: factory).record(Int64(clamping: projection.lag))
                Gauge(label: "logbook_projection_lag_seconds", dimensions: dimensions, factory: factory).record(projection.lagSeconds)
                Gauge(label: "logbook_projection_position", dimensions: dimensions, factory: factory)
                    .record(Int64(clamping: projection.position))
                // An upgrade building the next version beside the live one: 1 and its lag while it does.
                Gauge(label: "logbook_projection_upgrading", dimensions: dimensions, factory: factory)
                    .record(projection.upgrade == nil ? 0 : 1)
                Gauge(label: "logbook_projection_upgrade_lag_events", dimensions: dimensions, factory: factory)
                    .record(Int64(clamping: projection.upgrade?.lag ?? 0))
            }
        }
    }
}
