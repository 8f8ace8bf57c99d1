import EventLog
import Foundation
import LMDB
import Sodium
import Synchronization

/// Each user's payload key, in a small LMDB environment of its own (`<store>/keys`), apart from
/// the log so that destroying a key can be followed by compacting this file alone.
///
/// A key is written durably before the first event it encrypts is appended (a crash in between
/// leaves an unused key, never an event without its key). Erasing a user replaces the key with a
/// tombstone (an empty value: the user was erased, and stays so) and rewrites the file compacted,
/// so the key's bytes are not merely freed but gone from it. The tombstone's transaction also
/// records that a compaction is owed (meta `compaction-owed`), cleared only once the compacted
/// file is in place: an erasure cut off in between (a crash, a full disk) is compacted when the
/// store is next opened for writing, or by the erasure's retry. Keys are cached in memory once read.
final class UserKeyStore: @unchecked Sendable {
    /// What a store holds for one user.
    enum Entry: Sendable {
        /// The key, ready to use (made once per user, then cached).
        case key(SymmetricKey)
        case erased

        var isErased: Bool { if case .erased = self { true } else { false } }
    }

    let directory: String
    private let options: EnvironmentOptions
    /// The environment and its databases; replaced when the file is compacted. Guarded by `lock`.
    private var environment: Environment
    private var keys: Database
    private var meta: Database
    private let lock = NSLock()
    /// Keyed by the user id's bytes, as the key store's LMDB keys are (the HostileInput article).
    private let cache = Mutex<[BytewiseString: Entry]>([:])
    /// How payloads are kept, read from (or written into, when the store was created) the meta table.
    let format: PayloadFormat

    static let keyBytes = SymmetricKey.byteCount
    private static let formatKey = Array("payloads".utf8)
    /// Set in the transaction that writes a tombstone over a key, cleared after the compaction.
    private static let compactionOwedKey = Array("compaction-owed".utf8)

    /// Opens the key store in `directory`, creating it with `format` if it does not exist
    /// (unless read-only). An existing store keeps the format it was created with.
    init(directory: String, creatingWith format: PayloadFormat, readOnly: Bool, durability: EnvironmentOptions.Durability) throws {
        self.directory = directory
        var options = EnvironmentOptions()
        options.initialMapSize = 4 << 20
        options.maxDatabases = 4
        options.readOnly = readOnly
        options.durability = durability
        options.fileMode = 0o600
        self.options = options
        environment = try Environment(path: directory, options: options)
        do {
            keys = try environment.openDatabase(named: "user-keys")
            meta = try environment.openDatabase(named: "meta")
            let meta = self.meta
            let stored = try environment.read { txn in
                try txn.get(meta, key: Self.formatKey.span) { String(decoding: $0.copiedBytes(), as: UTF8.self) }
            }
            if let stored {
                guard let known = PayloadFormat(rawValue: stored) else {
                    throw LogbookError.storage("the key store at \(directory) keeps payloads as \"\(stored)\", which this build does not know")
                }
                self.format = known
            } else {
                if !readOnly {
                    try environment.write { txn in
                        try txn.put(meta, key: Self.formatKey.span, value: Array(format.rawValue.utf8).span)
                    }
                }
                self.format = format
            }
            if !readOnly { try finishOwedCompactionLocked() }
        } catch {
            environment.close()
            throw error
        }
    }

    func close() {
        lock.withLock { environment.close() }
    }

    /// The user's key or tombstone, nil if the store has none.
    ///
    /// Read and cached under the store's lock, which an erasure holds while it writes its
    /// tombstone and caches it: a key read before an erasure is never cached after it (that would
    /// open the erased user's payloads again, the rebuild after the erasure included).
    func entry(for user: String) throws -> Entry? {
        if let cached = cache.withLock({ $0[BytewiseString(user)] }) { return cached }
        return try lock.withLock { () throws -> Entry? in
            let found = try environment.read { txn in try txn.get(keys, key: Array(user.utf8).span) { $0.copiedBytes() } }
            guard let found else { return nil }
            let entry = try Self.entry(stored: found, user: user, directory: directory, format: format)
            PrivacyTestHooks.afterKeyRead(user)
            cache.withLock { $0[BytewiseString(user)] = entry }
            return entry
        }
    }

    /// The entry a stored value means: empty, a tombstone; 32 bytes, a key; anything else, a
    /// damaged store (refused before a key is made of it).
    private static func entry(stored: [UInt8], user: String, directory: String, format: PayloadFormat) throws -> Entry {
        if stored.isEmpty { return .erased }
        guard stored.count == keyBytes else {
            throw LogbookError.storage("the key of user \"\(user)\" in \(directory) is \(stored.count) bytes, not \(keyBytes): the key store is damaged")
        }
        do {
            return .key(try format.userKey(stored.span))
        } catch {
            throw LogbookError.storage("the key of user \"\(user)\" in \(directory) is not usable (\(error)): the key store is damaged")
        }
    }

    /// The user's entry if it is cached (no lock but the cache's, no transaction).
    func cachedEntry(for user: String) -> Entry? {
        cache.withLock { $0[BytewiseString(user)] }
    }

