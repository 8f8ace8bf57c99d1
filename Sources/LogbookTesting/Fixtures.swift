public import EventLog
public import Foundation
import Synchronization

/// Runs `body` with a fresh directory that is removed afterwards, even if `body` throws.
public func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("logbook-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
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
    /// The payload read as UTF-8 text (test events carry text).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}
