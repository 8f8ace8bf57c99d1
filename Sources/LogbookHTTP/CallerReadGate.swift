import EventLog
import Hummingbird
import Synchronization

/// How many reads one caller has in progress at once: at most ``maxInFlight`` are served, the
/// next ``maxWaiting`` wait their turn in arrival order (holding no thread), and past those a read
/// is refused with 429 `/problems/too-many-requests` and `Retry-After`.
///
/// Each read is cheap alone, but a caller on many connections would otherwise have as many
/// handlers competing for the threads that serve everyone: this keeps any one caller's share of
/// them to ``maxInFlight``, so another user's read waits behind a few at most. Callers are told
/// apart by their identity's user id, compared as bytes. The slot is held until the handler
/// returns its response: a streamed body (Server-Sent Events) does not hold it.
final class CallerReadGate: Sendable {
    private struct Waiter {
        let ticket: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Caller {
        var inFlight = 0
        var waiting: [Waiter] = []
    }

    private struct State {
        var callers: [BytewiseString: Caller] = [:]
        var nextTicket: UInt64 = 0
    }

    let maxInFlight: Int
    let maxWaiting: Int
    private let state = Mutex(State())

    /// A gate serving `maxInFlight` (at least 1) reads of a caller at once, with `maxWaiting`
    /// (at least 0) more waiting.
    init(maxInFlight: Int, maxWaiting: Int) {
        self.maxInFlight = max(1, maxInFlight)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Runs `body` once `caller` has a slot; refuses with 429 when their waiting line is full.
    func serve<T: Sendable>(_ caller: String, _ body: () async throws -> T) async throws -> T {
        let key = BytewiseString(caller)
        try await enter(key)
        do {
            let value = try await body()
            leave(key)
            return value
        } catch {
            leave(key)
            throw error
        }
    }

    /// Reads in progress and waiting, over every caller (for tests and metrics).
    var counts: (inFlight: Int, waiting: Int) {
        state.withLock { state in
            state.callers.values.reduce((0, 0)) { ($0.0 + $1.inFlight, $0.1 + $1.waiting.count) }
        }
    }

    private enum Entry { case admitted, refused, waits(UInt64) }

    private func enter(_ key: BytewiseString) async throws {
        let ticket = state.withLock { state -> UInt64 in
            state.nextTicket += 1
            return state.nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let entry = state.withLock { state -> Entry in
                    var caller = state.callers[key, default: Caller()]
                    defer { state.callers[key] = caller }
                    if caller.inFlight < maxInFlight {
                        caller.inFlight += 1
                        return .admitted
                    }
                    guard caller.waiting.count < maxWaiting else { return .refused }
                    caller.waiting.append(Waiter(ticket: ticket, continuation: continuation))
                    return .waits(ticket)
                }
                switch entry {
                case .admitted: continuation.resume()
                case .refused: continuation.resume(throwing: Self.refusal(maxInFlight + maxWaiting))
                case .waits: break
                }
            }
        } onCancel: {
            // A waiting read whose request went away leaves the line (one admitted keeps its slot
            // until `serve` gives it back).
            let removed = state.withLock { state -> Waiter? in
                guard var caller = state.callers[key], let index = caller.waiting.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                let waiter = caller.waiting.remove(at: index)
                state.callers[key] = caller
                return waiter
            }
            removed?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives the slot to the caller's next waiting read, or frees it.
    private func leave(_ key: BytewiseString) {
        let next = state.withLock { state -> Waiter? in
            guard var caller = state.callers[key] else { return nil }
            if !caller.waiting.isEmpty {
                let waiter = caller.waiting.removeFirst()
                state.callers[key] = caller
                return waiter
            }
            caller.inFlight -= 1
            state.callers[key] = caller.inFlight > 0 ? caller : nil
            return nil
        }
        next?.continuation.resume()
    }

    private static func refusal(_ held: Int) -> Problem {
        var problem = Problem(.tooManyRequests, type: "/problems/too-many-requests", title: "Too many requests",
                              detail: "this caller already has \(held) reads in progress or waiting; send fewer at once")
        problem.retryAfterSeconds = 1
        return problem
    }
}

/// Puts every read (GET or HEAD) of a signed-in caller through the ``CallerReadGate``.
struct CallerReadGateMiddleware<Context: LogbookRouteContext>: RouterMiddleware {
    let gate: CallerReadGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let caller = context.identity?.user else {
            return try await next(request, context)
        }
        return try await gate.serve(caller) { try await next(request, context) }
    }
}
