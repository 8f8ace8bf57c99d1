import EventLog
import BinaryCoding
/// The head of one chain of events — a stream, or a subject's timeline — kept so that appending
/// touches one small record per chain and reads can find any version in O(log n) hops.
///
/// Every stored event links back to the previous event of its chain and to one earlier "jump"
/// event, chosen by Myers' skew-binary scheme (the jump of version v is either v−1 or the jump
/// of the jump of v−1). Following jumps while they do not overshoot reaches any version in
/// O(log n) steps. In memory the writer keeps the *spine* — the chain of jumps from the latest
/// event down to version 0, O(log n) nodes — so appending computes the new event's links without
/// reading any stored record. On disk a head is only the latest event's position; the spine is
/// read back by following jumps when a head is loaded.
struct ChainHead: Sendable {
    /// One event on the spine: its version within the chain and its log position.
    struct Node: Sendable, Equatable {
        var version: UInt64
        var position: UInt64
    }

    /// The spine, from the oldest node (version 0) to the latest event.
    private(set) var spine: [Node] = []
    /// How many events the chain holds.
    var count: UInt64 { spine.last.map { $0.version + 1 } ?? 0 }
    /// The latest event, if any.
    var latest: Node? { spine.last }

    /// Adds an event at `position`, returning its version and the links to store in its record.
    mutating func append(position: UInt64) -> (version: UInt64, links: ChainLinks) {
        Self.append(position: position, to: &spine)
    }

    /// Adds an event at `position` to a spine, returning its version and links.
    @inline(__always)
    static func append(position: UInt64, to spine: inout [Node]) -> (version: UInt64, links: ChainLinks) {
        let version = spine.last.map { $0.version + 1 } ?? 0
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

    /// The spine node with the smallest version ≥ `version`: where a search for `version` starts.
    func startNode(forVersion version: UInt64) -> Node? {
        spine.first { $0.version >= version }
    }

    /// The spine node with the smallest position ≥ `position`.
    func startNode(forPosition position: UInt64) -> Node? {
        spine.first { $0.position >= position }
    }

    init() {}

    /// A head that knows only its latest event: enough to start any search (readers use it).
    init(latest: Node) {
        spine = [latest]
    }

    init(spine: [Node]) {
        self.spine = spine
    }

    // MARK: Storage form

    /// A head is stored as just the position of the chain's latest event (8 bytes, little-endian),
    /// so rewriting it never resizes its B-tree node. Everything else (version, spine) is read
    /// back from the records it links to.
    static func decodeLatestPosition(_ span: Span<UInt8>) throws(DecodeFailure) -> UInt64 {
        guard span.count == 8 else { throw DecodeFailure(reason: "a chain head of \(span.count) bytes") }
        return span.bytes.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian
    }
}

/// The back links a record stores for one chain.
package struct ChainLinks: Sendable, Equatable {
    /// This position minus the previous event's position (0: first event of the chain).
    var previousDelta: UInt64
    /// This version minus the jump target's version.
    var jumpVersionDelta: UInt64
    /// This position minus the jump target's position.
    var jumpPositionDelta: UInt64

    package static let first = ChainLinks(previousDelta: 0, jumpVersionDelta: 0, jumpPositionDelta: 0)

    package init(previousDelta: UInt64, jumpVersionDelta: UInt64, jumpPositionDelta: UInt64) {
        self.previousDelta = previousDelta
        self.jumpVersionDelta = jumpVersionDelta
        self.jumpPositionDelta = jumpPositionDelta
    }

    /// Stored as the previous delta, then (unless first) the jump's version delta, then (unless
    /// the jump is the previous event) the jump's position delta.
    @inline(__always)
    func encode(into head: inout RecordHead) {
        head.varint(previousDelta)
        guard previousDelta != 0 else { return }
        head.varint(jumpVersionDelta)
        if jumpVersionDelta != 1 { head.varint(jumpPositionDelta) }
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
