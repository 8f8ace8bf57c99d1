/// Test helpers shared by the test targets: temporary directories, stores, clocks, events.
import Foundation

/// Runs `body` with a fresh directory that is removed afterwards, even if `body` throws.
public func withTemporaryDirectory<R>(_ body: (String) async throws -> R) async throws -> R {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("logbook-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}
