import Foundation
@testable import WorkoutFiles

/// Writes bytes to a fresh temporary file, runs `body` with its URL and removes it.
func withTemporaryFile<R>(_ bytes: [UInt8], suffix: String = ".zip", _ body: (URL) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("wf-hostile-\(UUID().uuidString)\(suffix)")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}
