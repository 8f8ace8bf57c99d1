import Foundation
import LMDB

/// Sizes and counters of a log on disk, for `logbook inspect`, metrics and benchmarks.
public struct LogStorageInfo: Sendable, Hashable, Codable {
    /// One LMDB database of the log.
    public struct DatabaseInfo: Sendable, Hashable, Codable {
        public let name: String
        public let entries: Int
        public let bytes: Int
    }

    public let headPosition: Position
    public let mapSize: Int
    /// Bytes of the map in use (the file's extent).
    public let usedBytes: Int
    public let readersInUse: Int
    public let maxReaders: Int
    public let databases: [DatabaseInfo]
}

extension LMDBEventStore {
    /// Sizes of the log and of each of its databases.
    public func storageInfo() throws -> LogStorageInfo {
        let info = environment.info()
        let databases = self.databases
        let named: [Database] = [databases.events, databases.streamHeads, databases.subjectHeads, databases.checkpoints, databases.meta]
            + NameKind.allCases.flatMap { [databases.tables($0).numbers, databases.tables($0).names] }
        return try withReader { reader in
            LogStorageInfo(
                headPosition: Position(try reader.headPosition()), mapSize: info.mapSize, usedBytes: info.usedBytes,
                readersInUse: info.readersInUse, maxReaders: info.maxReaders,
                databases: try named.map { database in
                    let stats = try reader.txn.statistics(database)
                    return .init(name: database.name, entries: stats.entries, bytes: stats.bytes)
                })
        }
    }

    /// Bytes of the map in use.
    public var usedBytes: Int { environment.info().usedBytes }
}
