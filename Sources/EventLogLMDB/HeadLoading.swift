import EventLog
import LMDB

/// Reading chain heads back from the database: the stored latest position, then the records it
/// links to.
extension LogReader {
    /// The position of the chain's latest event, or nil if the chain has none.
    func latestPosition(_ chain: ChainKind, number: UInt32) throws -> UInt64? {
        try txn.get(chain.heads(databases), key: UInt64(number)) { span in
            do { return try ChainHead.decodeLatestPosition(span) } catch {
                throw EventStoreError.corruption(position: Position(0), reason: "undecodable \(chain) head \(number): \(error)")
            }
        }
    }

    /// The head of a chain as readers need it (its latest event), or nil if it has none.
    func head(_ chain: ChainKind, number: UInt32) throws -> ChainHead? {
        guard let position = try latestPosition(chain, number: number) else { return nil }
        let version = try withLinkedRecord(at: position) { _, header in chain.version(header) }
        return ChainHead(latest: .init(version: version, position: position))
    }

    /// The head of the named stream or subject, or nil.
    func head(_ chain: ChainKind, name: String) throws -> ChainHead? {
        guard let number = try resolver.number(chain.nameKind, name, in: txn) else { return nil }
        return try head(chain, number: number)
    }

    /// The full head the writer keeps: the spine, following jumps from the latest event down to
    /// version 0.
    func writerHead(_ chain: ChainKind, number: UInt32) throws -> ChainHead {
        guard let latest = try latestPosition(chain, number: number) else { return ChainHead() }
        var spine: [ChainHead.Node] = []
        var position = latest
        var version = try withLinkedRecord(at: latest) { _, header in chain.version(header) }
        while true {
            spine.append(.init(version: version, position: position))
            guard version > 0 else { break }
            let links = try withLinkedRecord(at: position) { _, header in chain.links(header) }
            try links.check(version: version, position: position, chain)
            version -= links.jumpVersionDelta
            position -= links.jumpPositionDelta
        }
        spine.reverse()
        return ChainHead(spine: spine)
    }
}
