/// The stated limits of webhooks (the HostileInput article): everything a webhook keeps or
/// sends is bounded.
public struct WebhookLimits: Sendable, Hashable {
    /// Webhooks one store holds.
    public var maxWebhooks = 64
    /// A URL's length, in characters (Unicode scalars).
    public var maxURLLength = 2048
    /// A secret's length in characters: at least 16, at most 256.
    public var minSecretLength = 16
    public var maxSecretLength = 256
    /// Users one webhook may name (its whole state is one record of the log's checkpoint table,
    /// at most 64 KiB: the definition may take 30 KiB of it).
    public var maxUsers = 200
    /// Dead letters one webhook keeps; at this many it pauses itself (its receiver is gone),
    /// and resuming it needs a discard or a replay first. Each keeps its failure's first 200 bytes.
    public var maxDeadLetters = 64
    /// Events in one batch.
    public var maxBatchEvents = 100
    /// A batch's events: they are added while their wire forms, comma separated, stay within this
    /// many bytes (one event alone may pass it); the body's envelope around them is not counted.
    public var maxBatchBytes = 1 << 20

    public init() {}
}

/// How a webhook retries: attempts, exponential backoff with jitter, and how long one POST may take.
///
/// Attempt *n* that fails waits `min(maxDelay, baseDelay × 2ⁿ⁻¹)`, of which a random half
/// (equal jitter: ½ to 1× of it), before attempt *n*+1; after `maxAttempts` the batch becomes a
/// dead letter and delivery goes on with the next one. With the defaults, 8 attempts over about
/// 2 to 4 minutes.
public struct WebhookPolicy: Sendable, Hashable {
    public var maxAttempts = 8
    public var baseDelay: Duration = .seconds(2)
    public var maxDelay: Duration = .seconds(300)
    /// One POST, from connecting to the end of the receiver's answer.
    public var requestTimeout: Duration = .seconds(10)
    /// How often a checkpoint moved only by events the webhook does not want is stored (it is
    /// kept in memory meanwhile; a restart scans those events again, delivering nothing).
    public var skippedCheckpointInterval: Duration = .seconds(1)
    /// A delivered batch's checkpoint is stored once this many batches have been delivered since
    /// the last store, or once ``skippedCheckpointInterval`` has passed since it, and always when
    /// the dispatcher shuts down. The write runs while the next batches are sent, and the next
    /// store waits for it. Delivery stays at least once: a crash sends at most twice this many
    /// batches again (1: store after every batch).
    public var checkpointEveryBatches = 4
    /// On a log several servers share: how long the lease to deliver lasts unrenewed (a server
    /// that stops without giving it up is replaced after this), and how often its holder renews it.
    public var leaseDuration: Duration = .seconds(10)
    public var leaseRenewInterval: Duration = .seconds(2)
    /// Whether receivers on this machine and its networks may be reached: loopback, private,
    /// link-local (cloud metadata services answer there), unique-local and reserved addresses.
    /// Off, a webhook reaches public addresses only — the address checked after resolving its
    /// host, each time, and connected to — and a URL naming another address is refused when the
    /// webhook is made. `logbook serve --webhook-allow-private` turns it on. Unspecified,
    /// multicast and broadcast addresses are refused either way.
    public var allowPrivateAddresses = false
    public var limits = WebhookLimits()

    public init() {}

    /// The wait after failed attempt `attempt` (1-based), with `unit` in 0…1 choosing the jitter.
    public func delay(afterAttempt attempt: Int, unit: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let full = min(maxDelay, baseDelay * (1 << exponent))
        return full / 2 + (full / 2) * min(max(unit, 0), 1)
    }
}
