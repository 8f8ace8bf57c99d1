import Foundation
import LogbookTestSupport
import Testing
import WorkoutFileFixtures

/// `logbook import-file` as a person runs it, on generated files: the `--dry-run --json` contract,
/// a real import and its repetition, a damaged file on standard error with exit status 1.
@Suite("Command line: workout files")
struct ImportFileCLITests {
    /// A demo store (as `CLITests` makes one) and a directory of generated files, both removed afterwards.
    static func withDemo(_ body: (String, FixtureDirectory) async throws -> Void) async throws {
        try await FixtureDirectory.with { files in try await CLITests.withDemo { path in try await body(path, files) } }
    }

    @Test("--dry-run --json prints one object per file in the contract's shape, and writes nothing")
    func dryRunContract() async throws {
        try await Self.withDemo { path, files in
            let laps = SampleText.tcxRun.activities[0].laps
            let tcxFile = try files.write(SampleText.tcxRun.bytes, to: "run.tcx")
            let monitoring = try files.write(SampleFIT.monitoring.encoded().bytes, to: "monitoring.fit")
            let before = try await runLogbook(["export", "--path", path]).1
            let (status, output) = try await runLogbook(
                ["import-file", "--path", path, "--user", "u-1000", "--dry-run", "--json", tcxFile.path, monitoring.path],
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
            #expect(workout["laps"] as? Int == laps.count)
            #expect(workout["distanceMeters"] as? Int == Int(laps.map(\.distanceMeters).reduce(0, +).rounded()))
            #expect((workout["startedAt"] as? String)?.hasSuffix("+01:00") == true, "Z times take the user's offset (Berlin in January)")
            let steps = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
            #expect(steps["steps"] as? Int == SampleFIT.monitoring.intervals.reduce(0) { $0 + $1.steps })
            #expect(try await runLogbook(["export", "--path", path]).1 == before, "a dry run writes nothing")
        }
    }

    @Test("a damaged file among good ones: the good ones import, the damaged one is named on stderr, exit 1; again writes nothing")
    func damagedAmongGood() async throws {
        try await Self.withDemo { path, files in
            let small = SampleFIT.small.encoded()
            let eof = try #require(FITDamage.all(small, chainedWith: small, stem: "activity").first { $0.name == "activity-unexpected-eof.fit" })
            let arguments = ["import-file", "--path", path, "--user", "u-1000", "--json",
                             try files.write(eof.bytes, to: eof.name).path, try files.write(SampleText.gpxRun.bytes, to: "run.gpx").path]
            let (status, output) = try await runLogbook(arguments, includeErrors: true)
            #expect(status == 1)
            #expect(output.contains("\(eof.name): truncated at byte \(eof.offset)"), "\(output)")
            #expect(output.contains("\"format\":\"gpx\"") && output.contains("\"outcome\":\"imported\""))
            let after = try await runLogbook(["export", "--path", path]).1
            let (again, second) = try await runLogbook(arguments, includeErrors: true)
            #expect(again == 1 && second.contains("\"outcome\":\"already-imported\""))
            #expect(try await runLogbook(["export", "--path", path]).1 == after)
            #expect(try await runLogbook(["verify", "--path", path]).0 == 0)
        }
    }
}
