import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// The `logbook` binary, run as a user runs it.
@Suite("Command line")
struct CLITests {
    /// A small demo data set generated into a fresh directory.
    static func withDemo(_ body: (String) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/data"
            let (status, output) = try await runLogbook(["demo", "--path", path, "--users", "2", "--no-serve"], includeErrors: true)
            #expect(status == 0, "\(output)")
            try await body(path)
        }
    }

    @Test("export → import into an empty store → export is byte-identical; importing again writes nothing")
    func exportImportRoundTrip() async throws {
        try await Self.withDemo { path in
            let directory = (path as NSString).deletingLastPathComponent
            let first = directory + "/first.ndjson", second = directory + "/second.ndjson"
            #expect(try await runLogbook(["export", "--path", path, "--output", first]).0 == 0)
            let (imported, report) = try await runLogbook(["import", "--path", directory + "/copy", first, "--json", "--durability", "nosync"], includeErrors: true)
            #expect(imported == 0, "\(report)")
            #expect(report.contains("\"alreadyPresent\":0"))
            #expect(try await runLogbook(["export", "--path", directory + "/copy", "--output", second]).0 == 0)
            let original = try Data(contentsOf: URL(fileURLWithPath: first))
            #expect(original.count > 100_000)
            #expect(original == (try Data(contentsOf: URL(fileURLWithPath: second))))
            let (again, secondReport) = try await runLogbook(["import", "--path", directory + "/copy", first, "--json"], includeErrors: true)
            #expect(again == 0)
            #expect(secondReport.contains("\"written\":0"))
            // The copy's read models are the original's.
            let (_, digestsA) = try await runLogbook(["rebuild", "--path", path, "--json"])
            let (_, digestsB) = try await runLogbook(["rebuild", "--path", directory + "/copy", "--json"])
            #expect(digestsA == digestsB)
        }
    }

    @Test("a bad line is refused with its line number and nothing is imported")
    func badImport() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory + "/bad.ndjson"
            let good = #"{"position":1,"stream":"user-ana","streamVersion":0,"eventId":"5b0e4a8e-1d7c-4c5e-9a0b-2f6d8c3e1a70","type":"user.registered","schemaVersion":1,"subject":"ana","occurredAt":"2026-11-17T08:00:00Z","recordedAt":"2026-11-17T08:00:00Z","correlationId":null,"causationId":null,"metadata":{},"data":{"displayName":"Ana","timeZone":"UTC","units":"metric","weekStart":"monday"}}"#
            try (good + "\n" + good.replacingOccurrences(of: "\"units\":\"metric\"", with: "\"units\":\"cubits\"") + "\n")
                .write(toFile: file, atomically: true, encoding: .utf8)
            let (status, output) = try await runLogbook(["import", "--path", directory + "/data", file], includeErrors: true)
            #expect(status != 0)
            #expect(output.contains("bad.ndjson:2"), "\(output)")
            #expect(output.contains("units"), "\(output)")
            let (_, inspect) = try await runLogbook(["inspect", "--path", directory + "/data", "--json"], includeErrors: true)
            #expect(!inspect.contains("\"headPosition\":1"))
        }
    }

    @Test("an import line whose event id is another event's, in the log or the file, is refused by line and nothing is imported")
    func reusedIdImport() async throws {
        try await withTemporaryDirectory { directory in
            func line(_ user: String, id: String) -> String {
                #"{"position":1,"stream":"user-\#(user)","streamVersion":0,"eventId":"\#(id)","type":"user.registered","schemaVersion":1,"subject":"\#(user)","occurredAt":"2026-11-17T08:00:00Z","recordedAt":"2026-11-17T08:00:00Z","correlationId":null,"causationId":null,"metadata":{},"data":{"displayName":"\#(user)","timeZone":"UTC","units":"metric","weekStart":"monday"}}"#
            }
            let anaId = "5b0e4a8e-1d7c-4c5e-9a0b-2f6d8c3e1a70"
            let first = directory + "/first.ndjson", reused = directory + "/reused.ndjson", twice = directory + "/twice.ndjson"
            try (line("ana", id: anaId) + "\n").write(toFile: first, atomically: true, encoding: .utf8)
            try (line("cy", id: "0d6b1f9e-4c55-4f0a-8e2b-7a1c3d5e9f01") + "\n" + line("bob", id: anaId) + "\n").write(toFile: reused, atomically: true, encoding: .utf8)
            try (line("cy", id: "0d6b1f9e-4c55-4f0a-8e2b-7a1c3d5e9f01") + "\n" + line("dee", id: "0d6b1f9e-4c55-4f0a-8e2b-7a1c3d5e9f01") + "\n")
                .write(toFile: twice, atomically: true, encoding: .utf8)
            #expect(try await runLogbook(["import", "--path", directory + "/data", first], includeErrors: true).0 == 0)
            let (status, output) = try await runLogbook(["import", "--path", directory + "/data", reused], includeErrors: true)
            #expect(status != 0)
            #expect(output.contains("reused.ndjson:2"), "\(output)")
            #expect(output.contains(anaId) && output.contains("user-ana"), "\(output)")
            let (twiceStatus, twiceOutput) = try await runLogbook(["import", "--path", directory + "/data", twice], includeErrors: true)
            #expect(twiceStatus != 0)
            #expect(twiceOutput.contains("twice.ndjson:2") && twiceOutput.contains("line 1"), "\(twiceOutput)")
            let (_, inspect) = try await runLogbook(["inspect", "--path", directory + "/data", "--json"], includeErrors: true)
            #expect(inspect.contains("\"headPosition\":1"), "\(inspect)")
            // The first file again is a repeat: nothing new, no error.
            #expect(try await runLogbook(["import", "--path", directory + "/data", first], includeErrors: true).0 == 0)
        }
    }

    @Test("rebuild then verify succeeds; replay to a position; read commands print JSON")
    func rebuildVerifyReplayAndReads() async throws {
        try await Self.withDemo { path in
            let (rebuilt, digests) = try await runLogbook(["rebuild", "--path", path, "--json"])
            #expect(rebuilt == 0)
            #expect(digests.contains("\"sha256\""))
            let (verified, report) = try await runLogbook(["verify", "--path", path], includeErrors: true)
            #expect(verified == 0, "\(report)")
            #expect(report.contains("ok"))
            #expect(!report.contains("MISMATCH"))
            // A mistyped path is refused by name, and no empty store is made there to verify.
            for command in ["verify", "rebuild"] {
                let (status, refusal) = try await runLogbook([command, "--path", path + "-typo"], includeErrors: true)
                #expect(status == 1 && refusal.contains("no Logbook at \(path)-typo"), "\(command): \(refusal)")
                #expect(!FileManager.default.fileExists(atPath: path + "-typo"))
            }
            let (replayed, replay) = try await runLogbook(["replay", "--path", path, "--to", "500", "--json"], includeErrors: true)
            #expect(replayed == 0, "\(replay)")
            #expect(replay.contains("\"position\":500"))
            for arguments in [["timeline", "--user", "u-1000", "--limit", "3"], ["stats", "--user", "u-1000", "--week", "2026-10-28"],
                              ["goals", "--user", "u-1000", "--week", "2026-10-28"], ["places", "--user", "u-1000", "--list", "deck"],
                              ["inspect"], ["timeline", "--user", "u-1000", "--as-of", "400"],
                              ["summary", "--user", "u-1000", "--period", "month", "--to", "2026-10-31"]] {
                let (status, output) = try await runLogbook(arguments + ["--path", path, "--json"], includeErrors: true)
                #expect(status == 0, "\(arguments): \(output)")
                #expect((try? JSONSerialization.jsonObject(with: Data(output.utf8))) != nil, "\(arguments) did not print JSON: \(output.prefix(200))")
            }
            let (_, chart) = try await runLogbook(["stats", "--user", "u-1000", "--week", "2026-10-28", "--path", path])
            #expect(chart.contains("█"))
            let (_, summary) = try await runLogbook(["summary", "--user", "u-1000", "--period", "week", "--to", "2026-10-31", "--path", path])
            #expect(summary.contains("weeks") && summary.contains("█"), "\(summary)")
        }
    }

    @Test("the shipped logbook has no benchmarks: they are logbook-bench's, with the same subcommands")
    func benchmarksLiveApart() async throws {
        let (_, help) = try await runLogbook(["--help"], includeErrors: true)
        #expect(!help.contains("bench"), "\(help)")
        let (status, benchHelp) = try await runProgram(logbookBenchExecutable, ["--help"], includeErrors: true)
        #expect(status == 0)
        for subcommand in ["log", "projections", "import", "wire"] { #expect(benchHelp.contains(subcommand), "\(benchHelp)") }
    }

    @Test("logbook-bench wire runs the logbook beside it for the import, on a small data set")
    func wireBenchmarkRuns() async throws {
        let (status, output) = try await runProgram(logbookBenchExecutable, ["wire", "--json", "--users", "1", "--weeks", "1"])
        #expect(status == 0, "\(output)")
        let report = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
        #expect((report["import_eps"] as? Double ?? 0) > 0, "\(output)")
        #expect((report["parse_eps"] as? Double ?? 0) > 0, "\(output)")
    }

    @Test("bad arguments and missing stores give a clear message and a non-zero exit")
    func badArguments() async throws {
        try await withTemporaryDirectory { directory in
            let cases: [([String], String)] = [
                (["stats", "--user", "u-1", "--week", "someday", "--path", directory], "--week"),
                (["timeline", "--user", "u-1", "--limit", "0", "--path", directory], "--limit"),
                (["replay", "--path", directory], "--to"),
                (["serve", "--path", directory + "/x"], "LOGBOOK_JWT_SECRET"),
                // A secret on the command line shows in the process list: refused, saying where it goes instead.
                (["serve", "--path", directory + "/x", "--jwt-secret", String(repeating: "k7", count: 40)], "process list"),
                (["token", "--user", "u-1", "--jwt-secret", String(repeating: "k7", count: 40)], "process list"),
                // Development mode serves everyone as an administrator: never on a reachable address.
                (["serve", "--path", directory + "/x", "--insecure-no-auth", "--host", "0.0.0.0"], "loopback"),
                (["token", "--user", "u-1", "--jwt-secret-file", directory + "/no-such-file"], "cannot read"),
                (["timeline", "--user", "u-1", "--path", directory + "/none"], "no Logbook"),
                (["import", "--path", directory + "/x", directory + "/missing.ndjson"], "cannot read"),
                (["frobnicate"], "frobnicate"),
                (["summary", "--user", "u-1", "--period", "fortnight", "--path", directory], "--period"),
            ]
            for (arguments, words) in cases {
                let (status, output) = try await runLogbook(arguments, environment: ["LOGBOOK_JWT_SECRET": ""], includeErrors: true)
                #expect(status != 0, "\(arguments) exited 0")
                #expect(output.contains(words), "\(arguments): \(output)")
            }
        }
    }
}
