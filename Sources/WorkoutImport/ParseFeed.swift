import Foundation
import WorkoutFiles

/// Hands a streaming parser's output (on a thread of its own: parsing blocks on file reads) to an
/// async consumer, a few items at a time: the parser waits while `capacity` items are unconsumed,
/// so memory stays bounded however large the file. ``cancel()`` (always called when the consumer
/// stops, early or not) releases a waiting parser, which then stops at its next item.
final class ParseFeed: @unchecked Sendable {
    let items: AsyncThrowingStream<WorkoutFileEvent, any Error>
    private let continuation: AsyncThrowingStream<WorkoutFileEvent, any Error>.Continuation
    private let capacity: Int
    /// Guards `unconsumed` and `cancelled` (the parser thread waits on it).
    private let condition = NSCondition()
    private var unconsumed = 0
    private var cancelled = false

    init(capacity: Int = 8) {
        (items, continuation) = AsyncThrowingStream.makeStream(bufferingPolicy: .unbounded)
        self.capacity = max(1, capacity)
    }

    /// Runs `parse` on a new thread; every item it gives is yielded once there is room.
    func start(_ parse: @escaping @Sendable (_ sink: (WorkoutFileEvent) throws -> Void) throws -> Void) {
        Thread { [self] in
            do {
                try parse { item in
                    condition.lock()
                    while unconsumed >= capacity && !cancelled { condition.wait() }
                    let stop = cancelled
                    if !stop { unconsumed += 1 }
                    condition.unlock()
                    if stop { throw CancellationError() }
                    continuation.yield(item)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }.start()
    }

    /// The consumer is done with one item: the parser may go on.
    func consumed() {
        condition.lock()
        unconsumed -= 1
        condition.signal()
        condition.unlock()
    }

    /// The consumer stopped: a parser still running stops at its next item.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        continuation.finish()
    }
}
