import EventLog
import Synchronization

/// Runs `body`, but gives up after `timeout` with ``EventStoreError/Code/unavailable``: while
/// PostgreSQL is down a connection request can wait for a long time, and callers (an HTTP
/// request, a command) must fail fast instead. The abandoned work is cancelled.
///
/// A write passes `gate`: until it sends its COMMIT the deadline (or the caller's cancellation)
/// abandons it as any work, and the write rolls back; once the COMMIT is on its way only
/// PostgreSQL knows whether it commits, so the deadline no longer answers for it and the caller
/// waits for the write's own answer (which bounds its wait for the commit itself).
func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: String, gate: CommitGate? = nil, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.start(continuation)
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled, gate?.abandon() ?? true {
                    race.finish(.failure(EventStoreError.unavailable("PostgreSQL did not answer within \(timeout) (\(what))")))
                }
            }
            race.track(work: work, timer: timer)
        }
    } onCancel: {
        if gate?.abandon() ?? true { race.finish(.failure(CancellationError())) }
    }
}

/// Whether a write may still be abandoned: until it sends its COMMIT, a deadline may give it up
/// (it then rolls back instead of committing); from then on, nothing but PostgreSQL's answer
/// (or its silence, which the write bounds itself) ends it.
final class CommitGate: Sendable {
    private enum Phase { case working, abandoned, committing }
    private let phase = Mutex(Phase.working)

    /// Called by the write before it sends COMMIT: false if it was abandoned (roll back instead).
    func enterCommit() -> Bool {
        phase.withLock { phase in
            guard phase == .working else { return false }
            phase = .committing
            return true
        }
    }

    /// Called by the deadline: true if the write is abandoned now (or was), false if it commits.
    func abandon() -> Bool {
        phase.withLock { phase in
            guard phase != .committing else { return false }
            phase = .abandoned
            return true
        }
    }
}

/// The work and the timer of one ``withDeadline(_:_:_:)``: whichever finishes first resumes the
/// caller and cancels the other.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    /// Keeps the caller's continuation; if the caller was cancelled already, resumes it at once.
    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let cancelled = state.withLock { state in
            if !state.finished { state.continuation = continuation }
            return state.finished
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    func track(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let finished = state.withLock { state in
            if !state.finished {
                state.work = work
                state.timer = timer
            }
            return state.finished
        }
        if finished {
            work.cancel()
            timer.cancel()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = state.withLock { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Task<Void, Never>?) in
            guard !state.finished else { return (nil, nil, nil) }
            state.finished = true
            defer { state.continuation = nil; state.work = nil; state.timer = nil }
            return (state.continuation, state.work, state.timer)
        }
        work?.cancel()
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
