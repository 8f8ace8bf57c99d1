import Synchronization

/// Points inside an erasure where a crash test stops the process (the test helper kills itself
/// there), so the crash window between two steps can be tested for real. Nothing is set outside
/// the package's tests: the hook is then one lock and a nil check per erasure.
package enum PrivacyTestHooks {
    private static let tombstoneWritten = Mutex<(@Sendable () -> Void)?>(nil)

    /// Runs `body` right after a key's tombstone (and its owed compaction) is committed, before
    /// the key store is compacted.
    package static func onKeyTombstoneWritten(_ body: @escaping @Sendable () -> Void) {
        tombstoneWritten.withLock { $0 = body }
    }

    static func afterKeyTombstone() {
        tombstoneWritten.withLock { $0 }?()
    }
}
