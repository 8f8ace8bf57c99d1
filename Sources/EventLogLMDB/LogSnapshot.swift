public import EventLog
public import LMDB
import Foundation

/// A consistent view of the log inside one read transaction, for code that reads the log and
/// read models kept beside it and needs both as of the same commit.
public struct LogSnapshot: ~Copyable {
    let reader: LogReader

    /// The transaction the snapshot reads in: open read-model databases with it.
    public var transaction: ReadTransaction { reader.txn }

    /// The last committed position in this snapshot.
    public func headPosition() throws -> Position { Position(try reader.headPosition()) }

    /// The event at `position`, or nil.
    public func event(at position: Position) throws -> RecordedEvent? { try reader.event(at: position.rawValue) }

    /// Up to `limit` events of `subject` from `position` in `direction` (see ``EventStore/readSubject(_:from:direction:limit:)``).
    public func readSubject(_ subject: String, from position: Position, direction: ReadDirection, limit: Int) throws -> [RecordedEvent] {
        try reader.readSubject(subject, from: position, direction: direction, limit: limit)
    }

    /// Up to `limit` events of `stream` from `version` in `direction`.
    public func readStream(_ stream: String, from version: UInt64, direction: ReadDirection, limit: Int) throws -> [RecordedEvent] {
        guard let head = try reader.head(.stream, name: stream) else { return [] }
        return try reader.readChain(.stream, head: head, fromVersion: version, direction: direction, limit: limit)
    }

    /// The version of the stream's last event, or nil.
    public func streamVersion(_ stream: String) throws -> UInt64? {
        guard let head = try reader.head(.stream, name: stream), head.count > 0 else { return nil }
        return head.count - 1
    }
}

extension LMDBEventStore {
    /// Runs `body` with a consistent snapshot of the log (one read transaction).
    public func withSnapshot<R>(_ body: (borrowing LogSnapshot) throws -> R) throws -> R {
        try withReader { reader in try body(LogSnapshot(reader: reader)) }
    }
}

extension LogReader {
    /// Up to `limit` events of a subject from a log position (inclusive) in `direction`.
    func readSubject(_ subject: String, from position: Position, direction: ReadDirection, limit: Int) throws -> [RecordedEvent] {
        guard limit > 0, let head = try head(.subject, name: subject) else { return [] }
        let start: ChainPoint?
        switch direction {
        case .forward: start = try locateFirst(atOrAfter: max(position.rawValue, 1), in: .subject, head: head)
        case .backward: start = try locateLast(atOrBefore: position.rawValue, in: .subject, head: head)
        }
        guard let start else { return [] }
        return try readChain(.subject, head: head, fromVersion: start.version, direction: direction, limit: limit)
    }
}
