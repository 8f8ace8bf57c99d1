import EventLog
import Synchronization

/// How many workout-file imports a server runs at once, overall and per user: each import reads
/// and decompresses a file on a thread of its own, so without a bound a few clients could start
/// as many threads and as much memory as they like. An import that finds no free slot is refused
/// at once (no queue to grow): 429 when the user has too many running, 503 when the server has.
final class ImportSlots: Sendable {
    private struct State {
        var running = 0
        var byUser: [BytewiseString: Int] = [:]
    }

    private let state = Mutex(State())
    let limits: FileImportLimits

    init(limits: FileImportLimits) { self.limits = limits }

    /// Runs `body` in a slot of `user`'s, or refuses, naming the limit, if none is free.
    func withSlot<R: Sendable>(for user: String, _ body: () async throws -> R) async throws -> R {
        let key = BytewiseString(user)
        try state.withLock { state in
            guard state.byUser[key, default: 0] < limits.maxConcurrentPerUser else {
                throw Problem(.tooManyRequests, type: "/problems/too-many-imports", title: "Too many imports",
                              detail: "this user has \(limits.maxConcurrentPerUser) import(s) running, the limit per user: retry when it ends")
            }
            guard state.running < limits.maxConcurrent else {
                throw Problem(.serviceUnavailable, type: "/problems/imports-busy", title: "The server is busy importing",
                              detail: "the server runs \(limits.maxConcurrent) imports at once, its limit: retry shortly")
            }
            state.running += 1
            state.byUser[key, default: 0] += 1
        }
        defer {
            state.withLock { state in
                state.running -= 1
                let left = state.byUser[key, default: 1] - 1
                state.byUser[key] = left > 0 ? left : nil
            }
        }
        return try await body()
    }
}
