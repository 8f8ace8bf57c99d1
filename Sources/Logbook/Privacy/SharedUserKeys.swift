import EventLog
import Foundation
import Sodium
import Synchronization

/// Each user's payload key as a log several servers share keeps it (``SharedLog``: PostgreSQL's
/// `logbook.user_keys`), cached in memory by this server.
///
/// Folds, the timeline and the wire form open payloads synchronously, so the keys they need are
/// loaded first (``load(_:creating:)``, once per user and server). A key never changes; it is only
/// destroyed, and every server hears of that from the log: the `user.erased` event reaches its
/// subscription in order with the events before it (``markErased(_:)``). A new user's key is
/// committed, in a transaction of its own, before the first event it seals is appended (a crash in
/// between leaves an unused key, never an event without its key), as in the embedded store.
final class SharedUserKeys: Sendable {
    /// Where keys not cached are read and made (nil: a fixed set, as a backup's snapshot held them).
    let log: (any SharedLog)?
    /// How the shared log keeps payloads, as its first server recorded it.
    let format: PayloadFormat
    /// Keyed by the user id's bytes; users without a row are not cached (another server may make one).
    private let cache = Mutex<[BytewiseString: UserKeyStore.Entry]>([:])
    /// Users whose key this server destroyed in the shared table (no need to do it again).
    private let destroyed = Mutex<Set<BytewiseString>>([])

    init(log: any SharedLog, format: PayloadFormat) {
        self.log = log
        self.format = format
    }

    /// The keys of `rows` and no others (a backup's, to fold its snapshot as it was).
    init(format: PayloadFormat, fixed rows: [UserKeyRow]) throws {
        log = nil
        self.format = format
        let entries = try Self.entries(rows.map { ($0.user, $0.key) }, format: format)
        cache.withLock { $0 = entries }
    }

    /// The user's key or tombstone, if loaded.
    func entry(for user: String) -> UserKeyStore.Entry? {
        cache.withLock { $0[BytewiseString(user)] }
    }

    /// Loads the entries of `users` that are not cached; with `creating`, makes the keys of those
    /// who have none (committed before this returns; another server's key made first wins).
    func load(_ users: some Sequence<String>, creating: Bool) async throws {
        let wanted = Set(users.lazy.map(BytewiseString.init))
        let missing = cache.withLock { cache in wanted.filter { cache[$0] == nil }.map(\.value) }
        guard !missing.isEmpty, let log else { return }
        var found = try await log.userKeys(of: missing)
        if creating {
            var proposed: [String: [UInt8]] = [:]
            for user in missing where found[user] == nil { proposed[user] = try SymmetricKey.random().copiedBytes() }
            if !proposed.isEmpty { found.merge(try await log.makeUserKeys(proposed)) { $1 } }
        }
        let entries = try Self.entries(found.map { ($0.key, $0.value) }, format: format)
        // An erasure heard meanwhile stands: a tombstone is never replaced by a key.
        cache.withLock { cache in
            for (user, entry) in entries where cache[user]?.isErased != true { cache[user] = entry }
        }
    }

    private static func entries(_ stored: [(String, StoredUserKey)], format: PayloadFormat) throws -> [BytewiseString: UserKeyStore.Entry] {
        var entries: [BytewiseString: UserKeyStore.Entry] = [:]
        for (user, stored) in stored {
            switch stored {
            case .erased:
                entries[BytewiseString(user)] = .erased
            case .key(let bytes):
                do {
                    entries[BytewiseString(user)] = .key(try format.userKey(bytes.span))
                } catch {
                    throw LogbookError.storage("the key of user \"\(user)\" in the shared log is not usable (\(error)): logbook.user_keys is damaged")
                }
            }
        }
        return entries
    }

    /// Records that this server destroyed `user`'s key in the shared table.
    func markDestroyed(_ user: String) {
        destroyed.withLock { _ = $0.insert(BytewiseString(user)) }
    }

    /// True if this server destroyed `user`'s key in the shared table.
    func destroyedHere(_ user: String) -> Bool {
        destroyed.withLock { $0.contains(BytewiseString(user)) }
    }

    /// Forgets `user`'s key here: their `user.erased` is in the log, so their payloads read as
    /// erased from now on, whether or not the key's destruction has reached the table yet.
    func markErased(_ user: String) {
        cache.withLock { $0[BytewiseString(user)] = .erased }
    }
}
