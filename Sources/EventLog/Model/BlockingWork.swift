import Foundation

/// Blocking work (file I/O, a long copy) run on a thread of its own, so it never holds one of
/// Swift's cooperative threads while it waits on the disk.
public enum BlockingWork {
    /// Runs `work` on a new thread and returns its result.
    public static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
