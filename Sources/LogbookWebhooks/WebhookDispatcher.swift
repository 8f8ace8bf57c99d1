import EventLog
import Foundation
public import Logbook
package import LogbookOutbound
public import Logging
package import NIOSSL

/// Delivers the log to webhooks: one worker task per running webhook reads the log from the
/// webhook's checkpoint, POSTs batches in log order, retries with backoff, turns a batch that
/// keeps failing into a dead letter and goes on. At least once: the checkpoint moves only after
/// the receiver's 2xx and is stored every ``WebhookPolicy/checkpointEveryBatches`` batches (the
/// write running behind the next batches' delivery) or each second, and at shutdown; so a crash
/// sends at most twice those batches again, and nothing is lost.
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
///
/// Its state is two values with no awaits, each with its own rules: `WebhookDeliveryTerm`
/// (whether this server delivers, the lease, the term fencing writes) and `WebhookDeliveries`
/// (each webhook's checkpoint, worker generation and counts). The actor keeps the tasks: the
/// workers (`WebhookWorker`), the lease's renewals, the background checkpoint store, and the one
/// chain of writes; the administrator operations are in `WebhookDispatcher+Admin.swift`.
public actor WebhookDispatcher {
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
    let resolver: any HostResolving
    private let tlsConfiguration: TLSConfiguration?
    /// Whether this server delivers, and in which term.
    private(set) var state: WebhookDeliveryTerm
    /// The webhooks, while this server delivers them.
    var deliveries: WebhookDeliveries
    private var leaseTasks: [Task<Void, Never>] = []
    /// Stores the checkpoints deliveries moved but did not store (every few batches).
    private var checkpointTask: Task<Void, Never>?
    private(set) var clients: WebhookClients?
    /// The key webhooks' secrets are sealed with, once read or made.
    var seal: SecretSeal?
    /// The last write to the table: each write waits for the one before it.
    private var writes: Task<Void, any Error>?
    /// Each webhook's checkpoint store running behind its deliveries (at most one per webhook),
    /// with the generation of the worker whose delivery asked for it.
    private var storesBehind: [String: (generation: Int, store: Task<Void, any Error>)] = [:]

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
        let shared = logbook.log as? any SharedLog
        self.shared = shared
        self.table = WebhookTable(log: logbook.log, holder: shared == nil ? nil : server.id)
        self.state = WebhookDeliveryTerm(server: server.id, shared: shared != nil, policy: policy)
        self.deliveries = WebhookDeliveries(policy: policy)
    }

    /// The current term (bumped whenever this server starts or stops delivering).
    var term: Int { state.term }

    // MARK: Starting and stopping

    /// Loads the store's webhooks and starts delivering to every one not paused, each from its
    /// checkpoint — on a shared log, once this server holds the lease (it tries at once, then
    /// every ``WebhookPolicy/leaseRenewInterval``). Calling it again does nothing. A record that
    /// cannot be read is skipped (and logged), not fatal.
    public func start() async throws {
        guard try state.beginStart() else { return }
        var failed = false
        defer { state.endStart(failed: failed) }
        clients = WebhookClients(tlsConfiguration: tlsConfiguration)
        startStoringCheckpoints()
        guard shared != nil else {
            do {
                try await takeOver()
            } catch {
                failed = true
                checkpointTask?.cancel()
                checkpointTask = nil
                await clients?.shutdown()
                clients = nil
                throw error
            }
            return
        }
        await renewLease()
        // A shutdown that ran meanwhile starts nothing more.
        guard state.running else { return }
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
                    await self.stepDownIfLapsed()
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
                await self.storeUnstoredCheckpoints()
            }
        }
    }

    private func storeUnstoredCheckpoints() async {
        guard state.storesInBackground else { return }
        for id in deliveries.unstored(at: .now) {
            do {
                try await persist(id)
            } catch {
                logger.warning("a webhook's checkpoint could not be stored", metadata: ["webhook": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Loads the webhooks from the table and starts their workers: this server delivers from now.
    private func takeOver() async throws {
        // Loaded before anything else may change them (an await lets other calls in): until
        // this server delivers, making a webhook answers 409, so none is loaded twice.
        guard state.beginTakeOver() else { return }
        defer { state.endTakeOver() }
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
        guard state.tookOver() else { return }
        deliveries.removeAll()
        for ((id, _, position), (record, signing)) in zip(loaded, opened) {
            deliveries.add(id, .init(record: record, signing: signing, through: position, storedAt: .now))
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
        guard state.renewsLease, let shared else { return }
        let asked = ContinuousClock.now
        do {
            let lease = try await shared.claimLease(WebhookTable.leaseName, holder: server.id, for: policy.leaseDuration)
            switch state.leaseClaimed(holder: lease.holder, remainingMicroseconds: lease.remainingMicroseconds, asked: asked) {
            case .keep: break
            case .takeOver: try await takeOver()
            case .standBy(let holder): standDown("server \(holder) holds the webhooks' lease")
            }
        } catch {
            logger.warning("the webhooks' lease could not be claimed", metadata: ["error": "\(error)"])
            stepDownIfLapsed()
        }
    }

    private func stepDownIfLapsed() {
        guard state.leaseLapsed(at: .now) else { return }
        standDown("the webhooks' lease could not be renewed in time")
    }

    /// Stops delivering at once (without waiting for the workers, which may be the caller):
    /// workers are cancelled and nothing they report counts; this server stands by.
    private func standDown(_ why: String) {
        guard state.standDown() else { return }
        deliveries.removeAll()
        // Their stores find no entry and write nothing; the next term's workers start afresh.
        storesBehind = [:]
        logger.warning("this server stopped delivering webhooks", metadata: ["reason": "\(why)"])
    }

    /// Stops every worker (a batch in flight is sent again after the next start), stores the
    /// checkpoints they moved, gives the lease up (another server takes over at once) and closes
    /// the HTTP client.
    public func shutdown() async {
        guard state.beginShutdown() else { return }
        let clients = self.clients
        // Cancelled, then waited for, then disowned: a batch the receiver took while the
        // worker stopped still moves the checkpoint, so whoever delivers next does not send it again.
        checkpointTask?.cancel()
        await checkpointTask?.value
        checkpointTask = nil
        for worker in deliveries.cancelWorkers() { await worker.value }
        deliveries.retireWorkers()
        await settleStoresBehind()
        for id in deliveries.order where deliveries.moved(id) { try? await persist(id) }
        _ = await writes?.result
        // The lease was renewed while the workers stopped and the checkpoints were stored.
        for task in leaseTasks { task.cancel() }
        for task in leaseTasks { await task.value }
        leaseTasks = []
        if state.delivering, let shared { try? await shared.releaseLease(WebhookTable.leaseName, holder: server.id) }
        state.endShutdown()
        deliveries.removeAll()
        if self.clients === clients { self.clients = nil }
        await clients?.shutdown()
    }

    // MARK: Workers

    func startWorker(_ id: String) {
        guard state.running, state.delivering, let next = deliveries.nextWorker(for: id) else { return }
        let worker = WebhookWorker(
            host: self, logbook: logbook, webhook: next.webhook, generation: next.generation, policy: policy, logger: logger)
        let from = next.from
        deliveries.attach(Task { await worker.run(after: from) }, to: id, generation: next.generation)
    }

    /// Cancels webhook `id`'s worker; from now on nothing it reports counts.
    func stopWorker(_ id: String) { deliveries.stopWorker(id) }

    // MARK: Storing

    /// Runs `body` on the table after every write asked for before it.
    func write(term: Int, _ body: @escaping @Sendable (WebhookTable) async throws -> Void) async throws {
        try state.require(term: term)
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
            standDown("another server took the webhooks' lease")
            throw LogbookError.conflict(stream: "webhooks", reason: "another server took the webhooks' lease: nothing was stored; ask that server")
        }
    }

    /// Stores webhook `id` as this server holds it; throws 409 when it no longer delivers it.
    func persist(_ id: String) async throws {
        guard let (record, through) = deliveries.storing(id, at: .now) else {
            throw LogbookError.conflict(stream: id, reason: "this server no longer delivers webhook \(id) (deleted, or another server took over): nothing was stored")
        }
        try await write(term: term) { table in try await table.store(record, through: through) }
        // Counted as stored only once it is: a write that failed leaves it to the next one (or
        // the shutdown's last store), instead of a checkpoint the table never got.
        deliveries.stored(id, through: through)
    }

    /// Stores webhook `id` as ``persist(_:)`` does, for its worker of `generation`, but without
    /// waiting for the write: delivery goes on meanwhile. The webhook's store before it, if still
    /// running, is waited for first, and its error thrown if the same worker asked for it; so one
    /// store per webhook runs at a time and at most twice ``WebhookPolicy/checkpointEveryBatches``
    /// batches go unstored. A worker that stopped speaking for the webhook during that wait (a
    /// pause, a delete, a stand-down, a shutdown) starts nothing.
    func persistBehind(_ id: String, _ generation: Int) async throws {
        if let running = storesBehind.removeValue(forKey: id) {
            let result = await running.store.result
            // An older worker's failed store was its own: the checkpoint is stored again now.
            if running.generation == generation, case .failure(let error) = result { throw error }
        }
        guard state.running, deliveries.isCurrent(id, generation) else { throw CancellationError() }
        storesBehind[id] = (generation, Task { try await self.persist(id) })
    }

    /// Forgets webhook `id`'s store running behind its deliveries (it was deleted): the store
    /// finds no entry and writes nothing.
    func forgetStoreBehind(_ id: String) { storesBehind[id] = nil }

    /// Waits for every store running behind deliveries; their errors are left to the next store.
    private func settleStoresBehind() async {
        let running = storesBehind
        storesBehind = [:]
        for (id, (_, store)) in running {
            if case .failure(let error) = await store.result {
                logger.warning("a webhook's checkpoint could not be stored", metadata: ["webhook": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// An operation that began in `term` may go on only while this server still delivers in it.
    func requireTerm(_ term: Int) throws { try state.require(term: term) }

    func entry(_ id: String) throws -> WebhookDeliveries.Entry {
        try state.requireDelivering()
        guard let entry = deliveries[id] else { throw LogbookError.notFound(kind: "webhook", id: id) }
        return entry
    }

    /// Changes are made by the server delivering: elsewhere they answer 409, naming it.
    func requireDelivering() throws { try state.requireDelivering() }
}

/// A dead letter's replay that the receiver refused again.
public struct WebhookReplayError: Error, CustomStringConvertible {
    public let deadLetter: String
    public let reason: String
    public var description: String { "\(deadLetter) was not delivered: \(reason)" }
}
