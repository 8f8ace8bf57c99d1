public import Synchronization

/// The writes concurrent writers had acknowledged, each marked with whether it was sent before a
/// backup began, for tests that back up while others write.
public final class Acknowledged: Sendable {
    /// Each acknowledged write's last position, and whether it was sent before the backup began.
    public let entries = Mutex<[(position: UInt64, atBackupStart: Bool)]>([])
    /// Set just before the backup begins.
    public let backupStarted = StartFlag()

    public init() {}
}

/// A flag one task sets and others read (release and acquire ordering).
public final class StartFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { flag.load(ordering: .acquiring) }
    public func set() { flag.store(true, ordering: .releasing) }
}
