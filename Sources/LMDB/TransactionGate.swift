import Foundation

/// Lets many transactions run at once, or one map resize run alone.
///
/// LMDB only allows `mdb_env_set_mapsize` while the process has no open transaction, so every
/// transaction enters the gate while it runs and a resize waits for the gate to empty. New
/// transactions wait while a resize is pending, so a steady stream of readers cannot starve it.
final class TransactionGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var active = 0
    private var exclusivePending = 0
    private var exclusiveRunning = false

    func enter() {
        condition.lock()
        while exclusiveRunning || exclusivePending > 0 { condition.wait() }
        active += 1
        condition.unlock()
    }

    func leave() {
        condition.lock()
        active -= 1
        if active == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Runs `body` with no transaction open in this process (other than none).
    func exclusively<R>(_ body: () throws -> R) rethrows -> R {
        condition.lock()
        exclusivePending += 1
        while active > 0 || exclusiveRunning { condition.wait() }
        exclusivePending -= 1
        exclusiveRunning = true
        condition.unlock()
        defer {
            condition.lock()
            exclusiveRunning = false
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
