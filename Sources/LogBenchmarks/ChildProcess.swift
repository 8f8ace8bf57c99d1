import Foundation

/// A program the benchmarks run beside themselves (the C baseline, `logbook import`, python3).
enum ChildProcess {
    /// Runs `program arguments` to its end without blocking a thread of the cooperative pool, its
    /// standard output into `output` (or discarded); returns its exit status.
    static func run(_ program: URL, _ arguments: [String], output: URL? = nil) async throws -> Int32 {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var handle: FileHandle?
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        defer { try? handle?.close() }
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
    }
}
