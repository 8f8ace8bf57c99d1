import EventLog
/// The writer's in-memory chain heads of one kind (streams or subjects), in an array indexed by
/// interned number, so the hot path of an append touches one slot and its spine in place, with
/// no hashing and no copy of a head.
struct HeadTable {
    /// One chain's head: its count, the transaction that last touched it and its spine, side by
    /// side so that an append reads one slot (and the spine it points to).
    private struct Slot {
        var count: UInt64 = 0
        var touchedBy: UInt64 = 0
        var loaded = false
        var spine: [ChainHead.Node] = []
    }

    private var slots: [Slot] = []
    /// How many heads are in memory.
    private(set) var loadedCount = 0

    init() {}

    /// True when head `index` is in memory.
    @inline(__always)
    func isLoaded(_ index: Int) -> Bool { index < slots.count && slots[index].loaded }

    /// Puts a head read from the database (or an empty one) in memory.
    mutating func install(_ index: Int, _ head: ChainHead) {
        if index >= slots.count { slots.append(contentsOf: repeatElement(Slot(), count: index + 1 - slots.count)) }
        slots[index] = Slot(count: head.count, touchedBy: 0, loaded: true, spine: head.spine)
        loadedCount += 1
    }

    /// How many events chain `index` holds.
    @inline(__always)
    func count(_ index: Int) -> UInt64 { slots[index].count }

    /// Appends an event at `position` to chain `index`.
    @inline(__always)
    mutating func append(_ index: Int, position: UInt64) -> (version: UInt64, links: ChainLinks) {
        slots[index].count += 1
        return ChainHead.append(position: position, to: &slots[index].spine)
    }

    /// Marks chain `index` as changed by transaction `serial`; true the first time.
    @inline(__always)
    mutating func touch(_ index: Int, serial: UInt64) -> Bool {
        guard slots[index].touchedBy != serial else { return false }
        slots[index].touchedBy = serial
        return true
    }

    /// A copy of head `index`, for reads and for storing.
    func head(_ index: Int) -> ChainHead {
        ChainHead(spine: slots[index].spine)
    }

    /// The position of chain `index`'s latest event (0 if it is empty): its stored form.
    @inline(__always)
    func latestPosition(_ index: Int) -> UInt64 { slots[index].spine.last?.position ?? 0 }
}
