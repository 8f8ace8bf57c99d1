import Foundation

/// A `logbook serve` process beside the benchmark, on a port of its own, with a fresh signing
/// secret and tokens for the benchmark's users; stopped (SIGTERM, then waited for) when done.
final class ServedStore: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let program: URL
    private let secret: String

    /// Serves the store at `path` with `arguments` added to `serve`'s; returns once it listens.
    init(program: URL, path: String, arguments: [String] = []) async throws {
        self.program = program
        secret = Data((0..<48).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        process.executableURL = program
        process.arguments = ["serve", "--path", path, "--port", "0", "--log-level", "warning", "--week-closing-seconds", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_JWT_SECRET": secret]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        // "logbook serving … on http://127.0.0.1:PORT (…)" once it listens.
        let handle = output.fileHandleForReading
        let announced: Int? = await withCheckedContinuation { continuation in
            Thread {
                var text = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return continuation.resume(returning: nil) }
                    text += String(decoding: data, as: UTF8.self)
                    if let range = text.range(of: "http://127.0.0.1:"), let end = text[range.upperBound...].firstIndex(of: " ") {
                        return continuation.resume(returning: Int(text[range.upperBound..<end]))
                    }
                }
            }.start()
        }
        guard let announced else {
            process.terminate()
            throw BenchmarkFailure("logbook serve did not start (see its standard error above)")
        }
        port = announced
    }

    /// A bearer token for `user` (`logbook token`, signed with this server's secret).
    func token(user: String, admin: Bool = false) throws -> String {
        let token = Process()
        token.executableURL = program
        token.arguments = ["token", "--user", user, "--lifetime", "86400"] + (admin ? ["--admin"] : [])
        token.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_JWT_SECRET": secret]) { $1 }
        let output = Pipe()
        token.standardOutput = output
        try token.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        token.waitUntilExit()
        guard token.terminationStatus == 0 else { throw BenchmarkFailure("logbook token failed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server (SIGTERM: it drains and closes its store) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
