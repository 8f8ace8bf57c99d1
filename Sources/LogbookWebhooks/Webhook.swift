import EventLog
import Foundation
import LogbookDomain

/// A receiving service's subscription to the log: the events it wants (by type and user), where
/// they go, and the secret their batches are signed with (``WebhookSignature``).
public struct Webhook: Sendable, Hashable, Codable {
    /// `wh-` and 16 hex digits, chosen at random when the webhook is made.
    public var id: String
    /// Where batches are POSTed: an `http` or `https` URL.
    public var url: String
    /// Only these event types, sorted (nil: every type).
    public var eventTypes: [String]?
    /// Only the events of these users, sorted by their bytes (nil: every user, and events of no user).
    public var users: [String]?
    /// The HMAC-SHA256 key of `Logbook-Signature`. Kept in the log's checkpoint table, never answered.
    public var secret: String
    /// A paused webhook delivers nothing; its checkpoint stays where it was.
    public var paused: Bool
    /// When it was made, in microseconds since 1970 (the Logbook's clock).
    public var createdAt: Int64

    public init(id: String, url: String, eventTypes: [String]?, users: [String]?, secret: String, paused: Bool = false, createdAt: Int64) {
        self.id = id
        self.url = url
        self.eventTypes = eventTypes
        self.users = users
        self.secret = secret
        self.paused = paused
        self.createdAt = createdAt
    }

    /// The log filter of its event types (users are filtered after reading: a filter takes one subject).
    var logFilter: EventFilter { EventFilter(eventTypes: eventTypes.map(Set.init)) }

    /// Its users as a set, asked once per event read.
    var subjects: SubjectFilter { SubjectFilter(users: users.map { Set($0.map(BytewiseString.init)) }) }
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

/// What `POST /admin/webhooks` takes: checked by ``validated(id:now:)`` before anything is stored.
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

    /// The webhook this request makes, or the error naming the field that is wrong.
    func validated(id: String, now: Timestamp, limits: WebhookLimits) throws(LogbookError) -> Webhook {
        guard url.unicodeScalars.count <= limits.maxURLLength else {
            throw .invalidArgument(name: "url", reason: "is longer than \(limits.maxURLLength) characters")
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parsed.host, !host.isEmpty, parsed.user == nil, parsed.password == nil, parsed.fragment == nil
        else {
            throw .invalidArgument(name: "url", reason: "must be an absolute http or https URL with a host, no credentials and no fragment")
        }
        // Counted as JSON Schema counts a string's length (the documented limit is exact).
        let secretLength = secret.unicodeScalars.count
        guard (limits.minSecretLength...limits.maxSecretLength).contains(secretLength) else {
            throw .invalidArgument(
                name: "secret", reason: "must be \(limits.minSecretLength) to \(limits.maxSecretLength) characters (it has \(secretLength))")
        }
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
        return Webhook(id: id, url: url, eventTypes: types, users: subjects, secret: secret, createdAt: now.instant)
    }
}
