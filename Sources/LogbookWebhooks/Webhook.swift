import EventLog
import Foundation
import LogbookDomain
import LogbookOutbound

/// A receiving service's subscription to the log: the events it wants (by type and user), where
/// they go, and the secrets their batches are signed with (``WebhookSignature``), kept sealed.
public struct Webhook: Sendable, Hashable, Codable {
    /// `wh-` and 16 hex digits, chosen at random when the webhook is made.
    public var id: String
    /// Where batches are POSTed: an `http` or `https` URL (shown with its path and query redacted).
    public var url: String
    /// Only these event types, sorted (nil: every type).
    public var eventTypes: [String]?
    /// Only the events of these users, sorted by their bytes (nil: every user, and events of no user).
    public var users: [String]?
    /// The HMAC-SHA256 keys of `Logbook-Signature`, sealed with the store's key
    /// (``WebhookSecrets``); never answered. Nil only in a record made before secrets were sealed.
    var secrets: WebhookSecrets?
    /// The secret of a record made before secrets were sealed, in plaintext: sealed, and the
    /// record written again, when a server takes the webhooks over.
    var plaintextSecret: String?
    /// A paused webhook delivers nothing; its checkpoint stays where it was.
    public var paused: Bool
    /// When it was made, in microseconds since 1970 (the Logbook's clock).
    public var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, url, eventTypes, users, secrets, paused, createdAt
        case plaintextSecret = "secret"
    }

    /// The log filter of its event types (users are filtered after reading: a filter takes one subject).
    var logFilter: EventFilter { EventFilter(eventTypes: eventTypes.map(Set.init)) }

    /// Its users as a set, asked once per event read.
    var subjects: SubjectFilter { SubjectFilter(users: users.map { Set($0.map(BytewiseString.init)) }) }
}

/// A webhook's signing secrets as the store keeps them: sealed (`SecretSeal`, with the webhook's
/// id authenticated), the one in use and — while a rotation runs — the one it replaces, which
/// signs too until the rotation ends.
struct WebhookSecrets: Sendable, Hashable, Codable {
    /// The secret in use, sealed.
    var current: String
    /// The secret being rotated out, sealed (nil: no rotation runs).
    var previous: String?
    /// When the rotation began, in microseconds since 1970.
    var rotatedAt: Int64?
}

/// Which subjects a webhook wants: every one (nil), or its users, compared as bytes.
struct SubjectFilter: Sendable {
    let users: Set<BytewiseString>?

    /// Whether an event of `subject` goes to the webhook (an event of no user only when it names none).
    func wants(_ subject: String?) -> Bool {
        guard let users else { return true }
        guard let subject else { return false }
        return users.contains(BytewiseString(subject))
    }
}

/// What `POST /admin/webhooks` takes: checked by ``validated(id:now:limits:addresses:)`` before anything is stored.
public struct WebhookRequest: Sendable, Hashable, Codable {
    public var url: String
    public var eventTypes: [String]?
    public var users: [String]?
    public var secret: String

    public init(url: String, eventTypes: [String]? = nil, users: [String]? = nil, secret: String) {
        self.url = url
        self.eventTypes = eventTypes
        self.users = users
        self.secret = secret
    }

    /// The webhook this request makes (its secret not yet sealed), or the error naming the field
    /// that is wrong. A URL whose host is an address `addresses` refuses is refused here; a host
    /// name is checked each time it is resolved, at delivery.
    func validated(id: String, now: Timestamp, limits: WebhookLimits, addresses: AddressPolicy) throws(LogbookError) -> Webhook {
        try Self.checkURL(url, limits: limits, addresses: addresses)
        try Self.checkSecret(secret, limits: limits)
        var types: [String]?
        if let eventTypes {
            guard !eventTypes.isEmpty else { throw .invalidArgument(name: "eventTypes", reason: "must name at least one type (leave it out for every type)") }
            for type in eventTypes where EventType(rawValue: type) == nil {
                throw .invalidArgument(name: "eventTypes", reason: "\"\(type)\" is not an event type")
            }
            guard Set(eventTypes).count == eventTypes.count else { throw .invalidArgument(name: "eventTypes", reason: "names a type twice") }
            types = eventTypes.sorted()
        }
        var subjects: [String]?
        if let users {
            guard !users.isEmpty else { throw .invalidArgument(name: "users", reason: "must name at least one user (leave it out for every user)") }
            guard users.count <= limits.maxUsers else { throw .invalidArgument(name: "users", reason: "names more than \(limits.maxUsers) users") }
            for user in users {
                if let reason = IdRule.violation(user) { throw .invalidArgument(name: "users", reason: "\"\(user)\" \(reason)") }
            }
            guard Set(users.map(BytewiseString.init)).count == users.count else { throw .invalidArgument(name: "users", reason: "names a user twice") }
            subjects = users.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return Webhook(id: id, url: url, eventTypes: types, users: subjects, secrets: nil, plaintextSecret: nil, paused: false, createdAt: now.instant)
    }

    /// Refuses a URL that is too long, not one an outbound call may be made to (`OutboundURL`),
    /// or whose host is an address `addresses` refuses.
    static func checkURL(_ url: String, limits: WebhookLimits, addresses: AddressPolicy) throws(LogbookError) {
        guard url.unicodeScalars.count <= limits.maxURLLength else {
            throw .invalidArgument(name: "url", reason: "is longer than \(limits.maxURLLength) characters")
        }
        let parsed: OutboundURL
        do {
            parsed = try OutboundURL(url)
        } catch {
            throw .invalidArgument(name: "url", reason: error.description)
        }
        guard let address = parsed.literal else { return }
        let kind = AddressKind(address)
        guard !addresses.permits(kind) else { return }
        guard AddressPolicy(allowsPrivate: true).permits(kind) else {
            throw .invalidArgument(name: "url", reason: "names \(address), an address of kind \(kind.rawValue), which no receiver has")
        }
        throw .invalidArgument(
            name: "url",
            reason: "names \(address), an address of kind \(kind.rawValue): webhooks go only to public addresses unless the operator opts in to receivers on this machine's networks (logbook serve --webhook-allow-private)")
    }

    /// Refuses a secret of a length outside the limits, counted as JSON Schema counts a string's
    /// length (the documented limit is exact).
    static func checkSecret(_ secret: String, limits: WebhookLimits) throws(LogbookError) {
        let secretLength = secret.unicodeScalars.count
        guard (limits.minSecretLength...limits.maxSecretLength).contains(secretLength) else {
            throw .invalidArgument(
                name: "secret", reason: "must be \(limits.minSecretLength) to \(limits.maxSecretLength) characters (it has \(secretLength))")
        }
    }
}
