import EventLog
import Logbook
import LogbookOutbound

/// What the workers report: each step is recorded in ``WebhookDeliveries``, which answers
/// whether to store the checkpoint now; and the one way a batch is sent (signed, to the checked
/// address).
extension WebhookDispatcher: WebhookDeliveryHost {
    /// A batch reached the receiver: the checkpoint moves to `through`, and is stored every
    /// ``WebhookPolicy/checkpointEveryBatches`` batches or ``WebhookPolicy/skippedCheckpointInterval``.
    /// The store runs behind delivery: the next batch goes out while it is written. A store still
    /// running when the next one is due is waited for first, and what it threw is thrown here.
    func delivered(_ id: String, _ generation: Int, batch: WebhookBatch, through: Position) async throws {
        let at = logbook.configuration.clock.now().instant
        guard let store = deliveries.delivered(id, generation, events: batch.count, through: through, deliveredAt: at, now: .now) else {
            throw CancellationError()
        }
        if store { try await persistBehind(id, generation) }
    }

    /// The worker passed over events the webhook does not want, through `through`.
    func skipped(_ id: String, _ generation: Int, through: Position) async throws {
        guard let store = deliveries.skipped(id, generation, through: through, now: .now) else { throw CancellationError() }
        if store { try await persist(id) }
    }

    /// Attempt `attempt` failed; the next is due after `delay`.
    func failed(_ id: String, _ generation: Int, attempt: Int, error: String, retryIn delay: Duration) {
        let next = logbook.configuration.clock.now().instant + delay.microseconds
        guard deliveries.failed(id, generation, attempt: attempt, error: error, nextAttemptAt: next) else { return }
        logger.warning("webhook delivery failed", metadata: ["webhook": "\(id)", "attempt": "\(attempt)", "error": "\(error)"])
    }

    /// The worker itself failed (reading the log, storing its checkpoint): it starts again from
    /// the checkpoint after `delay`. Answers where from, or nil when it no longer speaks for the webhook.
    func workerFailed(_ id: String, _ generation: Int, error: String, retryIn delay: Duration) -> Position? {
        let next = logbook.configuration.clock.now().instant + delay.microseconds
        let from = deliveries.workerFailed(id, generation, error: "delivery stopped, resuming in \(delay): \(error)", nextAttemptAt: next)
        if from != nil { logger.error("webhook worker failed", metadata: ["webhook": "\(id)", "error": "\(error)"]) }
        return from
    }

    /// The batch failed `attempts` times (0: it could not even be made): it becomes a dead
    /// letter, stored with the checkpoint past it in one write. Answers false when the webhook
    /// paused itself (its dead letters are full).
    func deadLettered(_ id: String, _ generation: Int, first: UInt64, last: UInt64, events: Int, attempts: Int, error: String, through: Position) async throws -> Bool {
        let letter = DeadLetter(
            first: first, last: last, events: events, attempts: attempts, error: DeadLetter.shortened(error),
            failedAt: logbook.configuration.clock.now().instant)
        guard let goesOn = deliveries.deadLettered(id, generation, letter: letter, through: through) else { throw CancellationError() }
        logger.error("webhook batch dead-lettered", metadata: ["webhook": "\(id)", "deadLetter": "\(letter.id)", "error": "\(error)"])
        try await persist(id)
        return goesOn
    }

    /// Sends `batch` to `webhook` now for its worker of `generation`; nothing is sent for a
    /// worker of another generation or a paused webhook.
    func send(_ batch: WebhookBatch, to webhook: Webhook, _ generation: Int) async -> DeliveryFailure? {
        guard deliveries.isCurrent(webhook.id, generation), deliveries[webhook.id]?.record.webhook.paused == false else { return .notRunning }
        return await send(batch, to: webhook)
    }

    /// Sends `batch` to `webhook` now (a worker's, or an administrator's replay of a dead letter,
    /// paused or not), signed with its secrets in use and the Logbook's clock; nil when the
    /// receiver took it.
    func send(_ batch: WebhookBatch, to webhook: Webhook) async -> DeliveryFailure? {
        guard let clients, let entry = deliveries[webhook.id] else { return .notRunning }
        guard let signing = entry.signing, !signing.isEmpty else { return .secretUnavailable }
        let seconds = logbook.configuration.clock.now().instant / 1_000_000
        let sender = WebhookSender(
            clients: clients, addresses: AddressPolicy(allowsPrivate: policy.allowPrivateAddresses), resolver: resolver, logger: logger)
        return await sender.send(batch, to: webhook, secrets: signing, seconds: seconds, timeout: policy.requestTimeout)
    }
}
