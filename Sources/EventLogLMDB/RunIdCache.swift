import EventLog
import LMDB

/// The ids of committed runs of ``OrderedIdRuns`` that the writer keeps searching, read once
/// and held sorted in memory, so finding an id in such a run is a binary search of an array
/// instead of verified record reads (one per step of a binary search of an ascending run; every
/// record of a run whose ids came a little out of order).
///
/// An import of time-ordered ids that are not quite in log order (a history exported from a
/// store that many users wrote at once) checks each id against the runs written before it, and
/// most such ids fell inside a run of 64 out-of-order ids, read record by record. A run is read
/// whole only once the searches of it have cost about as many reads as reading it (so a long
/// ascending run searched once or twice costs what it did), and only when every position of it
/// was committed before this transaction: committed records never change, so what is held stays
/// true. The writer keeps one across its transactions (in ``WriterState``, dropped when it
/// reloads its state); a lookup of many ids by a reader (an import's check of which events are
/// there already) keeps one for its read-only transaction. At most ``capacity`` ids are held
/// (20 bytes each), past which everything held is dropped and read again on demand.
struct RunIdCache {
    /// The most ids held at once.
    static let capacity = 1 << 20

    /// One run's ids in id order, with each one's offset from the run's first position (none
    /// when the run ascends: the offset is then the index).
    private struct HeldRun {
        var ids: [UUIDKey]
        var offsets: [UInt32]

        func position(of key: UUIDKey, from firstPosition: UInt64) -> UInt64? {
            var low = 0
            var high = ids.count
            while low < high {
                let middle = low + (high - low) / 2
                if ids[middle] < key { low = middle + 1 } else { high = middle }
            }
            guard low < ids.count, ids[low] == key else { return nil }
            return firstPosition + UInt64(offsets.isEmpty ? UInt32(low) : offsets[low])
        }
    }

    /// The held runs by first position.
    private var runs: [UInt64: HeldRun] = [:]
    private var heldIds = 0
    /// How many searches each ascending run not yet held has had.
    private var searches: [UInt64: Int] = [:]

    /// The position of the event with id `key` in `run`, if it has one. `committedHead` is the
    /// last position committed before the transaction `txn` belongs to.
    mutating func position(
        of key: UUIDKey, in run: OrderedIdRuns.Run, committedHead: UInt64, _ txn: ReadTransaction, _ databases: LogDatabases
    ) throws -> UInt64? {
        guard key >= run.firstKey, key <= run.lastKey else { return nil }
        let count = Int(run.count)
        guard count > 2, count <= Self.capacity, run.firstPosition + UInt64(count) - 1 <= committedHead else {
            return try OrderedIdRuns.position(of: key, in: run, txn, databases)
        }
        if let held = runs[run.firstPosition] { return held.position(of: key, from: run.firstPosition) }
        if run.ascending {
            // One search reads about log₂(count) records; reading all of them pays after that many.
            let searched = searches[run.firstPosition, default: 0] + 1
            if searched * (Int.bitWidth - count.leadingZeroBitCount) < count {
                if searches.count >= 4_096 { searches.removeAll(keepingCapacity: true) }
                searches[run.firstPosition] = searched
                return try OrderedIdRuns.position(of: key, in: run, txn, databases)
            }
            searches.removeValue(forKey: run.firstPosition)
        }
        // (A search of a run out of order reads all of its records anyway.)
        let held = try Self.read(run, txn, databases)
        if heldIds + count > Self.capacity {
            runs.removeAll()
            heldIds = 0
        }
        runs[run.firstPosition] = held
        heldIds += count
        return held.position(of: key, from: run.firstPosition)
    }

    /// The ids of `run`'s records, each record verified; a run its records do not match (a
    /// position missing, its first or last id not the smallest or largest, ids repeated, or out
    /// of order in a run marked ascending) is corruption.
    private static func read(_ run: OrderedIdRuns.Run, _ txn: ReadTransaction, _ databases: LogDatabases) throws -> HeldRun {
        let reader = LogReader(txn: txn, databases: databases, resolver: NameResolver(databases: databases))
        var matcher = try EventMatcher(.all, resolver: reader.resolver, txn: txn)
        var ids: [(id: UUIDKey, offset: UInt32)] = []
        ids.reserveCapacity(Int(run.count))
        var consecutive = true
        _ = try reader.scan(from: run.firstPosition, direction: .forward, scanLimit: Int(run.count), matcher: &matcher) {
            _, header, position in
            consecutive = position == run.firstPosition + UInt64(ids.count)
            ids.append((UUIDKey(header.eventId), UInt32(ids.count)))
            return consecutive
        }
        // An ascending run is in id order already, and must be.
        if !run.ascending { ids.sort { $0.id < $1.id } }
        let sorted = ids.map(\.id)
        let matches = consecutive && sorted.count == Int(run.count) && sorted.first == run.firstKey && sorted.last == run.lastKey
            && zip(sorted, sorted.dropFirst()).allSatisfy { $0 < $1 }
        guard matches else {
            throw EventStoreError.corruption(
                position: Position(run.firstPosition),
                reason: "the ordered id index's run of \(run.count) events from here does not match its records")
        }
        return HeldRun(ids: sorted, offsets: run.ascending ? [] : ids.map(\.offset))
    }
}
