import EventLog
/// Finding and walking events along a stream's or subject's chain of back links.
extension LogReader {
    /// A located event of a chain: its version in the chain and its log position.
    typealias ChainPoint = ChainHead.Node

    /// The position of version `target` of the chain, found in O(log n) hops from the head.
    func locate(version target: UInt64, in chain: ChainKind, head: ChainHead) throws -> UInt64? {
        guard target < head.count, let start = head.startNode(forVersion: target) else { return nil }
        var version = start.version
        var position = start.position
        while version > target {
            let links = try withLinkedRecord(at: position) { _, header in chain.links(header) }
            try links.check(version: version, position: position, chain)
            if version - links.jumpVersionDelta >= target {
                version -= links.jumpVersionDelta
                position -= links.jumpPositionDelta
            } else {
                version -= 1
                position -= links.previousDelta
            }
        }
        return position
    }

    /// The chain's first event at or after log position `target`, in O(log n) hops.
    func locateFirst(atOrAfter target: UInt64, in chain: ChainKind, head: ChainHead) throws -> ChainPoint? {
        guard let start = head.startNode(forPosition: target) else { return nil }
        var point = start
        while point.version > 0 {
            let links = try withLinkedRecord(at: point.position) { _, header in chain.links(header) }
            try links.check(version: point.version, position: point.position, chain)
            if point.position - links.jumpPositionDelta >= target {
                point = ChainPoint(version: point.version - links.jumpVersionDelta, position: point.position - links.jumpPositionDelta)
            } else if point.position - links.previousDelta >= target {
                point = ChainPoint(version: point.version - 1, position: point.position - links.previousDelta)
            } else {
                break
            }
        }
        return point
    }

    /// The chain's last event at or before log position `target`.
    func locateLast(atOrBefore target: UInt64, in chain: ChainKind, head: ChainHead) throws -> ChainPoint? {
        guard let latest = head.latest else { return nil }
        if latest.position <= target { return latest }
        guard let after = try locateFirst(atOrAfter: target + 1, in: chain, head: head), after.version > 0 else { return nil }
        let links = try withLinkedRecord(at: after.position) { _, header in chain.links(header) }
        try links.check(version: after.version, position: after.position, chain)
        return ChainPoint(version: after.version - 1, position: after.position - links.previousDelta)
    }

    /// Walks back from `start` through at most `count` events of the chain, newest first.
    func walkBack(
        from start: ChainPoint, count: UInt64, in chain: ChainKind,
        _ body: (Span<UInt8>, RecordHeader, UInt64) throws -> Void
    ) throws {
        var position = start.position
        var remaining = min(count, start.version + 1)
        while remaining > 0 {
            let previousDelta = try withLinkedRecord(at: position) { span, header in
                try body(span, header, position)
                return chain.links(header).previousDelta
            }
            remaining -= 1
            if remaining > 0 {
                guard previousDelta != 0, previousDelta < position else {
                    throw EventStoreError.corruption(position: Position(position), reason: "\(chain) chain ends early")
                }
                position -= previousDelta
            }
        }
    }

    /// Up to `limit` events of a chain starting at version `from` in `direction`.
    func readChain(
        _ chain: ChainKind, head: ChainHead, fromVersion from: UInt64, direction: ReadDirection, limit: Int
    ) throws -> [RecordedEvent] {
        guard limit > 0, head.count > 0 else { return [] }
        let count = UInt64(limit)
        var events: [RecordedEvent] = []
        switch direction {
        case .forward:
            guard from < head.count else { return [] }
            let last = min(from + count - 1, head.count - 1)
            guard let position = try locate(version: last, in: chain, head: head) else { return [] }
            events.reserveCapacity(Int(last - from + 1))
            try walkBack(from: ChainPoint(version: last, position: position), count: last - from + 1, in: chain) { span, header, position in
                events.append(try recordedEvent(span, header, position: position))
            }
            events.reverse()
        case .backward:
            let start = min(from, head.count - 1)
            guard let position = try locate(version: start, in: chain, head: head) else { return [] }
            try walkBack(from: ChainPoint(version: start, position: position), count: count, in: chain) { span, header, position in
                events.append(try recordedEvent(span, header, position: position))
            }
        }
        return events
    }
}

extension ChainLinks {
    /// Refuses links that would lead outside the chain (only a damaged log could hold them).
    @inline(__always)
    func check(version: UInt64, position: UInt64, _ chain: ChainKind) throws(EventStoreError) {
        guard version > 0, previousDelta > 0, previousDelta < position, jumpVersionDelta >= 1,
              jumpVersionDelta <= version, jumpPositionDelta >= previousDelta, jumpPositionDelta < position
        else {
            throw .corruption(position: Position(position), reason: "\(chain) links do not fit version \(version)")
        }
    }
}
