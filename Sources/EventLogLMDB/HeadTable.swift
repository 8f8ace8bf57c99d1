import EventLog
/// The writer's in-memory chain heads of one kind (streams or subjects), as parallel arrays
/// indexed by interned number, so the hot path of an append touches plain integers and one
/// spine array in place, with no hashing and no copy of a head.
struct HeadTable {
    /// Streams keep fingerprints of their latest event ids; subjects do not.
    let tracksFingerprints: Bool
    private var counts: [UInt64] = []
    private var spines: [[ChainHead.Node]] = []
    private var fingerprints: [UInt128] = []
    private var touchedBy: [UInt64] = []
    private var loaded: [Bool] = []
    /// How many heads are in memory.
    private(set) var loadedCount = 0

    init(tracksFingerprints: Bool) { self.tracksFingerprints = tracksFingerprints }

    private func fingerprintCount(_ index: Int) -> UInt8 {
        tracksFingerprints ? UInt8(min(counts[index], UInt64(ChainHead.fingerprintWindow))) : 0
    }

    /// True when head `index` is in memory.
    @inline(__always)
    func isLoaded(_ index: Int) -> Bool { index < loaded.count && loaded[index] }

    /// Puts a head read from the database (or an empty one) in memory.
    mutating func install(_ index: Int, _ head: ChainHead) {
        if index >= loaded.count {
            let extra = index + 1 - loaded.count
            counts.append(contentsOf: repeatElement(0, count: extra))
            spines.append(contentsOf: repeatElement([], count: extra))
            fingerprints.append(contentsOf: repeatElement(0, count: extra))
            touchedBy.append(contentsOf: repeatElement(0, count: extra))
            loaded.append(contentsOf: repeatElement(false, count: extra))
        }
        counts[index] = head.count
        spines[index] = head.spine
        fingerprints[index] = head.fingerprintBits
        touchedBy[index] = 0
        loaded[index] = true
        loadedCount += 1
    }

    /// How many events chain `index` holds.
    @inline(__always)
    func count(_ index: Int) -> UInt64 { counts[index] }

    /// True if the chain's latest events may include an id with this fingerprint.
    @inline(__always)
    func mayContain(_ index: Int, fingerprint: UInt16) -> Bool {
        var bits = fingerprints[index]
        for _ in 0..<fingerprintCount(index) {
            if UInt16(truncatingIfNeeded: bits) == fingerprint { return true }
            bits >>= 16
        }
        return false
    }

    /// Appends an event at `position` to chain `index`.
    @inline(__always)
    mutating func append(_ index: Int, position: UInt64) -> (version: UInt64, links: ChainLinks) {
        counts[index] += 1
        return ChainHead.append(position: position, to: &spines[index])
    }

    /// Remembers the fingerprint of the event id just appended to chain `index`.
    @inline(__always)
    mutating func remember(_ index: Int, fingerprint: UInt16) {
        fingerprints[index] = (fingerprints[index] << 16) | UInt128(fingerprint)
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
        ChainHead(
            spine: spines[index], fingerprintBits: fingerprints[index],
            fingerprintCount: fingerprintCount(index))
    }

    /// The position of chain `index`'s latest event (0 if it is empty): its stored form.
    @inline(__always)
    func latestPosition(_ index: Int) -> UInt64 { spines[index].last?.position ?? 0 }
}
