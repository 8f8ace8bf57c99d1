import EventLog
import Logbook
import LogbookOutbound
import Logging

/// What a ``WebhookWorker`` sends its batches through and reports each step to, with its
/// generation: the ``WebhookDispatcher``, or a test's own. A report from a worker that no longer
/// speaks for its webhook throws `CancellationError` (or answers nil), which ends the worker.
protocol WebhookDeliveryHost: Actor {
    /// Sends `batch` once for the worker of `generation`; nil when the receiver took it.
    func send(_ batch: WebhookBatch, to webhook: Webhook, _ generation: Int) async -> DeliveryFailure?
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

    /// Reads, encodes and sends batches in order. The next batch is read and encoded while one is
    /// in flight, then waits, made, behind it and goes the moment that one is taken; a batch is
    /// sent only once the one before it was delivered (or dead-lettered). When delivery stops, the
    /// batches in flight and waiting are cancelled and waited for: one the receiver took
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
            // A read begins with at most one batch held (in flight, or made and waiting).
            guard try await sending.makeRoom() else { return }
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
                    guard try await sending.makeRoom() else { return }
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

    /// The batches being sent while the next is read and encoded: the one in flight, and at most
    /// one made batch waiting behind it. The waiting send is started at once, chained after the
    /// one before it: it sends as soon as that one ends, without waiting for the worker to be
    /// scheduled, and not at all if that one failed or paused the webhook.
    private struct InFlight {
        /// Oldest first; at most two.
        private var tasks: [Task<Bool, any Error>] = []

        /// Queues a send behind the one in flight (``makeRoom()`` must have left room for it).
        mutating func start(_ send: @escaping @Sendable () async throws -> Bool) {
            precondition(tasks.count < 2, "a webhook worker queued a third batch")
            let before = tasks.last
            tasks.append(Task {
                // What the one before ended with passes on: an error, or a pause that ends delivery.
                if let before, try await !before.value { return false }
                return try await send()
            })
        }

        /// Waits until fewer than two sends are held: true when the one waited for (if any) was
        /// delivered or dead-lettered, false when the webhook paused itself. Cancelling the
        /// caller cancels what is held.
        mutating func makeRoom() async throws -> Bool {
            guard tasks.count >= 2 else { return true }
            let oldest = tasks.removeFirst()
            return try await Self.wait(for: oldest, cancelling: tasks + [oldest])
        }

        /// Waits for every send held: true when there was none or the last was delivered or
        /// dead-lettered (each waits for the one before it), false when the webhook paused itself.
        mutating func finish() async throws -> Bool {
            guard let last = tasks.last else { return true }
            let held = tasks
            tasks = []
            return try await Self.wait(for: last, cancelling: held)
        }

        /// Cancels the sends held and waits for them to end, whatever their outcome.
        mutating func settle() async {
            let held = tasks
            tasks = []
            for task in held { task.cancel() }
            for task in held { _ = await task.result }
        }

        private static func wait(for task: Task<Bool, any Error>, cancelling held: [Task<Bool, any Error>]) async throws -> Bool {
            try await withTaskCancellationHandler { try await task.value } onCancel: { for each in held { each.cancel() } }
        }
    }

    /// Sends `batch` until it is taken or becomes a dead letter; false when the webhook paused itself.
    private func send(_ batch: WebhookBatch, through: Position) async throws -> Bool {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            attempt += 1
            guard let failure = await host.send(batch, to: webhook, generation) else {
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
