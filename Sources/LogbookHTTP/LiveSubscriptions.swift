import EventLog
import Synchronization

/// The Server-Sent Events subscriptions this server is streaming, and how far each has been
/// sent (events, or positions scanned past by a filtered one), so `/metrics` can say how far the
/// slowest one lags behind the log, in events and in seconds.
final class LiveSubscriptions: Sendable {
    private struct State {
        var nextId: UInt64 = 0
        var positions: [UInt64: UInt64] = [:]
        /// Subscriptions each caller holds (by user id, as bytes).
        var held: [BytewiseString: Int] = [:]
    }

    private let state = Mutex(State())
    /// The most subscriptions one caller may hold at once (each catches up from the log on its own).
    let maxPerCaller: Int

    init(maxPerCaller: Int = 4) { self.maxPerCaller = maxPerCaller }

    /// A subscription slot of one caller, given back when the last reference to it goes (the
    /// response body that streams, whether it ran or was dropped unsent).
    final class Slot: Sendable {
        private let owner: LiveSubscriptions
        private let caller: BytewiseString

        fileprivate init(owner: LiveSubscriptions, caller: BytewiseString) {
            self.owner = owner
            self.caller = caller
        }

        deinit { owner.release(caller) }
    }

    /// A slot for `caller`, or nil when they already hold ``maxPerCaller`` subscriptions.
    func reserve(for caller: String) -> Slot? {
        let key = BytewiseString(caller)
        let taken = state.withLock { state -> Bool in
            guard state.held[key, default: 0] < maxPerCaller else { return false }
            state.held[key, default: 0] += 1
            return true
        }
        return taken ? Slot(owner: self, caller: key) : nil
    }

    fileprivate func release(_ caller: BytewiseString) {
        state.withLock { state in
            let left = state.held[caller, default: 1] - 1
            state.held[caller] = left > 0 ? left : nil
        }
    }

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
