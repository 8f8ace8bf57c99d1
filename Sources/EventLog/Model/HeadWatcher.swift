import Synchronization

/// Tells waiting subscribers when the log's head moves past the position they have read.
///
/// Shared by the backends. The writer (or, for a shared database, whoever learns of a commit) publishes each new head; a subscriber that finds nothing new to
/// read waits here. Waits are cancellable and leave nothing behind.
package final class HeadWatcher: Sendable {
    private struct Waiter {
        let after: UInt64
        let continuation: CheckedContinuation<Bool, any Error>
    }

    private struct State {
        var head: UInt64
        var closed = false
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
    }

    private let state: Mutex<State>

    package init(head: UInt64) { state = Mutex(State(head: head)) }

    package var head: UInt64 { state.withLock { $0.head } }

    /// Records a new head and wakes everyone waiting for less.
    package func publish(_ head: UInt64) {
        let ready: [Waiter] = state.withLock { state in
            guard head > state.head else { return [] }
            state.head = head
            var ready: [Waiter] = []
            for (id, waiter) in state.waiters where waiter.after < head {
                ready.append(waiter)
                state.waiters[id] = nil
            }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// Wakes every waiter with `false`: the log is closing.
    package func close() {
        let all: [Waiter] = state.withLock { state in
            state.closed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in all { waiter.continuation.resume(returning: false) }
    }

    /// Waits until the head is past `position`. Returns false if the log closed first; throws
    /// `CancellationError` if the task is cancelled.
    package func wait(forHeadAfter position: UInt64) async throws -> Bool {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                let immediate: Result<Bool, any Error>? = state.withLock { state in
                    if state.closed { return .success(false) }
                    if state.head > position { return .success(true) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = Waiter(after: position, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}
