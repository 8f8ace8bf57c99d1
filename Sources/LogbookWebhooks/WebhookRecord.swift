import EventLog
import Foundation
import LogbookDomain

/// A batch the receiver refused `attempts` times: the positions it spanned (the events in them
/// that the webhook wants are read from the log again on replay), why it failed, and when.
public struct DeadLetter: Sendable, Hashable, Codable {
    /// `dl-<first>-<last>`.
    public var id: String { "dl-\(first)-\(last)" }
    /// The first and last position of the batch's events.
    public var first: UInt64
    public var last: UInt64
    /// Events the batch held.
    public var events: Int
    public var attempts: Int
    /// The last attempt's failure, in one of a few coarse categories (`DeliveryFailure`).
    public var error: String
    /// When the last attempt failed, in microseconds since 1970.
    public var failedAt: Int64
}

extension DeadLetter {
    /// Failures are kept to their first 200 bytes (whole characters), control characters as
    /// spaces: a record stays small (64 of them, escaped, take at most about 33 KB).
    static func shortened(_ text: String) -> String {
        let text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
        guard text.utf8.count > 200 else { return text }
        var out = ""
        for character in text {
            guard out.utf8.count + character.utf8.count <= 199 else { break }
            out.append(character)
        }
        return out + "…"
    }
}

/// What a webhook keeps in the log's checkpoint table, as one checkpoint (`webhook/<id>`): its
/// definition, dead letters and why it paused itself, with the position delivered through as
/// the checkpoint's position. One write moves all of it, so a dead letter and the checkpoint
/// past it are never apart.
struct WebhookRecord: Sendable, Hashable, Codable {
    var webhook: Webhook
    var deadLetters: [DeadLetter] = []
    /// Set when the webhook paused itself (too many dead letters).
    var pausedReason: String?
}

/// The webhooks of a store, in its log's checkpoint table: `webhooks` lists their ids,
/// `webhook/<id>` holds each one's ``WebhookRecord`` at the position delivered through. On a
/// log shared in PostgreSQL every server sees the same webhooks and checkpoints.
struct WebhookTable: Sendable {
    let log: any EventStore
    /// On a shared log, the server that must hold the lease ``leaseName`` for a write to count.
    let holder: String?

    static let indexName = "webhooks"
    /// The lease the delivering server holds on a shared log.
    static let leaseName = "webhooks"
    static func name(_ id: String) -> String { "webhook/\(id)" }

    func ids() async throws -> [String] {
        guard let index = try await log.checkpoint(named: Self.indexName), !index.data.isEmpty else { return [] }
        return try Self.decode([String].self, index.data, what: Self.indexName)
    }

    func storeIds(_ ids: [String]) async throws {
        try await put(Checkpoint(name: Self.indexName, position: .start, data: Array(try JSONEncoder().encode(ids))))
    }

    /// The record of webhook `id` and the position it has delivered through (nil: none, or deleted).
    func record(_ id: String) async throws -> (WebhookRecord, Position)? {
        guard let checkpoint = try await log.checkpoint(named: Self.name(id)), !checkpoint.data.isEmpty else { return nil }
        return (try Self.decode(WebhookRecord.self, checkpoint.data, what: Self.name(id)), checkpoint.position)
    }

    func store(_ record: WebhookRecord, through position: Position) async throws {
        try await put(Checkpoint(name: Self.name(record.webhook.id), position: position, data: try Self.encoded(record)))
    }

    private static func encoded(_ record: WebhookRecord) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(record))
    }

    /// The most a webhook's definition may take in its record, leaving the rest of the log's
    /// checkpoint limit (64 KiB) to its dead letters (``WebhookLimits/maxDeadLetters`` of at
    /// most about 520 bytes each, escaped).
    static let maxDefinitionBytes = 30 << 10

    /// Refuses a new webhook whose record would not leave room for its dead letters, naming
    /// the field that makes it large.
    static func checkSize(_ record: WebhookRecord) throws(LogbookError) {
        let size = (try? encoded(record).count) ?? .max
        guard size <= maxDefinitionBytes else {
            throw .invalidArgument(
                name: record.webhook.users == nil ? "url" : "users",
                reason: "the webhook would take \(size) bytes to store, more than \(maxDefinitionBytes): name fewer or shorter users")
        }
    }

    /// Forgets webhook `id` (its checkpoint is kept, empty: the table has no delete).
    func remove(_ id: String) async throws {
        try await put(Checkpoint(name: Self.name(id), position: .start, data: []))
    }

    /// Stores `checkpoint`; on a shared log only while ``holder`` holds the lease.
    private func put(_ checkpoint: Checkpoint) async throws {
        guard let holder, let shared = log as? any SharedLog else {
            try await log.storeCheckpoint(checkpoint)
            return
        }
        guard try await shared.storeCheckpoint(checkpoint, holding: Self.leaseName, holder: holder) else { throw WebhookLeaseLost() }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], what: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw LogbookError.storage("the checkpoint \(what) does not hold a webhook's state: \(error)")
        }
    }
}

/// A write the table refused because this server no longer holds the webhooks' lease.
struct WebhookLeaseLost: Error {}
