import EventLog
import Foundation
import LMDB

extension LMDBEventStore {
    /// Rewrites the log's data file at `path` compacted, holding the writer's lock throughout (a
    /// server writing the log makes this fail at once): free pages — which may still hold bytes
    /// of data that was deleted or rewritten, such as read-model records of an erased user — are
    /// left out of the new file, which then replaces the old one. Returns the bytes before and after.
    public static func compact(path: String, configuration: LogConfiguration = .init()) throws -> (before: Int, after: Int) {
        let lock = try WriterLockFile(directory: path)
        defer { lock.release() }
        var options = EnvironmentOptions()
        options.maxDatabases = configuration.maxDatabases
        options.initialMapSize = configuration.initialMapSize
        options.maxMapSize = configuration.maxMapSize
        return try Environment.compactDataFile(inDirectory: path, options: options)
    }
}
