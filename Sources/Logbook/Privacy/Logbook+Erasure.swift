import EventLog
import Foundation

extension Logbook {
    /// How this store keeps its events' payloads: encrypted per user (new stores), or plaintext
    /// (stores from before, and logs shared in PostgreSQL).
    public var payloadFormat: PayloadFormat { payloads.format }

    /// How the embedded store at `path` keeps payloads, read from its key store without opening
    /// the store (plaintext if it has none).
    public static func payloadFormat(ofStoreAt path: String) throws -> PayloadFormat {
        let directory = (path as NSString).appendingPathComponent("keys")
        guard FileManager.default.fileExists(atPath: directory + "/data.mdb") else { return .plaintext }
        let keys = try UserKeyStore(directory: directory, creatingWith: .plaintext, readOnly: true, durability: .durable)
        defer { keys.close() }
        return keys.format
    }

    /// Finishes erasures a crash cut off after the key was destroyed and before the read models
    /// were rebuilt without the user (run on open): if the profile read model still holds an
    /// erased user, every read model is rebuilt once.
    func finishCutOffErasures() async throws {
        guard payloads.encrypts, !configuration.log.readOnly, let store = payloads.store else { return }
        for user in try store.erasedUsers() where (try? await profile(user: user)) != nil {
            try await rebuild(Set(ReadModelKind.allCases), fresh: true) { _ in }
            cache.clear()
            return
        }
    }

    /// Forgets `user` (GDPR Art. 17; see <doc:Privacy>): appends `user.erased` to the user's
    /// stream, then destroys the user's key (and rewrites the key store compacted, so the key's
    /// bytes are gone from its file), then rebuilds every read model — in which the user's events,
    /// unreadable now, fold to nothing — and clears the caches. Afterwards the user's events are
    /// still in the log (positions, types, times, stream names and the user id) but their payloads
    /// read as erased everywhere: queries, the timeline, exports (tombstones) and backups made from
    /// now on. Commands and imports for the user are refused (``DomainRule/userErased``).
    ///
    /// A retry after it finished writes nothing (`alreadyApplied`); an erasure a crash cut off
    /// after the key was destroyed is finished by the retry, or when the store opens again. Erasures and backups take turns. The rebuild makes the erasure cost a full
    /// rebuild (`/ready` answers 503 meanwhile); queries of other users keep answering from it.
    @discardableResult
    public func erase(user: String, context: CommandContext = .init()) async throws -> CommandResult {
        guard payloads.encrypts else { throw PayloadKeys.plaintextStore(user) }
        return try await locks.withLock(Self.privacyLock) {
            let stream = "user-\(user)"
            if try isErased(user) {
                // Erased before, but the read models may still hold the user (the rebuild was cut
                // off): the profile read model holds every registered user, so it tells.
                if (try? await profile(user: user)) != nil {
                    try await rebuild(Set(ReadModelKind.allCases), fresh: true) { _ in }
                    cache.clear()
                }
                return CommandResult(
                    stream: stream, firstPosition: 0, lastPosition: 0, streamVersion: try await log.streamVersion(stream) ?? 0,
                    alreadyApplied: true, workoutId: nil)
            }
            let result = try await decideAndAppendAlone(.eraseUser(user: user), context)
            try payloads.destroyKey(of: user)
            try await rebuild(Set(ReadModelKind.allCases), fresh: true) { _ in }
            cache.clear()
            return result
        }
    }
}
