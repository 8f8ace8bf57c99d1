import EventLog
import Logbook
import Logging

/// The loop that delivers one webhook: reads the log after its checkpoint (only the types it
/// wants; users filtered here), cuts batches of at most ``WebhookLimits/maxBatchEvents`` events
/// and ``WebhookLimits/maxBatchBytes`` bytes, and sends each until the receiver takes it or the
/// attempts run out. It reports every step to the ``WebhookDispatcher``, which stores the
/// checkpoint, and ends when cancelled, when the log closes, or when the dispatcher stops
/// listening to it (a newer worker, a pause, a delete). If reading the log or storing the
/// checkpoint fails, it starts again from the checkpoint, backing off.
struct WebhookWorker: Sendable {
    let dispatcher: WebhookDispatcher
    let logbook: Logbook
    let webhook: Webhook
    let generation: Int
    let policy: WebhookPolicy
    let logger: Logger

    func run(after start: Position) async {
        var from = start
        var failures = 0
        while !Task.isCancelled {
            do {
                try await deliver(after: from)
                return
            } catch is CancellationError {
                return
            } catch {
                failures += 1
                let delay = policy.delay(afterAttempt: failures, unit: Double.random(in: 0...1))
                guard let checkpoint = await dispatcher.workerFailed(webhook.id, generation, error: "\(error)", retryIn: delay) else { return }
                from = checkpoint
                do { try await Task.sleep(for: delay) } catch { return }
            }
        }
    }

    private func deliver(after start: Position) async throws {
        var iterator = logbook.log.subscribe(after: start, filter: webhook.logFilter).makeAsyncIterator()
        let subjects = webhook.subjects
        while true {
            try Task.checkCancellation()
            guard let elements = try await iterator.nextBatch(limit: policy.limits.maxBatchEvents) else { return }
            var wanted: [RecordedEvent] = []
            var through = start
            for element in elements {
                switch element {
                case .event(let event):
                    through = max(through, event.position)
                    if subjects.wants(event.envelope.subject) { wanted.append(event) }
                case .scanned(let position):
                    through = max(through, position)
                }
            }
            try await logbook.loadKeys(opening: wanted)
            var rest = wanted[...]
            while !rest.isEmpty {
                switch WebhookBatch.make(webhookId: webhook.id, events: rest, maxBytes: policy.limits.maxBatchBytes, of: logbook) {
                case .batch(let batch, let taken):
                    rest = rest.dropFirst(taken)
                    // The checkpoint covers what was read only once the last of it is delivered.
                    guard try await send(batch, through: rest.isEmpty ? through : Position(batch.last)) else { return }
                case .unencodable(let event, let reason):
                    // It cannot be sent: a dead letter of its own, unattempted; delivery goes on.
                    rest = rest.dropFirst()
                    let position = event.position.rawValue
                    guard try await dispatcher.deadLettered(
                        webhook.id, generation, first: position, last: position, events: 1, attempts: 0,
                        error: "no wire form: \(reason)", through: rest.isEmpty ? through : event.position)
                    else { return }
                }
            }
            if wanted.isEmpty { try await dispatcher.skipped(webhook.id, generation, through: through) }
        }
    }

    /// Sends `batch` until it is taken or becomes a dead letter; false when the webhook paused itself.
    private func send(_ batch: WebhookBatch, through: Position) async throws -> Bool {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            attempt += 1
            guard let failure = await dispatcher.send(batch, to: webhook) else {
                try await dispatcher.delivered(webhook.id, generation, batch: batch, through: through)
                return true
            }
            // A send cut short by a stop is no failure of the receiver's.
            try Task.checkCancellation()
            if attempt >= policy.maxAttempts {
                return try await dispatcher.deadLettered(
                    webhook.id, generation, first: batch.first, last: batch.last, events: batch.count, attempts: attempt,
                    error: failure.description, through: through)
            }
            let delay = policy.delay(afterAttempt: attempt, unit: Double.random(in: 0...1))
            await dispatcher.failed(webhook.id, generation, attempt: attempt, error: failure.description, retryIn: delay)
            try await Task.sleep(for: delay)
        }
    }
}
