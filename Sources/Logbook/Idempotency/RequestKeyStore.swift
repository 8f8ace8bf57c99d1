import BinaryCoding
import Dispatch
import EventLog
import Foundation
import LMDB
import Synchronization

/// The answers to keyed requests (``IdempotentRequest``), kept for at least `retention` in a
/// small LMDB environment of their own, so they survive restarts.
///
/// Entries are written in group commits on a queue of their own (concurrent requests share one
/// commit) and pruned oldest first as new ones arrive. An entry older than the retention is
/// forgotten even before it is pruned, so what a retry gets does not depend on when pruning ran.
///
/// Losing an entry never duplicates a write: the event id of a keyed request is derived from the
/// key (``IdempotentRequest/eventId``) and the log keeps ids unique. The store is what tells a
/// retry from another request under the same key, and what repeats the original answer.
final class RequestKeyStore: Sendable {
    let environment: Environment
    /// Entry by storage key (32 bytes): when, fingerprint, status, entity tag, body.
    private let entries: Database
    /// The same entries by time (8 bytes big-endian microseconds, then the storage key), for pruning.
    private let byTime: Database
    let retention: Duration
    private let clock: any LogClock
    private let queue = DispatchQueue(label: "logbook.request-keys")
    private let pending = Mutex<Pending>(Pending())
    /// Entries removed by pruning at most per commit, so a backlog is worked off in steps.
    private static let pruneBatch = 1_024

    private struct Pending {
        var items: [(key: [UInt8], entry: Entry, done: CheckedContinuation<Void, any Error>)] = []
        var scheduled = false
    }

    /// One remembered answer.
    struct Entry: Sendable, Hashable {
        var storedAt: Timestamp
        var fingerprint: [UInt8]
        var response: StoredResponse
    }

    init(path: String, retention: Duration, clock: any LogClock, durability: EnvironmentOptions.Durability) throws {
        try PrivateFiles.createDirectory(atPath: path)
        var options = EnvironmentOptions()
        options.initialMapSize = 8 << 20
        options.durability = durability
        options.maxDatabases = 4
        environment = try Environment(path: path, options: options)
        entries = try environment.openDatabase(named: "keys")
        byTime = try environment.openDatabase(named: "keys.by-time")
        self.retention = retention
        self.clock = clock
    }

    /// The entry for `request`, unless there is none or it is older than the retention.
    func entry(for request: IdempotentRequest) throws -> Entry? {
        let key = request.storageKey
        let entry = try environment.read { txn in
            try txn.get(entries, key: key.span) { span in try Self.decode(span) }
        }
        guard let entry, entry.storedAt >= cutoff() else { return nil }
        return entry
    }

    /// Remembers `response` as the answer to `request`; returns it once it is committed (one
    /// process owns this store, and ``Logbook/once(_:_:)`` runs one request per key at a time).
    func remember(_ response: StoredResponse, for request: IdempotentRequest) async throws -> Entry {
        let entry = Entry(storedAt: clock.now(), fingerprint: request.fingerprint, response: response)
        let key = request.storageKey
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let schedule = pending.withLock { state -> Bool in
                state.items.append((key, entry, done))
                defer { state.scheduled = true }
                return !state.scheduled
            }
            if schedule { queue.async { self.commitPending() } }
        }
        return entry
    }

    /// How many entries are kept (expired ones not yet pruned included).
    func count() throws -> Int {
        try environment.read { txn in try txn.statistics(entries).entries }
    }

    func close() {
        queue.sync {}
        environment.close()
    }

    private func cutoff() -> Timestamp {
        let now = clock.now().microsecondsSinceEpoch
        return Timestamp(microsecondsSinceEpoch: now.subtractingReportingOverflow(retention.microseconds).partialValue)
    }

    /// Writes everything queued in one transaction, pruning expired entries on the way.
    private func commitPending() {
        let items = pending.withLock { state in
            defer { state.items = []; state.scheduled = false }
            return state.items
        }
        guard !items.isEmpty else { return }
        let result = Result {
            try environment.write { txn in
                let empty: [UInt8] = []
                for item in items {
                    let key = item.key
                    let value = Self.encode(item.entry)
                    let timeKey = Self.timeKey(item.entry.storedAt, key)
                    try txn.put(entries, key: key.span, value: value.span)
                    try txn.put(byTime, key: timeKey.span, value: empty.span)
                }
                try prune(before: cutoff(), in: txn)
            }
        }
        for item in items { item.done.resume(with: result) }
    }

    /// Removes up to ``pruneBatch`` entries stored before `cutoff`, oldest first.
    private func prune(before cutoff: Timestamp, in txn: WriteTransaction) throws {
        var expired: [[UInt8]] = []
        try txn.withCursor(byTime) { cursor in
            var more = try cursor.first()
            while more, expired.count < Self.pruneBatch {
                let timeKey = try cursor.withCurrent { key, _ in key.copiedBytes() }
                guard timeKey.count == 40, Self.micros(timeKey) < cutoff.microsecondsSinceEpoch else { break }
                expired.append(timeKey)
                more = try cursor.next()
            }
        }
        for timeKey in expired {
            let key = Array(timeKey[8...])
            _ = try txn.delete(byTime, key: timeKey.span)
            // A key re-used after its entry expired has a newer entry: keep that one.
            let storedAt = try txn.get(entries, key: key.span) { span in try Self.decode(span).storedAt }
            if let storedAt, storedAt.microsecondsSinceEpoch == Self.micros(timeKey) {
                _ = try txn.delete(entries, key: key.span)
            }
        }
    }

    // MARK: Encoding

    private static func timeKey(_ time: Timestamp, _ key: [UInt8]) -> [UInt8] {
        let micros = UInt64(bitPattern: time.microsecondsSinceEpoch)
        return (0..<8).map { UInt8(truncatingIfNeeded: micros >> UInt64(56 - 8 * $0)) } + key
    }

    private static func micros(_ timeKey: [UInt8]) -> Int64 {
        Int64(bitPattern: timeKey.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    private static func encode(_ entry: Entry) -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + entry.response.body.count)
        writer.signedVarint(entry.storedAt.microsecondsSinceEpoch)
        writer.lengthPrefixed(entry.fingerprint)
        writer.varint(UInt64(entry.response.status))
        writer.lengthPrefixed(entry.response.entityTag.map { Array($0.utf8) } ?? [])
        writer.lengthPrefixed(entry.response.body)
        return writer.bytes
    }

    private static func decode(_ span: Span<UInt8>) throws -> Entry {
        var offset = 0
        func bytes() throws -> [UInt8] {
            let range = try ByteReader.lengthPrefixedRange(span, &offset)
            return span.extracting(range).copiedBytes()
        }
        do {
            let storedAt = Timestamp(microsecondsSinceEpoch: try ByteReader.signedVarint(span, &offset))
            let fingerprint = try bytes()
            let status = Int(try ByteReader.varint(span, &offset))
            let tag = try bytes()
            let body = try bytes()
            return Entry(
                storedAt: storedAt, fingerprint: fingerprint,
                response: StoredResponse(status: status, entityTag: tag.isEmpty ? nil : String(decoding: tag, as: UTF8.self), body: body))
        } catch {
            throw LogbookError.storage("an undecodable idempotency key entry: \(error)")
        }
    }
}