    /// The keys of `users`, creating (durably, in one commit) those that have none. An erased
    /// user gets no key: the answer marks them `.erased`.
    func ensureKeys(for users: Set<String>) throws -> [String: Entry] {
        var found: [String: Entry] = [:]
        var missing: [String] = []
        for user in users.sorted() {
            if let entry = try entry(for: user) { found[user] = entry } else { missing.append(user) }
        }
        guard !missing.isEmpty else { return found }
        // Cached under the store's lock too, so no erasure comes between the commit and the cache.
        let created = try lock.withLock {
            let created = try environment.write { txn in
                var created: [String: Entry] = [:]
                for user in missing {
                    // Another writer may have made it meanwhile: keep theirs.
                    if let existing = try txn.get(keys, key: Array(user.utf8).span, { $0.copiedBytes() }) {
                        created[user] = try Self.entry(stored: existing, user: user, directory: directory, format: format)
                        continue
                    }
                    let key = try format.newUserKey()
                    try txn.put(keys, key: Array(user.utf8).span, value: key.copiedBytes().span)
                    created[user] = .key(key)
                }
                return created
            }
            cache.withLock { cache in for (user, entry) in created { cache[BytewiseString(user)] = entry } }
            return created
        }
        return found.merging(created) { $1 }
    }

    /// Replaces the user's key with a tombstone — recording, in the same transaction, that a
    /// compaction is owed — then rewrites the file compacted (the old key's page is left out of the
    /// new file, which replaces the old one) and clears the debt. Returns false if the user was
    /// erased already (a compaction still owed is done then: the retry of a cut-off erasure).
    @discardableResult
    func erase(_ user: String) throws -> Bool {
        try lock.withLock {
            let (keys, meta) = (self.keys, self.meta)
            let current = try environment.write { txn -> [UInt8]? in
                let current = try txn.get(keys, key: Array(user.utf8).span) { $0.copiedBytes() }
                if current?.isEmpty != true { try txn.put(keys, key: Array(user.utf8).span, value: [UInt8]().span) }
                // Only a key that existed left bytes to get rid of.
                if current?.isEmpty == false { try txn.put(meta, key: Self.compactionOwedKey.span, value: [UInt8(1)].span) }
                return current
            }
            cache.withLock { $0[BytewiseString(user)] = .erased }
            PrivacyTestHooks.afterKeyTombstone()
            try finishOwedCompactionLocked()
            return current?.isEmpty != true
        }
    }

    /// True while a tombstone's compaction is owed (written over a key, not yet compacted away).
    func compactionOwed() throws -> Bool {
        try lock.withLock { try compactionOwedLocked() }
    }

    private func compactionOwedLocked() throws -> Bool {
        let meta = self.meta
        return try environment.read { txn in try txn.get(meta, key: Self.compactionOwedKey.span) { _ in true } } ?? false
    }

    /// Compacts the file if a tombstone's compaction is owed, then clears the debt (in the new
    /// file: a crash before the clearing compacts once more, which is harmless).
    private func finishOwedCompactionLocked() throws {
        guard try compactionOwedLocked() else { return }
        try compactLocked()
        let meta = self.meta
        try environment.write { txn in _ = try txn.delete(meta, key: Self.compactionOwedKey.span) }
    }

    /// Rewrites the key store's file compacted (``Environment/compactDataFile(inDirectory:options:)``:
    /// a crash leaves the whole old file or the whole new one, never no key store) and opens it
    /// again.
    private func compactLocked() throws {
        environment.close()
        let compacted = Result { try Environment.compactDataFile(inDirectory: directory, options: options) }
        environment = try Environment(path: directory, options: options)
        keys = try environment.openDatabase(named: "user-keys", create: false)
        meta = try environment.openDatabase(named: "meta", create: false)
        _ = try compacted.get()
    }

    /// Every user's key or tombstone, in key order (for a copy of the store).
    func allEntries() throws -> [(user: String, entry: Entry)] {
        try lock.withLock {
            try environment.read { txn in
                var entries: [(user: String, entry: Entry)] = []
                try txn.withCursor(keys) { cursor in
                    var more = try cursor.first()
                    while more {
                        let (user, stored) = try cursor.withCurrent { key, value in
                            (String(decoding: key.copiedBytes(), as: UTF8.self), value.copiedBytes())
                        }
                        entries.append((user, try Self.entry(stored: stored, user: user, directory: directory, format: format)))
                        more = try cursor.next()
                    }
                }
                return entries
            }
        }
    }

    /// Every user erased here (their key replaced by a tombstone), in key order.
    func erasedUsers() throws -> [String] {
        try lock.withLock {
            try environment.read { txn in
                var users: [String] = []
                try txn.withCursor(keys) { cursor in
                    var more = try cursor.first()
                    while more {
                        try cursor.withCurrent { key, value in
                            if value.isEmpty { users.append(String(decoding: key.copiedBytes(), as: UTF8.self)) }
                        }
                        more = try cursor.next()
                    }
                }
                return users
            }
        }
    }

    /// The environment, for backups (under the store's lock, so a compaction cannot swap it meanwhile).
    func withEnvironment<R>(_ body: (Environment) throws -> R) rethrows -> R {
        try lock.withLock { try body(environment) }
    }
}
