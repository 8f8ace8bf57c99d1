public import EventLog
public import Foundation
import Synchronization

/// Opens a real LMDB-backed log in a fresh temporary directory, runs `body`, closes the log and
/// removes the directory, even if `body` throws.
public func withStore<R>(
    _ configure: (inout LogConfiguration) -> Void = { _ in },
    _ body: (LMDBEventStore, String) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { path in
        var configuration = LogConfiguration()
        configure(&configuration)
        let store = try LMDBEventStore(path: path + "/log", configuration: configuration)
        do {
            let result = try await body(store, path + "/log")
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

/// A clock that answers fixed, increasing timestamps, for repeatable `recordedAt`.
public final class SteppingClock: LogClock, Sendable {
    private let next = Mutex<Int64>(1_795_000_000_000_000)
    public init() {}
    public func now() -> Timestamp {
        Timestamp(microsecondsSinceEpoch: next.withLock { value in
            defer { value += 1000 }
            return value
        })
    }
}

/// A test event with a readable payload.
public func testEvent(
    _ text: String = "payload", type: String = "test.happened", subject: String? = "u-1",
    id: UUID = UUID(), occurredAt: Timestamp = Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000, utcOffsetSeconds: 3600)
) -> ProposedEvent {
    ProposedEvent(eventId: id, type: type, subject: subject, occurredAt: occurredAt, payload: Array(text.utf8))
}

extension RecordedEvent {
    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// The `logbook` executable built beside the test bundle.
public var logbookExecutable: URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return testBinary.deletingLastPathComponent().appendingPathComponent("logbook")
}
