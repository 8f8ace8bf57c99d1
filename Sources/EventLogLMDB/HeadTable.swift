import EventLog
/// The writer's in-memory chain heads of one kind (streams or subjects), as parallel arrays
/// indexed by interned number, so the hot path of an append touches plain integers and one
/// spine array in place, with no hashing and no copy of a head.
struct HeadTable {
    private var counts: [UInt64] = []
    private var spines: [[ChainHead.Node]] = []
    private var touchedBy: [UInt64] = []
    private var loaded: [Bool] = []
    /// How many heads are in memory.
    private(set) var loadedCount = 0

    init() {}

    /// True when head `index` is in memory.
    @inline(__always)
    func isLoaded(_ index: Int) -> Bool { index < loaded.count && loaded[index] }

    /// Puts a head read from the database (or an empty one) in memory.
    mutating func install(_ index: Int, _ head: ChainHead) {
        if index >= loaded.count {
            let extra = index + 1 - loaded.count
            counts.append(contentsOf: repeatElement(0, count: extra))
            spines.append(contentsOf: repeatElement([], count: extra))
            touchedBy.append(contentsOf: repeatElement(0, count: extra))
            loaded.append(contentsOf: repeatElement(false, count: extra))
        }
        counts[index] = head.count
        spines[index] = head.spine
        touchedBy[index] = 0
        loaded[index] = true
        loadedCount += 1
    }

    /// How many events chain `index` holds.
    @inline(__always)
    func count(_ index: Int) -> UInt64 { counts[index] }

    /// Appends an event at `position` to chain `index`.
    @inline(__always)
    mutating func append(_ index: Int, position: UInt64) -> (version: UInt64, links: ChainLinks) {
        counts[index] += 1
        return ChainHead.append(position: position, to: &spines[index])
    }

    /// Marks chain `index` as changed by transaction `serial`; true the first time.
    @inline(__always)
    mutating func touch(_ index: Int, serial: UInt64) -> Bool {
        guard touchedBy[index] != serial else { return false }
        touchedBy[index] = serial
        return true
    }

    /// A copy of head `index`, for reads and for storing.
    func head(_ index: Int) -> ChainHead {
        ChainHead(spine: spines[index])
    }

    /// The position of chain `index`'s latest event (0 if it is empty): its stored form.
    @inline(__always)
    func latestPosition(_ index: Int) -> UInt64 { spines[index].last?.position ?? 0 }
}
