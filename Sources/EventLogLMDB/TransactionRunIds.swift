import EventLog

/// The ids of the runs of time-ordered ids one write transaction indexes, with their positions.
///
/// Kept as a list as they are indexed and hashed into a table only when one is first looked up:
/// most transactions never look one up (a new time-ordered id newer than every id indexed needs
/// no lookup), so their appends pay no hashing for these ids. Each id is hashed at most once
/// however lookups and appends interleave.
struct TransactionRunIds {
    private var written: [(key: UUIDKey, position: UInt64)] = []
    private var table: [UUIDKey: UInt64] = [:]
    /// How many of `written` are in `table`.
    private var hashed = 0

    mutating func reserveCapacity(_ count: Int) { written.reserveCapacity(count) }

    @inline(__always)
    mutating func add(_ key: UUIDKey, at position: UInt64) { written.append((key, position)) }

    /// The position of the event with id `key`, if this transaction indexed it in a run.
    mutating func position(of key: UUIDKey) -> UInt64? {
        if hashed < written.count {
            table.reserveCapacity(written.count)
            for entry in written[hashed...] { table[entry.key] = entry.position }
            hashed = written.count
        }
        return table[key]
    }
}
