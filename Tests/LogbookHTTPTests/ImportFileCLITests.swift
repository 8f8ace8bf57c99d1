import Foundation
import LogbookTestSupport
import Testing

/// `logbook import-file` as a person runs it: the `--dry-run --json` contract, a real import and
/// its repetition, a damaged file on standard error with exit status 1.
@Suite("Command line: workout files")
struct ImportFileCLITests {
    static let realData = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/realdata").standardizedFileURL.path

    @Test("--dry-run --json prints one object per file in the contract's shape, and writes nothing")
    func dryRunContract() async throws {
        try await CLITests.withDemo { path in
            let before = try await runLogbook(["export", "--path", path]).1
            let (status, output) = try await runLogbook(
                ["import-file", "--path", path, "--user", "u-1000", "--dry-run", "--json",
                 Self.realData + "/tcx/python-tcxparser__test.tcx", Self.realData + "/fit/python-fitparse__MonitoringFile.fit"],
                includeErrors: true)
            #expect(status == 0, "\(output)")
            let lines = output.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            let tcx = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(Set(tcx.keys) == ["file", "format", "workouts", "stepSamples", "steps", "skipped"])
            #expect(tcx["format"] as? String == "tcx")
            let workout = try #require((tcx["workouts"] as? [[String: Any]])?.first)
            #expect(Set(workout.keys) == ["sourceKind", "sourceId", "activityType", "startedAt", "endedAt", "elapsedSeconds",
                                          "movingSeconds", "distanceMeters", "activeKcal", "avgHeartRate", "laps", "trackPoints"])
            #expect(workout["laps"] as? Int == 3 && workout["distanceMeters"] as? Int == 4689)
            #expect((workout["startedAt"] as? String)?.hasSuffix("+01:00") == true, "Z times take the user's offset")
            let monitoring = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
            #expect(monitoring["steps"] as? Int == 3173)
            #expect(try await runLogbook(["export", "--path", path]).1 == before, "a dry run writes nothing")
        }
    }

    @Test("a damaged file among good ones: the good ones import, the damaged one is named on stderr, exit 1; again writes nothing")
    func damagedAmongGood() async throws {
        try await CLITests.withDemo { path in
            let arguments = ["import-file", "--path", path, "--user", "u-1000", "--json",
                             Self.realData + "/fit/python-fitparse__activity-unexpected-eof.fit",
                             Self.realData + "/gpx/gpxpy-1.6.2__Mojstrovka.gpx"]
            let (status, output) = try await runLogbook(arguments, includeErrors: true)
            #expect(status == 1)
            #expect(output.contains("python-fitparse__activity-unexpected-eof.fit: truncated at byte 768"), "\(output)")
            #expect(output.contains("\"format\":\"gpx\"") && output.contains("\"outcome\":\"imported\""))
            let after = try await runLogbook(["export", "--path", path]).1
            let (again, second) = try await runLogbook(arguments, includeErrors: true)
            #expect(again == 1 && second.contains("\"outcome\":\"already-imported\""))
            #expect(try await runLogbook(["export", "--path", path]).1 == after)
            #expect(try await runLogbook(["verify", "--path", path]).0 == 0)
        }
    }
}
