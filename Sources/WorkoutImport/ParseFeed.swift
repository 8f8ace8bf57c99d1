import Foundation
import Synchronization
import WorkoutFiles

/// Hands a streaming parser's output (on a thread of its own: parsing blocks on file reads) to an
/// async consumer, a few items at a time: the parser waits while `capacity` items are unconsumed,
/// so memory stays bounded however large the file.
final class ParseFeed: Sendable {
    let items: AsyncThrowingStream<WorkoutFileEvent, any Error>
    private let continuation: AsyncThrowingStream<WorkoutFileEvent, any Error>.Continuation
    private let room: DispatchSemaphore
    private let cancelled = Mutex(false)

    init(capacity: Int = 8) {
        (items, continuation) = AsyncThrowingStream.makeStream(bufferingPolicy: .unbounded)
        room = DispatchSemaphore(value: capacity)
    }

    /// Runs `parse` on a new thread; every item it gives is yielded once there is room.
    func start(_ parse: @escaping @Sendable (_ sink: (WorkoutFileEvent) throws -> Void) throws -> Void) {
        Thread { [self] in
            do {
                try parse { item in
                    room.wait()
                    guard !cancelled.withLock({ $0 }) else { throw CancellationError() }
                    continuation.yield(item)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }.start()
    }

    /// The consumer is done with one item: the parser may go on.
    func consumed() { room.signal() }

    /// The consumer stopped (early or not): a parser still running stops at its next item.
    func cancel() {
        cancelled.withLock { $0 = true }
        continuation.finish()
        room.signal()
    }
}
