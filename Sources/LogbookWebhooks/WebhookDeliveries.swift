import EventLog

/// The webhooks this server delivers, as it holds them: each one's record, how far it has
/// delivered and what the table holds, its worker and that worker's generation, and what this
/// process has seen of it.
///
/// It is a value with no awaits: the dispatcher records here each step a worker reports, and
/// the answer says what to do next. The rules:
/// - Only the current worker of a webhook speaks for it. Each worker started or stopped takes a
///   new generation, unique for the dispatcher's life; a report of another generation changes
///   nothing and is answered nil.
/// - The checkpoint moves as batches are delivered or events passed over. A delivered batch asks
///   for a store every `checkpointEveryBatches` batches, or once `interval` has passed since the
///   last store; events passed over ask only after `interval`.
/// - A checkpoint counts as stored once its write succeeded (``stored(_:through:)``): a write that
///   failed leaves it to the next one.
/// - A dead letter replaces an earlier one of the same batch and moves the checkpoint past it;
///   at `maxDeadLetters` the webhook pauses itself, with its reason, and its worker is retired.
struct WebhookDeliveries: Sendable {
    /// A webhook as this server holds it.
    struct Entry: Sendable {
        var record: WebhookRecord
        /// The secrets that sign its batches, opened (nil: they do not open with the store's key).
        var signing: [String]?
        /// Delivered (or passed over) through here.
        var through: Position
        /// What the table holds.
        var stored: Position
        var storedAt: ContinuousClock.Instant
        /// Batches delivered since the checkpoint was last stored.
        var unstoredBatches = 0
        var worker: Task<Void, Never>?
        var generation = 0
        var batches: UInt64 = 0
        var events: UInt64 = 0
        var failures = 0
        var lastError: String?
        var lastDeliveredAt: Int64?
        var nextAttemptAt: Int64?

        init(record: WebhookRecord, signing: [String]?, through: Position, storedAt: ContinuousClock.Instant) {
            self.record = record
            self.signing = signing
            self.through = through
            self.stored = through
            self.storedAt = storedAt
        }
    }

    /// The webhooks, by id; the admin operations change their records here before storing them.
    var entries: [String: Entry] = [:]
    /// Their ids, in the order they were made.
    private(set) var order: [String] = []
    private var generations = 0

    let checkpointEveryBatches: Int
    /// How long a moved checkpoint may go unstored.
    let interval: Duration
    let maxDeadLetters: Int

    init(policy: WebhookPolicy) {
        checkpointEveryBatches = max(1, policy.checkpointEveryBatches)
        interval = policy.skippedCheckpointInterval
        maxDeadLetters = policy.limits.maxDeadLetters
    }

    subscript(_ id: String) -> Entry? { entries[id] }

    var count: Int { entries.count }

    /// The entries in the order the webhooks were made.
    var ordered: [Entry] { order.compactMap { entries[$0] } }

    // MARK: Membership

    /// Holds webhook `id` (appended to the order; replaces an entry of the same id).
    mutating func add(_ id: String, _ entry: Entry) {
        if entries[id] == nil { order.append(id) }
        entries[id] = entry
    }

    /// Forgets webhook `id`, answering its entry (whose worker the caller stops and awaits).
    mutating func remove(_ id: String) -> Entry? {
        order.removeAll { $0 == id }
        return entries.removeValue(forKey: id)
    }

    /// Forgets every webhook, cancelling their workers (without waiting for them).
    mutating func removeAll() {
        for entry in entries.values { entry.worker?.cancel() }
        entries = [:]
        order = []
    }

    // MARK: Workers

    /// A new generation for webhook `id`'s next worker (cancelling the one it had): nil when it is
    /// not held or is paused. The caller starts the worker and gives it to ``attach(_:to:generation:)``.
    mutating func nextWorker(for id: String) -> (generation: Int, webhook: Webhook, from: Position)? {
        guard var entry = entries[id], !entry.record.webhook.paused else { return nil }
        entry.worker?.cancel()
        entry.worker = nil
        entry.generation = nextGeneration()
        entries[id] = entry
        return (entry.generation, entry.record.webhook, entry.through)
    }

    /// Keeps `worker` as webhook `id`'s, if `generation` is still its current one.
    mutating func attach(_ worker: Task<Void, Never>, to id: String, generation: Int) {
        guard isCurrent(id, generation) else {
            worker.cancel()
            return
        }
        entries[id]?.worker = worker
    }

    /// Cancels webhook `id`'s worker; from now on nothing it reports counts.
    mutating func stopWorker(_ id: String) {
        guard entries[id] != nil else { return }
        entries[id]?.worker?.cancel()
        retireWorker(id)
        entries[id]?.failures = 0
        entries[id]?.nextAttemptAt = nil
    }

    /// Every running worker, cancelled, for the caller to wait for; they keep speaking for their
    /// webhooks until ``retireWorkers()`` (a batch taken while a worker stops still counts).
    func cancelWorkers() -> [Task<Void, Never>] {
        let workers = entries.values.compactMap(\.worker)
        for worker in workers { worker.cancel() }
        return workers
    }

