import Logbook

/// Whether this server delivers webhooks now, and in which term: the dispatcher's life (stopped,
/// started, stopping), the lease as last seen, and the term that fences every write.
///
/// It is a value with no awaits, so each transition happens whole; the dispatcher does what a
/// transition answers (start the workers, cancel them, give the lease up). The rules:
/// - Only a started dispatcher takes the webhooks over, and only once per term: each start or
///   stop of delivering is a new term, and an operation that began in another term writes nothing.
/// - On a shared log it delivers while it holds the lease: from a claim answered with its own
///   name until a renewal interval before the lease would lapse (a server whose renewals hang
///   stops before another may take over), or until a claim names another holder.
/// - A stopping dispatcher still renews the lease and may still write what its workers
///   delivered, but takes nothing over and answers changes as stopped.
struct WebhookDeliveryTerm: Sendable {
    /// Where the dispatcher is in its life.
    enum Phase: Sendable, Equatable {
        /// Before its start, after its shutdown, or after a start that failed.
        case stopped
        /// From its start (while the start may still wait for the lease) to its shutdown.
        case started
        /// Its shutdown stores the last checkpoints and gives the lease up.
        case stopping
    }

    /// What a claim of the lease asks the dispatcher to do.
    enum LeaseAnswer: Sendable, Equatable {
        /// Nothing: it delivers and goes on, or it stopped meanwhile.
        case keep
        /// Load the webhooks and start delivering: the lease is this server's.
        case takeOver
        /// Stop delivering (if it did): another server holds the lease, named here.
        case standBy(holder: String)
    }

    /// This server, as the lease names it.
    let server: String
    /// Whether the log is shared by several servers, so that a lease decides who delivers.
    let shared: Bool
    let leaseDuration: Duration
    let renewInterval: Duration

    private(set) var phase = Phase.stopped
    /// Inside a start: another start does nothing until it returns.
    private var starting = false
    /// Whether this server delivers: it loaded the webhooks and runs their workers.
    private(set) var delivering = false
    /// Inside a take-over (which awaits the table): no second one starts.
    private var takingOver = false
    /// Bumped whenever this server starts or stops delivering.
    private(set) var term = 0
    /// The lease's holder as last seen (nil: free, or not yet asked).
    private(set) var holder: String?
    /// Until when this server may deliver without renewing the lease.
    private(set) var validUntil: ContinuousClock.Instant?

    init(server: String, shared: Bool, policy: WebhookPolicy) {
        self.server = server
        self.shared = shared
        self.leaseDuration = policy.leaseDuration
        self.renewInterval = policy.leaseRenewInterval
    }

    /// Whether the dispatcher runs (started, not stopping).
    var running: Bool { phase == .started }

    /// Whether the lease is still renewed: while started, and while a shutdown stores the last checkpoints.
    var renewsLease: Bool { phase != .stopped }

    /// Whether checkpoints are stored in the background: while delivering and not stopping
    /// (a shutdown stores them itself).
    var storesInBackground: Bool { delivering && phase == .started }

    /// The server delivering, as listings name it (nil on a store one process opens).
    var deliveredBy: String? {
        guard shared else { return nil }
        return delivering ? server : holder
    }

    // MARK: Start and shutdown

    /// A start: true when it goes on (the dispatcher was stopped and no other start runs);
    /// throws when the policy's lease times cannot work, changing nothing.
    mutating func beginStart() throws -> Bool {
        guard phase == .stopped, !starting else { return false }
        guard renewInterval < leaseDuration else {
            throw LogbookError.invalidArgument(name: "leaseRenewInterval", reason: "must be shorter than leaseDuration (\(leaseDuration))")
        }
        starting = true
        phase = .started
        return true
    }

    /// The start returned; `failed`: it did not start after all.
    mutating func endStart(failed: Bool) {
        starting = false
        if failed, phase == .started { phase = .stopped }
    }

    /// A shutdown: true when it goes on (the dispatcher was started).
    mutating func beginShutdown() -> Bool {
        guard phase == .started else { return false }
        phase = .stopping
        return true
    }

    /// The shutdown gave the lease up and stopped: nothing is delivered in this term any more.
    mutating func endShutdown() {
        phase = .stopped
        delivering = false
        term += 1
    }

    // MARK: Taking over and standing down

    /// A take-over: true when it goes on (started, not delivering, no other take-over running).
    mutating func beginTakeOver() -> Bool {
        guard phase == .started, !delivering, !takingOver else { return false }
        takingOver = true
        return true
    }

    mutating func endTakeOver() { takingOver = false }

    /// The webhooks are loaded: true when this server delivers from now, in a new term (false:
    /// it stopped, or delivers already, meanwhile).
    mutating func tookOver() -> Bool {
        guard phase == .started, !delivering else { return false }
        delivering = true
        term += 1
        return true
    }

    /// This server stops delivering: true when it delivered (its workers must be cancelled and
    /// its webhooks forgotten), in a new term.
    mutating func standDown() -> Bool {
        if holder == server { holder = nil }
        guard delivering else { return false }
        delivering = false
        term += 1
        validUntil = nil
        return true
    }

    // MARK: The lease

    /// A claim asked at `asked` answered that `holder` holds the lease for `remainingMicroseconds` more.
    mutating func leaseClaimed(holder: String, remainingMicroseconds: Int64, asked: ContinuousClock.Instant) -> LeaseAnswer {
        guard renewsLease else { return .keep }
        self.holder = remainingMicroseconds > 0 ? holder : nil
        guard holder == server, remainingMicroseconds > 0 else { return .standBy(holder: holder) }
        // The store's lease ends at least `leaseDuration` after it was asked for; stop a renewal
        // interval before that.
        validUntil = asked + leaseDuration - renewInterval
        return !delivering && phase == .started ? .takeOver : .keep
    }

    /// Whether this server delivers on a lease it could not renew in time, at `now`.
    func leaseLapsed(at now: ContinuousClock.Instant) -> Bool {
        guard delivering, shared, let validUntil else { return false }
        return now >= validUntil
    }

    // MARK: Fencing

    /// Changes are made by the server delivering: elsewhere they are refused (409), naming it.
    func requireDelivering() throws {
        guard phase == .started else { throw LogbookError.conflict(stream: "webhooks", reason: "the webhook dispatcher is not running") }
        guard !delivering else { return }
        guard shared else { throw LogbookError.conflict(stream: "webhooks", reason: "the webhook dispatcher is starting") }
        let who = holder.map { "server \($0)" } ?? "no server yet (the lease is free; one of them takes it within \(renewInterval))"
        throw LogbookError.conflict(
            stream: "webhooks", reason: "webhooks are delivered and changed by \(who); this server (\(server)) stands by: send the change there")
    }

    /// An operation that began in `term` may go on only while this server still delivers in it
    /// (a shutdown still stores what its workers delivered before it gives the lease up).
    func require(term: Int) throws {
        if !(phase == .stopping && delivering) { try requireDelivering() }
        guard term == self.term else {
            throw LogbookError.conflict(stream: "webhooks", reason: "this server stopped delivering webhooks meanwhile (another took over): nothing was stored")
        }
    }
}
