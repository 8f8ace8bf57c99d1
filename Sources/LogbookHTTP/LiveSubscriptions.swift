import Synchronization

/// The Server-Sent Events subscriptions this server is streaming, and how far each has been
/// sent (events, or positions scanned past by a filtered one), so `/metrics` can say how far the
/// slowest one lags behind the log, in events and in seconds.
final class LiveSubscriptions: Sendable {
    private struct State {
        var nextId: UInt64 = 0
        var positions: [UInt64: UInt64] = [:]
    }

    private let state = Mutex(State())

    /// Starts tracking a subscription standing at `position`; returns its ticket.
    func register(at position: UInt64) -> UInt64 {
        state.withLock { state in
            state.nextId += 1
            state.positions[state.nextId] = position
            return state.nextId
        }
    }

    /// Records that subscription `ticket` has been sent everything up to `position`.
    func advance(_ ticket: UInt64, to position: UInt64) {
        state.withLock { $0.positions[ticket] = position }
    }

    func unregister(_ ticket: UInt64) {
        _ = state.withLock { $0.positions.removeValue(forKey: ticket) }
    }

    /// How many are streaming, and the position of the one furthest behind (nil if none).
    func snapshot() -> (count: Int, slowest: UInt64?) {
        state.withLock { ($0.positions.count, $0.positions.values.min()) }
    }
}
