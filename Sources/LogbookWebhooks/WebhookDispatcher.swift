import EventLog
import Foundation
public import Logbook
package import LogbookOutbound
public import Logging
package import NIOSSL

/// Delivers the log to webhooks: one worker task per running webhook reads the log from the
/// webhook's checkpoint, POSTs batches in log order, retries with backoff, turns a batch that
/// keeps failing into a dead letter and goes on. At least once: the checkpoint moves only after
/// the receiver's 2xx and is stored every ``WebhookPolicy/checkpointEveryBatches`` batches or
/// each second (and at shutdown), so a crash sends at most those batches again; nothing is lost.
///
/// Workers only read the log (LMDB readers never block its writer) and each waits on its own
/// receiver, so a slow or dead receiver slows neither writers nor other webhooks. Definitions,
/// checkpoints and dead letters live in the log's checkpoint table (``WebhookTable``), so they
/// survive restarts and come with the log's backups. Secrets are sealed there with a key of the
/// store's own (`SecretSeal`, in the key store beside the payload keys), and listings show URLs
/// with their path and query redacted.
///
/// Receivers are reached at public addresses only, unless ``WebhookPolicy/allowPrivateAddresses``:
/// each attempt resolves the URL's host once, checks the address, and connects to that address
/// (`WebhookClients`), so no second lookup can lead it elsewhere.
///
/// On a log several servers share (PostgreSQL, a ``SharedLog``), every server runs a dispatcher
/// and one of them delivers: the holder of the lease `webhooks`, renewed every
/// ``WebhookPolicy/leaseRenewInterval``. The others stand by, list the webhooks from the table,
/// answer changes with 409 naming the holder, and take over from the checkpoints when the lease
/// is free (the holder stopped, or went silent for ``WebhookPolicy/leaseDuration``). Every write
/// is made under the lease, so a holder that lost it writes nothing more: a new holder reads
/// every checkpoint its predecessor stored, and at worst sends again the batches delivered since.
///
/// An actor's methods interleave at their awaits; each operation here changes its state in
/// memory before it awaits, writes through one chain (so records reach the table in the order
/// they were made), and a worker reports with its generation, so a worker a pause, a delete or a
/// newer worker replaced changes nothing.
public actor WebhookDispatcher {
    /// A webhook as this server holds it: its stored record, how far it has delivered, its
    /// worker, and what this process has seen of it.
    struct Entry {
        var record: WebhookRecord
        /// The secrets that sign its batches, opened (nil: they do not open with the store's key).
        var signing: [String]?
        /// Delivered (or passed over) through here.
        var through: Position
        /// What the table holds (skipped stretches are stored at most once a second).
        var stored: Position
        var storedAt: ContinuousClock.Instant
        /// Batches delivered since the checkpoint was last stored.
        var unstoredBatches = 0
        var worker: Task<Void, Never>?
        /// Bumped each time a worker starts or stops: a worker of an older generation reports nothing.
        var generation = 0
        var batches: UInt64 = 0
        var events: UInt64 = 0
        var failures = 0
        var lastError: String?
        var lastDeliveredAt: Int64?
        var nextAttemptAt: Int64?
    }

    /// The lease whose holder delivers webhooks on a log several servers share.
    public static let leaseName = WebhookTable.leaseName

    public let logbook: Logbook
    public let policy: WebhookPolicy
    /// This server, as the lease and the console name it.
    public nonisolated let server: ServerIdentity
    let logger: Logger
    let table: WebhookTable
    /// The log, when several servers share it and one of them delivers.
    let shared: (any SharedLog)?
    /// How hosts are resolved, and how TLS is verified (nil: the system's trust roots).
    private let resolver: any HostResolving
    private let tlsConfiguration: TLSConfiguration?
    /// Whether this server delivers now (it loaded the webhooks and runs their workers): on a
    /// shared log, while it holds the lease; otherwise, from start to shutdown.
    private(set) var delivering = false
    private var takingOver = false
    private var stopping = false
    /// Bumped whenever this server starts or stops delivering: an operation that awaited across
    /// a change writes nothing (its view of the webhooks is another term's).
    private(set) var term = 0
    /// Every worker's generation, unique across terms, so a worker of an earlier term never
    /// passes for a current one.
    private var generations = 0
    /// The lease's holder as last seen, and how long this server may deliver without renewing.
    private(set) var holder: String?
    private var leaseValidUntil: ContinuousClock.Instant?
    private var leaseTasks: [Task<Void, Never>] = []
    /// Stores the checkpoints deliveries moved but did not store (every few batches).
    private var checkpointTask: Task<Void, Never>?
    var entries: [String: Entry] = [:]
    var order: [String] = []
    private var clients: WebhookClients?
    /// The key webhooks' secrets are sealed with, once read or made.
    var seal: SecretSeal?
    private var started = false
    private var starting = false
    /// The last write to the table: each write waits for the one before it.
    private var writes: Task<Void, any Error>?

    /// A dispatcher of `logbook`'s webhooks, on behalf of `server` (by default this process,
    /// started now by the Logbook's clock).
    public init(
        logbook: Logbook, policy: WebhookPolicy = WebhookPolicy(), server: ServerIdentity? = nil,
        logger: Logger = Logger(label: "logbook.webhooks")
    ) {
        self.init(logbook: logbook, policy: policy, server: server, logger: logger, resolver: SystemResolver(), tlsConfiguration: nil)
    }

    /// A dispatcher that resolves hosts with `resolver` and verifies TLS with `tlsConfiguration`
    /// (nil: the system's trust roots): for tests with receivers of their own.
    package init(
        logbook: Logbook, policy: WebhookPolicy, server: ServerIdentity?, logger: Logger, resolver: any HostResolving,
        tlsConfiguration: TLSConfiguration?
    ) {
        self.resolver = resolver
        self.tlsConfiguration = tlsConfiguration
        self.logbook = logbook
        self.policy = policy
        self.logger = logger
        let server = server ?? .local(startedAt: logbook.configuration.clock.now().instant)
        self.server = server
        self.shared = logbook.log as? any SharedLog
        self.table = WebhookTable(log: logbook.log, holder: shared == nil ? nil : server.id)
    }

    // MARK: Starting and stopping

    /// Loads the store's webhooks and starts delivering to every one not paused, each from its
    /// checkpoint — on a shared log, once this server holds the lease (it tries at once, then
    /// every ``WebhookPolicy/leaseRenewInterval``). Calling it again does nothing. A record that
    /// cannot be read is skipped (and logged), not fatal.
    public func start() async throws {
        guard !started, !starting, !stopping else { return }
        guard policy.leaseRenewInterval < policy.leaseDuration else {
            throw LogbookError.invalidArgument(name: "leaseRenewInterval", reason: "must be shorter than leaseDuration (\(policy.leaseDuration))")
        }
        starting = true
        defer { starting = false }
        clients = WebhookClients(tlsConfiguration: tlsConfiguration)
        started = true
        startStoringCheckpoints()
        guard shared != nil else {
            do {
                try await takeOver()
            } catch {
                started = false
                await clients?.shutdown()
                clients = nil
                throw error
            }
            return
        }
        await renewLease()
        // A shutdown that ran meanwhile starts nothing more.
        guard started else { return }
        let interval = policy.leaseRenewInterval
        leaseTasks = [
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    await self.renewLease()
                }
            },
            // Apart from the renewals, which may hang on a database that went away.
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval / 2)
                    guard let self else { return }
                    await self.stepDownIfExpired()
                }
            },
        ]
    }

    /// Stores, every ``WebhookPolicy/skippedCheckpointInterval``, each checkpoint that moved and
    /// was not stored since (deliveries store only every few batches): a quiet webhook's last
    /// batches are not sent again after a crash, and a holder that lost the lease learns it from
    /// the refused store.
    private func startStoringCheckpoints() {
        let interval = policy.skippedCheckpointInterval
        checkpointTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                await self.storeMovedCheckpoints(olderThan: interval)
            }
        }
    }

    private func storeMovedCheckpoints(olderThan interval: Duration) async {
        guard delivering, !stopping else { return }
        for (id, entry) in entries where entry.stored != entry.through && ContinuousClock.now - entry.storedAt >= interval {
            do {
                try await persist(id)
            } catch {
                logger.warning("a webhook's checkpoint could not be stored", metadata: ["webhook": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Loads the webhooks from the table and starts their workers: this server delivers from now.
    private func takeOver() async throws {
        guard started, !delivering, !takingOver else { return }
        // Loaded before anything else may change them (an await lets other calls in): until
        // `delivering`, making a webhook answers 409, so none is loaded twice.
        takingOver = true
        defer { takingOver = false }
        // What this server queued before it last stood down lands (or is refused) first.
        _ = await writes?.result
        var loaded: [(String, WebhookRecord, Position)] = []
        for id in try await table.ids() where !loaded.contains(where: { $0.0 == id }) {
            do {
                guard let (record, position) = try await table.record(id) else { continue }
                loaded.append((id, record, position))
            } catch {
                logger.error("webhook skipped: its stored state cannot be read", metadata: ["webhook": "\(id)", "error": "\(error)"])
            }
        }
        let opened = try await openSecrets(loaded.map(\.1))
        guard started, !delivering else { return }
        entries = [:]
        order = []
        delivering = true
        term += 1
        for ((id, _, position), (record, signing)) in zip(loaded, opened) {
            entries[id] = Entry(record: record, signing: signing, through: position, stored: position, storedAt: .now)
            order.append(id)
            if !record.webhook.paused { startWorker(id) }
        }
        // A record made before secrets were sealed is written again, sealed.
        for ((id, stored, _), (record, _)) in zip(loaded, opened) where stored != record {
            do {
                try await persist(id)
            } catch {
                logger.error("a webhook's secret could not be sealed in its record", metadata: ["webhook": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Claims or renews the lease; takes over when it is this server's, stands by when not.
    /// It keeps renewing while a shutdown stores the last checkpoints, and takes over only while started.
    private func renewLease() async {
        guard started || stopping, let shared else { return }
        let asked = ContinuousClock.now
        do {
            let lease = try await shared.claimLease(WebhookTable.leaseName, holder: server.id, for: policy.leaseDuration)
            guard started || stopping else { return }
            holder = lease.remainingMicroseconds > 0 ? lease.holder : nil
            guard lease.holder == server.id, lease.remainingMicroseconds > 0 else {
                stepDown("server \(lease.holder) holds the webhooks' lease")
                return
            }
            // The store's lease ends at least `leaseDuration` after it was asked for; stop a
            // renewal interval before that.
            leaseValidUntil = asked + policy.leaseDuration - policy.leaseRenewInterval
            if !delivering, started { try await takeOver() }
        } catch {
            logger.warning("the webhooks' lease could not be claimed", metadata: ["error": "\(error)"])
            stepDownIfExpired()
        }
    }

    private func stepDownIfExpired() {
        guard delivering, shared != nil, let until = leaseValidUntil, ContinuousClock.now >= until else { return }
        stepDown("the webhooks' lease could not be renewed in time")
    }

    /// Stops delivering at once (without waiting for the workers, which may be the caller):
    /// workers are cancelled and nothing they report counts; this server stands by.
    private func stepDown(_ why: String) {
        if holder == server.id { holder = nil }
        guard delivering else { return }
        delivering = false
        term += 1
        leaseValidUntil = nil
        for id in entries.keys { entries[id]?.worker?.cancel() }
        entries = [:]
        order = []
        logger.warning("this server stopped delivering webhooks", metadata: ["reason": "\(why)"])
    }

    /// Stops every worker (a batch in flight is sent again after the next start), stores the
    /// checkpoints they moved, gives the lease up (another server takes over at once) and closes
    /// the HTTP client.
    public func shutdown() async {
        guard started else { return }
        started = false
        stopping = true
        defer { stopping = false }
        let clients = self.clients
        // Cancelled, then waited for, then disowned: a batch the receiver took while the
        // worker stopped still moves the checkpoint, so whoever delivers next does not send it again.
        checkpointTask?.cancel()
        await checkpointTask?.value
        checkpointTask = nil
        let workers = entries.values.compactMap(\.worker)
        for worker in workers { worker.cancel() }
        for worker in workers { await worker.value }
        for id in entries.keys {
            entries[id]?.worker = nil
            entries[id]?.generation = nextGeneration()
        }
        for id in entries.keys { try? await storeIfMoved(id) }
        _ = await writes?.result
        // The lease was renewed while the workers stopped and the checkpoints were stored.
        for task in leaseTasks { task.cancel() }
        for task in leaseTasks { await task.value }
        leaseTasks = []
        if delivering, let shared { try? await shared.releaseLease(WebhookTable.leaseName, holder: server.id) }
        delivering = false
        term += 1
        entries = [:]
        order = []
        if self.clients === clients { self.clients = nil }
        await clients?.shutdown()
    }

    private func nextGeneration() -> Int {
        generations += 1
        return generations
    }

    // MARK: Workers

    func startWorker(_ id: String) {
        guard started, delivering, var entry = entries[id], !entry.record.webhook.paused else { return }
        entry.worker?.cancel()
        entry.generation = nextGeneration()
        let worker = WebhookWorker(
            dispatcher: self, logbook: logbook, webhook: entry.record.webhook, generation: entry.generation, policy: policy, logger: logger)
        let from = entry.through
        entry.worker = Task { await worker.run(after: from) }
        entries[id] = entry
    }

    /// Cancels webhook `id`'s worker; from now on nothing it reports counts.
    func stopWorker(_ id: String) {
        entries[id]?.worker?.cancel()
        entries[id]?.worker = nil
        entries[id]?.generation = nextGeneration()
        entries[id]?.failures = 0
        entries[id]?.nextAttemptAt = nil
    }

    /// Whether a worker of `generation` still speaks for webhook `id`.
    private func current(_ id: String, _ generation: Int) -> Bool { entries[id]?.generation == generation }

    /// A batch reached the receiver: the checkpoint moves to `through`, and is stored every
    /// ``WebhookPolicy/checkpointEveryBatches`` batches or ``WebhookPolicy/skippedCheckpointInterval``.
    func delivered(_ id: String, _ generation: Int, batch: WebhookBatch, through: Position) async throws {
        guard current(id, generation), var entry = entries[id] else { throw CancellationError() }
        entry.through = through
        entry.batches += 1
        entry.events += UInt64(batch.count)
        entry.failures = 0
        entry.lastError = nil
        entry.nextAttemptAt = nil
        entry.lastDeliveredAt = logbook.configuration.clock.now().instant
        entry.unstoredBatches += 1
        entries[id] = entry
        if entry.unstoredBatches >= policy.checkpointEveryBatches || ContinuousClock.now - entry.storedAt >= policy.skippedCheckpointInterval {
            try await persist(id)
        }
    }

    /// The worker passed over events the webhook does not want, through `through`.
    func skipped(_ id: String, _ generation: Int, through: Position) async throws {
        guard current(id, generation) else { throw CancellationError() }
        entries[id]?.through = through
        if let storedAt = entries[id]?.storedAt, ContinuousClock.now - storedAt >= policy.skippedCheckpointInterval {
            try await persist(id)
        }
    }

    /// Attempt `attempt` failed; the next is due after `delay`.
    func failed(_ id: String, _ generation: Int, attempt: Int, error: String, retryIn delay: Duration) {
        guard current(id, generation) else { return }
        entries[id]?.failures = attempt
        entries[id]?.lastError = error
        entries[id]?.nextAttemptAt = logbook.configuration.clock.now().instant + delay.microseconds
        logger.warning("webhook delivery failed", metadata: ["webhook": "\(id)", "attempt": "\(attempt)", "error": "\(error)"])
    }

    /// The worker itself failed (reading the log, storing its checkpoint): it starts again from
    /// the checkpoint after `delay`. Answers where from, or nil when it no longer speaks for the webhook.
    func workerFailed(_ id: String, _ generation: Int, error: String, retryIn delay: Duration) -> Position? {
        guard current(id, generation) else { return nil }
        entries[id]?.lastError = "delivery stopped, resuming in \(delay): \(error)"
        entries[id]?.nextAttemptAt = logbook.configuration.clock.now().instant + delay.microseconds
        logger.error("webhook worker failed", metadata: ["webhook": "\(id)", "error": "\(error)"])
        return entries[id]?.through
    }

    /// The batch failed `attempts` times (0: it could not even be made): it becomes a dead
    /// letter, stored with the checkpoint past it in one write. Answers false when the webhook
    /// paused itself (its dead letters are full).
    func deadLettered(_ id: String, _ generation: Int, first: UInt64, last: UInt64, events: Int, attempts: Int, error: String, through: Position) async throws -> Bool {
        guard current(id, generation), var entry = entries[id] else { throw CancellationError() }
        let letter = DeadLetter(
            first: first, last: last, events: events, attempts: attempts, error: DeadLetter.shortened(error),
            failedAt: logbook.configuration.clock.now().instant)
        // A batch dead-lettered again after a restart replaces its first letter.
        entry.record.deadLetters.removeAll { $0.first == letter.first }
        entry.record.deadLetters.append(letter)
        entry.through = through
        entry.failures = 0
        entry.nextAttemptAt = nil
        entry.lastError = letter.error
        let full = entry.record.deadLetters.count >= policy.limits.maxDeadLetters
        if full {
            entry.record.webhook.paused = true
            entry.record.pausedReason = "\(entry.record.deadLetters.count) dead letters, the limit: the receiver keeps failing"
            entry.worker = nil
            entry.generation = nextGeneration()
        }
        entries[id] = entry
        logger.error("webhook batch dead-lettered", metadata: ["webhook": "\(id)", "deadLetter": "\(letter.id)", "error": "\(error)"])
        try await persist(id)
        return !full
    }

    /// Sends `batch` to `webhook` now, signed with its secrets in use and the Logbook's clock;
    /// nil when the receiver took it.
    func send(_ batch: WebhookBatch, to webhook: Webhook) async -> DeliveryFailure? {
        guard let clients, let entry = entries[webhook.id] else { return .notRunning }
        guard let signing = entry.signing, !signing.isEmpty else { return .secretUnavailable }
        let seconds = logbook.configuration.clock.now().instant / 1_000_000
        let sender = WebhookSender(
            clients: clients, addresses: AddressPolicy(allowsPrivate: policy.allowPrivateAddresses), resolver: resolver, logger: logger)
        return await sender.send(batch, to: webhook, secrets: signing, seconds: seconds, timeout: policy.requestTimeout)
    }

    // MARK: Storing

    /// Runs `body` on the table after every write asked for before it.
    func write(term: Int, _ body: @escaping @Sendable (WebhookTable) async throws -> Void) async throws {
        try requireTerm(term)
        let previous = writes
        let table = self.table
        let next = Task {
            _ = await previous?.result
            try await body(table)
        }
        writes = next
        do {
            try await next.value
        } catch is WebhookLeaseLost {
            stepDown("another server took the webhooks' lease")
            throw LogbookError.conflict(stream: "webhooks", reason: "another server took the webhooks' lease: nothing was stored; ask that server")
        }
    }

    /// Stores webhook `id` as this server holds it; throws 409 when it no longer delivers it.
    func persist(_ id: String) async throws {
        guard let entry = entries[id] else {
            throw LogbookError.conflict(stream: id, reason: "this server no longer delivers webhook \(id) (deleted, or another server took over): nothing was stored")
        }
        let (record, through) = (entry.record, entry.through)
        entries[id]?.storedAt = .now
        entries[id]?.unstoredBatches = 0
        try await write(term: term) { table in try await table.store(record, through: through) }
        // Counted as stored only once it is: a write that failed leaves it to the next one (or
        // the shutdown's last store), instead of a checkpoint the table never got.
        if let stored = entries[id]?.stored, stored < through { entries[id]?.stored = through }
    }

    private func storeIfMoved(_ id: String) async throws {
        guard let entry = entries[id], entry.stored != entry.through else { return }
        try await persist(id)
    }

    /// An operation that began in `term` may go on only while this server still delivers in it.
    func requireTerm(_ term: Int) throws {
        // A shutdown stores what its workers delivered before it gives the lease up.
        if !(stopping && delivering) { try requireDelivering() }
        guard term == self.term else {
            throw LogbookError.conflict(stream: "webhooks", reason: "this server stopped delivering webhooks meanwhile (another took over): nothing was stored")
        }
    }

    func entry(_ id: String) throws -> Entry {
        try requireDelivering()
        guard let entry = entries[id] else { throw LogbookError.notFound(kind: "webhook", id: id) }
        return entry
    }

    /// Changes are made by the server delivering: elsewhere they answer 409, naming it.
    func requireDelivering() throws {
        guard started else { throw LogbookError.conflict(stream: "webhooks", reason: "the webhook dispatcher is not running") }
        guard !delivering else { return }
        guard shared != nil else { throw LogbookError.conflict(stream: "webhooks", reason: "the webhook dispatcher is starting") }
        let who = holder.map { "server \($0)" } ?? "no server yet (the lease is free; one of them takes it within \(policy.leaseRenewInterval))"
        throw LogbookError.conflict(
            stream: "webhooks", reason: "webhooks are delivered and changed by \(who); this server (\(server.id)) stands by: send the change there")
    }
}

/// A dead letter's replay that the receiver refused again.
public struct WebhookReplayError: Error, CustomStringConvertible {
    public let deadLetter: String
    public let reason: String
    public var description: String { "\(deadLetter) was not delivered: \(reason)" }
}
