import Synchronization

/// Points inside an erasure where a crash test stops the process (the test helper kills itself
/// there), so the crash window between two steps can be tested for real, and inside a key's
/// first read, where a test lets an erasure try to come between the read and the cache. Nothing
/// is set outside the package's tests: each hook is then one lock and a nil check per erasure or
/// per key read from the key store.
package enum PrivacyTestHooks {
    private static let tombstoneWritten = Mutex<(@Sendable () -> Void)?>(nil)
    private static let keyRead = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Runs `body` with the user's id right after their key is read from the key store, before it
    /// is cached (nil: nothing runs).
    package static func onKeyRead(_ body: (@Sendable (String) -> Void)?) {
        keyRead.withLock { $0 = body }
    }

    static func afterKeyRead(_ user: String) {
        keyRead.withLock { $0 }?(user)
    }

    /// Runs `body` right after a key's tombstone (and its owed compaction) is committed, before
    /// the key store is compacted.
    package static func onKeyTombstoneWritten(_ body: @escaping @Sendable () -> Void) {
        tombstoneWritten.withLock { $0 = body }
    }

    static func afterKeyTombstone() {
        tombstoneWritten.withLock { $0 }?()
    }
}
