/// The head of one chain of events — a stream, or a subject's timeline — kept so that appending
/// touches one small record per chain and reads can find any version in O(log n) hops.
///
/// Every stored event links back to the previous event of its chain and to one earlier "jump"
/// event, chosen by Myers' skew-binary scheme (the jump of version v is either v−1 or the jump
/// of the jump of v−1). Following jumps while they do not overshoot reaches any version in
/// O(log n) steps. The head keeps the *spine* — the chain of jumps from the latest event down to
/// version 0, O(log n) nodes — so appending computes the new event's links without reading any
/// stored record.
struct ChainHead: Sendable, Equatable {
    /// One event on the spine: its version within the chain and its log position.
    struct Node: Sendable, Equatable {
        var version: UInt64
        var position: UInt64
    }

    /// The spine, from the oldest node (version 0) to the latest event.
    private(set) var spine: [Node] = []
    /// 16-bit fingerprints of the latest event ids, oldest first (streams only), for idempotency.
    private(set) var recentFingerprints: [UInt16] = []

    static let fingerprintWindow = 8

    /// How many events the chain holds.
    var count: UInt64 { spine.last.map { $0.version + 1 } ?? 0 }
    /// The latest event, if any.
    var latest: Node? { spine.last }

    /// Adds an event at `position`, returning its version and the links to store in its record.
    mutating func append(position: UInt64) -> (version: UInt64, links: ChainLinks) {
        let version = count
        let new = Node(version: version, position: position)
        let n = spine.count
        guard n > 0 else {
            spine.append(new)
            return (0, .first)
        }
        let parent = spine[n - 1]
        let jump: Node
        if n >= 3, parent.version - spine[n - 2].version == spine[n - 2].version - spine[n - 3].version {
            jump = spine[n - 3]
            spine.removeLast(2)
        } else {
            jump = parent
        }
        spine.append(new)
        return (version, ChainLinks(
            previousDelta: position - parent.position,
            jumpVersionDelta: version - jump.version,
            jumpPositionDelta: position - jump.position))
    }

    /// Remembers an appended event id's fingerprint, keeping the latest ``fingerprintWindow``.
    mutating func remember(fingerprint: UInt16) {
        if recentFingerprints.count == Self.fingerprintWindow { recentFingerprints.removeFirst() }
        recentFingerprints.append(fingerprint)
    }

    /// The spine node with the smallest version ≥ `version`: where a search for `version` starts.
    func startNode(forVersion version: UInt64) -> Node? {
        spine.first { $0.version >= version }
    }

    /// The spine node with the smallest position ≥ `position`.
    func startNode(forPosition position: UInt64) -> Node? {
        spine.first { $0.position >= position }
    }

    // MARK: Storage form

    func encode(into writer: inout ByteWriter) {
        writer.varint(UInt64(spine.count))
        var previous = Node(version: 0, position: 0)
        for node in spine {
            writer.varint(node.version - previous.version)
            writer.varint(node.position - previous.position)
            previous = node
        }
        writer.byte(UInt8(recentFingerprints.count))
        for fingerprint in recentFingerprints { writer.uint16(fingerprint) }
    }

    init() {}

    init(decoding span: Span<UInt8>) throws(DecodeFailure) {
        var offset = 0
        let n = try ByteReader.varint(span, &offset)
        guard n <= 128 else { throw DecodeFailure(reason: "chain head spine of \(n) nodes") }
        spine.reserveCapacity(Int(n) + 2)
        var previous = Node(version: 0, position: 0)
        for _ in 0..<n {
            let node = Node(
                version: previous.version + (try ByteReader.varint(span, &offset)),
                position: previous.position + (try ByteReader.varint(span, &offset)))
            spine.append(node)
            previous = node
        }
        let fingerprints = try ByteReader.byte(span, &offset)
        guard Int(fingerprints) <= Self.fingerprintWindow else { throw DecodeFailure(reason: "too many fingerprints") }
        for _ in 0..<fingerprints { recentFingerprints.append(try ByteReader.uint16(span, &offset)) }
    }
}

/// The back links a record stores for one chain.
struct ChainLinks: Sendable, Equatable {
    /// This position minus the previous event's position (0: first event of the chain).
    var previousDelta: UInt64
    /// This version minus the jump target's version.
    var jumpVersionDelta: UInt64
    /// This position minus the jump target's position.
    var jumpPositionDelta: UInt64

    static let first = ChainLinks(previousDelta: 0, jumpVersionDelta: 0, jumpPositionDelta: 0)

    var isFirst: Bool { previousDelta == 0 }

    /// Stored as the previous delta, then (unless first) the jump's version delta, then (unless
    /// the jump is the previous event) the jump's position delta.
    @inline(__always)
    func encode(into writer: inout ByteWriter) {
        writer.varint(previousDelta)
        guard previousDelta != 0 else { return }
        writer.varint(jumpVersionDelta)
        if jumpVersionDelta != 1 { writer.varint(jumpPositionDelta) }
    }

    @inline(__always)
    static func decode(_ span: Span<UInt8>, _ offset: inout Int) throws(DecodeFailure) -> ChainLinks {
        let previous = try ByteReader.varint(span, &offset)
        guard previous != 0 else { return .first }
        let jumpVersion = try ByteReader.varint(span, &offset)
        let jumpPosition = jumpVersion == 1 ? previous : try ByteReader.varint(span, &offset)
        return ChainLinks(previousDelta: previous, jumpVersionDelta: jumpVersion, jumpPositionDelta: jumpPosition)
    }
}
