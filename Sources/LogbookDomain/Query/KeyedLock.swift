import EventLog
import Synchronization

/// Runs async critical sections one at a time per key (a user, the catalog), in arrival order.
///
/// Commands of one user are decided and appended under the user's key, so a rule that spans
/// streams (one active workout per user) is judged against state no other command of this
/// process is changing.
package final class KeyedLock: Sendable {
    private struct State {
        var held: Set<BytewiseString> = []
        var waiting: [BytewiseString: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// Runs `body` holding `key` (compared as bytes, as ids are).
    package func withLock<R: Sendable>(_ name: String, _ body: () async throws -> R) async throws -> R {
        let key = BytewiseString(name)
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: BytewiseString) async {
        let acquired = state.withLock { state in state.held.insert(key).inserted }
        if acquired { return }
        await withCheckedContinuation { continuation in
            let immediate = state.withLock { state -> Bool in
                if state.held.insert(key).inserted { return true }
                state.waiting[key, default: []].append(continuation)
                return false
            }
            if immediate { continuation.resume() }
        }
    }

    private func release(_ key: BytewiseString) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if var queue = state.waiting[key], !queue.isEmpty {
                let next = queue.removeFirst()
                state.waiting[key] = queue.isEmpty ? nil : queue
                return next  // the key stays held: ownership passes to the next waiter
            }
            state.held.remove(key)
            return nil
        }
        next?.resume()
    }
}
