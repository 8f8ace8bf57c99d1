import Synchronization

/// Tasks waiting for the read models to reach a position, woken as the position moves.
final class PositionWaiters: Sendable {
    private struct Waiter {
        let id: UInt64
        let position: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var reached: UInt64 = 0
        var closed = false
        var nextId: UInt64 = 0
        var waiters: [Waiter] = []
        /// Waiters let go before they had even registered.
        var abandoned: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// The position reached so far.
    var reached: UInt64 { state.withLock { $0.reached } }

    /// Records that `position` is reached, waking whoever waited for it or less.
    func advance(to position: UInt64) {
        let ready = state.withLock { state -> [Waiter] in
            guard position > state.reached else { return [] }
            state.reached = position
            let ready = state.waiters.filter { $0.position <= position }
            state.waiters.removeAll { $0.position <= position }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    /// Wakes every waiter with a refusal; later waits return false at once.
    func close() {
        let all = state.withLock { state -> [Waiter] in
            state.closed = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in all { waiter.continuation.resume(returning: false) }
    }

    /// True once `position` is reached; false if `timeout` passed first or the waiters closed.
    func wait(for position: UInt64, timeout: Duration) async -> Bool {
        if state.withLock({ $0.reached >= position }) { return true }
        let id = state.withLock { state -> UInt64 in
            state.nextId += 1
            return state.nextId
        }
        return await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await self.suspend(id: id, until: position) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil { self.cancel(id: id) }
            group.cancelAll()
            return first ?? (self.reached >= position)
        }
    }

    private func suspend(id: UInt64, until position: UInt64) async -> Bool? {
        await withCheckedContinuation { continuation in
            let immediate: Bool? = state.withLock { state in
                if state.reached >= position { return true }
                if state.closed || state.abandoned.remove(id) != nil { return false }
                state.waiters.append(Waiter(id: id, position: position, continuation: continuation))
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Lets go of waiter `id` (its time ran out): it answers false.
    private func cancel(id: UInt64) {
        let removed = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                state.abandoned.insert(id)
                return nil
            }
            return state.waiters.remove(at: index)
        }
        removed?.continuation.resume(returning: false)
    }
}
