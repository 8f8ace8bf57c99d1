import BinaryCoding
import EventLog
import Foundation
import LMDB
import Synchronization

/// The event ids that are not time-ordered (a client's own) and not yet folded into the
/// `ids.other` tree: appended to `ids.journal` by position — pure appends, like the records —
/// and held here in memory, so an append of random ids dirties no random index page.
///
/// When the journal holds ``foldThreshold`` ids (``LogConfiguration/idJournalFoldThreshold``), the writer folds them into `ids.other` in one
/// sorted pass: each page of that tree is rewritten at most once per fold instead of once per id
/// per transaction. The map holds committed entries only (the writer adds a transaction's after
/// it commits); any reader — in this process or another — also reads the journal entries
/// committed since the map last looked, so it never misses one.
final class IdJournal: Sendable {
    /// How many ids the journal holds before the writer folds them into `ids.other`.
    let foldThreshold: Int

    init(foldThreshold: Int) { self.foldThreshold = max(1, foldThreshold) }

    private struct State {
        var ids: [UUIDKey: UInt64] = [:]
        /// The journal has been read through this position.
        var through: UInt64 = 0
    }

    private let state = Mutex(State())

    /// How many ids the map holds.
    var count: Int { state.withLock { $0.ids.count } }

    /// The position of the event with this id if it is in the journal, reading what was committed
    /// since the last look (`txn` is a read transaction of the log: it must not hold uncommitted
    /// journal entries, so never the writer's own).
    func position(of key: UUIDKey, in txn: ReadTransaction, _ databases: LogDatabases) throws -> UInt64? {
        if let known = committedPosition(of: key) { return known }
        try refresh(in: txn, databases)
        return committedPosition(of: key)
    }

    /// The position of this id among the entries the map holds (no reading).
    @inline(__always)
    func committedPosition(of key: UUIDKey) -> UInt64? { state.withLock { $0.ids[key] } }

    /// Reads the journal entries committed since the last look into the map.
    func refresh(in txn: ReadTransaction, _ databases: LogDatabases) throws {
        let through = state.withLock { $0.through }
        var added: [(UUIDKey, UInt64)] = []
        var last = through
        try txn.withCursor(databases.idJournal) { cursor in
            var more = try cursor.seek(atOrAfter: through + 1)
            while more, let position = cursor.currentKey {
                let entry = try cursor.withCurrentValue { span in
                    var offset = 0
                    return UUIDKey(try ByteReader.uuid(span, &offset))
                }
                added.append((entry, position))
                last = position
                more = try cursor.next()
            }
        }
        if !added.isEmpty { record(added, through: last) }
    }

    /// Adds committed entries (the writer, after a commit; readers, after reading the journal).
    func record(_ entries: [(UUIDKey, UInt64)], through: UInt64) {
        state.withLock { state in
            // Grown once for what arrives together (all of the journal, when a store opens), not
            // doubled again and again through the entries.
            state.ids.reserveCapacity(state.ids.count + entries.count)
            for (key, position) in entries { state.ids[key] = position }
            state.through = max(state.through, through)
        }
    }

    /// Forgets every entry once a fold has moved them into `ids.other` (positions up to `through`).
    func folded(through: UInt64) {
        state.withLock { state in
            // The room stays: the next ids fill the map as far as these did, without regrowing it
            // from empty (the map holds at most a fold's worth of ids either way).
            state.ids.removeAll(keepingCapacity: true)
            state.through = max(state.through, through)
        }
    }

    /// The entries, for a fold.
    var entries: [(UUIDKey, UInt64)] { state.withLock { $0.ids.map { ($0.key, $0.value) } } }
}
