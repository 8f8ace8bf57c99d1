import EventLog
import Logbook
import LogbookOutbound
import Logging

/// What a ``WebhookWorker`` sends its batches through and reports each step to, with its
/// generation: the ``WebhookDispatcher``, or a test's own. A report from a worker that no longer
/// speaks for its webhook throws `CancellationError` (or answers nil), which ends the worker.
protocol WebhookDeliveryHost: Actor {
    /// Sends `batch` once; nil when the receiver took it.
    func send(_ batch: WebhookBatch, to webhook: Webhook) async -> DeliveryFailure?
    /// The batch was taken: the checkpoint moves to `through`.
    func delivered(_ id: String, _ generation: Int, batch: WebhookBatch, through: Position) async throws
    /// Events the webhook does not want were passed over, through `through`.
    func skipped(_ id: String, _ generation: Int, through: Position) async throws
    /// Attempt `attempt` failed; the next comes after `delay`.
    func failed(_ id: String, _ generation: Int, attempt: Int, error: String, retryIn delay: Duration) async
    /// The worker failed; it resumes from the position answered (nil: it ends).
    func workerFailed(_ id: String, _ generation: Int, error: String, retryIn delay: Duration) async -> Position?
    /// A batch became a dead letter and the checkpoint moves to `through`; false: delivery stops.
    func deadLettered(
        _ id: String, _ generation: Int, first: UInt64, last: UInt64, events: Int, attempts: Int, error: String, through: Position
    ) async throws -> Bool
}

/// The loop that delivers one webhook: reads the log after its checkpoint (only the types it
/// wants; users filtered here), cuts batches of at most ``WebhookLimits/maxBatchEvents`` events
/// and ``WebhookLimits/maxBatchBytes`` bytes, and sends each until the receiver takes it or the
/// attempts run out. It sends through and reports every step to its host (the
/// ``WebhookDispatcher``, which signs, POSTs and stores the checkpoint), and ends when cancelled,
/// when the log closes, or when the host stops listening to it (a newer worker, a pause, a
/// delete). If reading the log or storing the checkpoint fails, it starts again from the
/// checkpoint, backing off.
struct WebhookWorker: Sendable {
    let host: any WebhookDeliveryHost
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
                guard let checkpoint = await host.workerFailed(webhook.id, generation, error: "\(error)", retryIn: delay) else { return }
                from = checkpoint
                do { try await Task.sleep(for: delay) } catch { return }
            }
        }
    }

    /// Reads, encodes and sends batches in order. One batch is in flight while the next is read
    /// and encoded; a batch is sent only once the one before it was delivered (or dead-lettered).
    /// When delivery stops, the batch in flight is cancelled and waited for: one the receiver took
    /// meanwhile still moves the checkpoint before the worker ends.
    private func deliver(after start: Position) async throws {
        var sending = InFlight()
        do {
            try await deliver(after: start, sending: &sending)
        } catch {
            await sending.settle()
            throw error
        }
    }

    private func deliver(after start: Position, sending: inout InFlight) async throws {
        var iterator = logbook.log.subscribe(after: start, filter: webhook.logFilter).makeAsyncIterator()
        let subjects = webhook.subjects
        while true {
            try Task.checkCancellation()
            guard let elements = try await iterator.nextBatch(limit: policy.limits.maxBatchEvents) else {
                _ = try await sending.finish()
                return
            }
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
                    let covered = rest.isEmpty ? through : Position(batch.last)
                    guard try await sending.finish() else { return }
                    sending.start { try await send(batch, through: covered) }
                case .unencodable(let event, let reason):
                    // It cannot be sent: a dead letter of its own, unattempted; delivery goes on.
                    guard try await sending.finish() else { return }
                    rest = rest.dropFirst()
                    let position = event.position.rawValue
                    guard try await host.deadLettered(
                        webhook.id, generation, first: position, last: position, events: 1, attempts: 0,
                        error: "no wire form: \(reason)", through: rest.isEmpty ? through : event.position)
                    else { return }
                }
            }
            if wanted.isEmpty {
                guard try await sending.finish() else { return }
                try await host.skipped(webhook.id, generation, through: through)
            }
        }
    }

    /// The batch being sent while the next is read and encoded.
    private struct InFlight {
        private var task: Task<Bool, any Error>?

        /// Starts sending (the previous send must have finished).
        mutating func start(_ send: @escaping @Sendable () async throws -> Bool) {
            task = Task { try await send() }
        }

        /// Waits for the send in flight: true when there was none or it was delivered or
        /// dead-lettered, false when the webhook paused itself. Cancelling the caller cancels it.
        mutating func finish() async throws -> Bool {
            guard let running = task else { return true }
            task = nil
            return try await withTaskCancellationHandler { try await running.value } onCancel: { running.cancel() }
        }

        /// Cancels the send in flight and waits for it to end, whatever its outcome.
        mutating func settle() async {
            guard let running = task else { return }
            task = nil
            running.cancel()
            _ = await running.result
        }
    }

    /// Sends `batch` until it is taken or becomes a dead letter; false when the webhook paused itself.
    private func send(_ batch: WebhookBatch, through: Position) async throws -> Bool {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            attempt += 1
            guard let failure = await host.send(batch, to: webhook) else {
                try await host.delivered(webhook.id, generation, batch: batch, through: through)
                return true
            }
            // A send cut short by a stop is no failure of the receiver's.
            try Task.checkCancellation()
            if attempt >= policy.maxAttempts {
                return try await host.deadLettered(
                    webhook.id, generation, first: batch.first, last: batch.last, events: batch.count, attempts: attempt,
                    error: failure.description, through: through)
            }
            let delay = policy.delay(afterAttempt: attempt, unit: Double.random(in: 0...1))
            await host.failed(webhook.id, generation, attempt: attempt, error: failure.description, retryIn: delay)
            try await Task.sleep(for: delay)
        }
    }
}
