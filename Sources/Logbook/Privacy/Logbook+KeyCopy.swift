public import EventLog
import Foundation

extension Logbook {
    /// Makes `target` — a shared log that a copy of the embedded store at `path` goes into
    /// (`logbook copy`) — ready to hold that store's payloads as they are: records the store's
    /// payload format in it, then copies every user's key and every erased user's tombstone.
    /// Refuses, writing nothing more, a log that keeps another format, one that holds another key
    /// for a user of the store, or that erased none of those the store erased, or the reverse.
    /// Answers how many users' rows it copied (0 for a plaintext store).
    public static func copyKeys(ofStoreAt path: String, to target: any SharedLog) async throws -> Int {
        let format = try payloadFormat(ofStoreAt: path)
        guard format.seals else { throw PayloadKeys.firstFormatSealsNothing() }
        let recorded = try await target.payloadFormat(proposing: format.rawValue)
        guard recorded == format.rawValue else {
            throw LogbookError.conflict(
                stream: "payloads", reason: "the target log keeps payloads as \(recorded) and \(path) as \(format.rawValue): copy into an empty database")
        }
        guard format.isEncrypted else { return 0 }
        let store = try UserKeyStore(
            directory: (path as NSString).appendingPathComponent("keys"), creatingWith: .plaintext, readOnly: true, durability: .durable)
        let entries: [(user: String, entry: UserKeyStore.Entry)]
        do {
            entries = try store.allEntries()
            store.close()
        } catch {
            store.close()
            throw error
        }
        var copied = 0
        var start = entries.startIndex
        while start < entries.endIndex {
            let chunk = entries[start..<min(start + 1_024, entries.endIndex)]
            start = chunk.endIndex
            var keys: [String: [UInt8]] = [:]
            for (user, entry) in chunk { if case .key(let key) = entry { keys[user] = key.copiedBytes() } }
            let erased = chunk.filter { $0.entry.isErased }.map(\.user)
            let stored = try await target.makeUserKeys(keys).merging(try await target.userKeys(of: erased)) { $1 }
            for (user, key) in keys where stored[user] != .key(key) {
                throw LogbookError.conflict(stream: "user-\(user)", reason: "the target log holds another key for \(user), or erased them: it is another log")
            }
            for user in erased {
                switch stored[user] {
                case .erased?: continue
                case .key?: throw LogbookError.conflict(stream: "user-\(user)", reason: "\(user) was erased in \(path) but holds a key in the target log")
                case nil: try await target.destroyUserKey(user)
                }
            }
            copied += chunk.count
        }
        return copied
    }
}
