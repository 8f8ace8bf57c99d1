public import EventLog
import Foundation
import LMDB

extension LMDBEventStore {
    /// Sizes of the log and of each of its databases.
    public func storageInfo() async throws -> LogStorageInfo {
        let info = environment.info()
        let databases = self.databases
        let named: [Database] = [databases.events, databases.orderedIds, databases.otherIds, databases.streamHeads, databases.subjectHeads, databases.checkpoints, databases.meta]
            + NameKind.allCases.flatMap { [databases.tables($0).numbers, databases.tables($0).names] }
        return try withReader { reader in
            LogStorageInfo(
                backend: "lmdb", headPosition: Position(try reader.headPosition()), mapSize: info.mapSize, usedBytes: info.usedBytes,
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
