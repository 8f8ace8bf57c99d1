import Foundation
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Testing

/// `Schemas/openapi.json` checked from outside: against the OpenAPI 3.1 meta-schema
/// (openapi-spec-validator), and by schemathesis fuzzing a real `logbook serve` over the demo
/// data set with the checks the document promises: no server error, only documented statuses and
/// content types, every answer valid against its schema, every request outside the schema refused.
@Suite("API contract, checked from outside", .serialized)
struct APIFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the document is valid OpenAPI 3.1 (openapi-spec-validator)")
    func metaSchema() async throws {
        let (status, output) = try await Self.run("python3", [
            "-c", "import sys; from openapi_spec_validator import validate; from openapi_spec_validator.readers import read_from_filename; "
                + "d, u = read_from_filename(sys.argv[1]); validate(d, base_uri=u); print('valid')",
            Self.root.appendingPathComponent("Schemas/openapi.json").path,
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("valid"))
    }

    @Test("schemathesis at 100 examples per operation finds nothing (fixed seed)")
    func schemathesis() async throws {
        try await withTemporaryDirectory { directory in
            let (demo, demoOutput) = try await Self.run(logbookExecutable.path, ["demo", "--path", directory + "/data", "--users", "3", "--no-serve"])
            try #require(demo == 0, "\(demoOutput)")
            let (server, base) = try ServerProcessTests.start(
                ["serve", "--path", directory + "/data", "--port", "0", "--log-level", "error"], until: #"http://127\.0\.0\.1:[0-9]+"#)
            defer { server.terminate() }
            let url = String(base[base.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression)!])
            let admin = try await TokenKeys(secret: testSecret).token(user: "admin", admin: true)
            // Through python3 (as tools/setup installed it), whatever PATH holds for pip's scripts.
            let (status, output) = try await Self.run("python3", [
                "-c", "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; schemathesis()",
                "--config-file", Self.root.appendingPathComponent("tools/schemathesis.toml").path,
                "run", Self.root.appendingPathComponent("Schemas/openapi.json").path, "--url", url,
                "-H", "Authorization: Bearer \(admin)",
                "--checks", "not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance,negative_data_rejection",
                "--max-examples", "100", "--seed", "20261123", "--request-timeout", "30", "--workers", "2",
                // Subscriptions stream until the client leaves (SubscriptionTests cover them).
                "--exclude-path-regex", "subscribe$",
            ], in: directory)  // its cache (.schemathesis/) goes with the temporary directory
            let summary = output.range(of: "SUMMARY").map { String(output[$0.lowerBound...]) } ?? String(output.suffix(4000))
            print("schemathesis summary:\n\(summary)")
            #expect(status == 0, "\(output.suffix(20_000))")
        }
    }

    /// Runs `program arguments` (found on PATH) to its end without blocking a thread of the
    /// cooperative pool, in `directory` if given; returns its exit status and output (stdout and stderr).
    static func run(_ program: String, _ arguments: [String], in directory: String? = nil) async throws -> (Int32, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-run-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_JWT_SECRET": testSecret, "NO_COLOR": "1"]) { $1 }
        process.standardOutput = handle
        process.standardError = handle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return (status, String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }
}