    /// No worker speaks for any webhook from now on.
    mutating func retireWorkers() {
        for id in order { retireWorker(id) }
    }

    private mutating func retireWorker(_ id: String) {
        guard entries[id] != nil else { return }
        let generation = nextGeneration()
        entries[id]?.worker = nil
        entries[id]?.generation = generation
    }

    private mutating func nextGeneration() -> Int {
        generations += 1
        return generations
    }

    /// Whether a worker of `generation` still speaks for webhook `id`.
    func isCurrent(_ id: String, _ generation: Int) -> Bool { entries[id]?.generation == generation }

    // MARK: A worker's reports

    /// A batch of `events` events reached the receiver at `deliveredAt` (microseconds since 1970):
    /// the checkpoint moves to `through`. Answers whether to store it now (nil: not current).
    mutating func delivered(
        _ id: String, _ generation: Int, events: Int, through: Position, deliveredAt: Int64, now: ContinuousClock.Instant
    ) -> Bool? {
        guard isCurrent(id, generation), var entry = entries[id] else { return nil }
        entry.through = through
        entry.batches += 1
        entry.events += UInt64(events)
        entry.failures = 0
        entry.lastError = nil
        entry.nextAttemptAt = nil
        entry.lastDeliveredAt = deliveredAt
        entry.unstoredBatches += 1
        entries[id] = entry
        return entry.unstoredBatches >= checkpointEveryBatches || now - entry.storedAt >= interval
    }

    /// The worker passed over events the webhook does not want, through `through`. Answers
    /// whether to store the checkpoint now (nil: not current).
    mutating func skipped(_ id: String, _ generation: Int, through: Position, now: ContinuousClock.Instant) -> Bool? {
        guard isCurrent(id, generation), let entry = entries[id] else { return nil }
        entries[id]?.through = through
        return now - entry.storedAt >= interval
    }

    /// Attempt `attempt` failed with `error`; the next is due at `nextAttemptAt`. False: not current.
    mutating func failed(_ id: String, _ generation: Int, attempt: Int, error: String, nextAttemptAt: Int64) -> Bool {
        guard isCurrent(id, generation) else { return false }
        entries[id]?.failures = attempt
        entries[id]?.lastError = error
        entries[id]?.nextAttemptAt = nextAttemptAt
        return true
    }

    /// The worker itself failed; it starts again from the checkpoint it answers at `nextAttemptAt`
    /// (nil: not current, so it ends).
    mutating func workerFailed(_ id: String, _ generation: Int, error: String, nextAttemptAt: Int64) -> Position? {
        guard isCurrent(id, generation) else { return nil }
        entries[id]?.lastError = error
        entries[id]?.nextAttemptAt = nextAttemptAt
        return entries[id]?.through
    }

    /// `letter` is kept (replacing one of the same batch) and the checkpoint moves to `through`.
    /// Answers whether delivery goes on — false when the webhook paused itself, its dead letters
    /// full — or nil when the worker is not current.
    mutating func deadLettered(_ id: String, _ generation: Int, letter: DeadLetter, through: Position) -> Bool? {
        guard isCurrent(id, generation), var entry = entries[id] else { return nil }
        entry.record.deadLetters.removeAll { $0.first == letter.first }
        entry.record.deadLetters.append(letter)
        entry.through = through
        entry.failures = 0
        entry.nextAttemptAt = nil
        entry.lastError = letter.error
        let full = entry.record.deadLetters.count >= maxDeadLetters
        if full {
            entry.record.webhook.paused = true
            entry.record.pausedReason = "\(entry.record.deadLetters.count) dead letters, the limit: the receiver keeps failing"
        }
        entries[id] = entry
        if full { retireWorker(id) }
        return !full
    }

    // MARK: Storing

    /// The webhooks whose checkpoint moved and went unstored for ``interval``, in the order they were made.
    func unstored(at now: ContinuousClock.Instant) -> [String] {
        order.filter { id in entries[id].map { $0.stored != $0.through && now - $0.storedAt >= interval } ?? false }
    }

    /// Whether webhook `id`'s checkpoint moved since it was last stored.
    func moved(_ id: String) -> Bool { entries[id].map { $0.stored != $0.through } ?? false }

    /// What to write for webhook `id` now: its record and checkpoint (nil: not held). The
    /// count of batches and the time restart from here.
    mutating func storing(_ id: String, at now: ContinuousClock.Instant) -> (record: WebhookRecord, through: Position)? {
        guard let entry = entries[id] else { return nil }
        entries[id]?.storedAt = now
        entries[id]?.unstoredBatches = 0
        return (entry.record, entry.through)
    }

    /// The table now holds webhook `id`'s checkpoint at `through`.
    mutating func stored(_ id: String, through: Position) {
        if let stored = entries[id]?.stored, stored < through { entries[id]?.stored = through }
    }
}
