import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import Testing
import WorkoutFileFixtures
import WorkoutImport

/// One run from two devices' files: the Garmin watch's FIT file and the Apple Health
/// export that synced the same run, both generated here, counted once whatever the order of the
/// imports and however often they are repeated.
@Suite("The same run from two files")
struct SameRunTwoFilesTests {
    @Test("a FIT file and an Apple Health export of one run count once, in either order, after repeated imports", arguments: [false, true])
    func countsOnce(healthFirst: Bool) async throws {
        try await FixtureDirectory.with { directory in
            try await withLogbook { logbook, _ in
                try await logbook.execute(.registerUser(user: "ana", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")),
                                          context: when("2012-01-01T08:00:00+01:00"))
                let fit = SampleFIT.run
                let session = fit.sessions[0]
                // The phone saw the run start 20 s later and end 10 s earlier than the watch did.
                var workout = HealthWorkout(activityType: "HKWorkoutActivityTypeRunning", sourceName: "Ana’s Watch",
                                            start: session.start + 20, end: session.end - 10, offset: SampleFIT.runOffset)
                workout.duration = ("44.5", "min")
                workout.distance = ("8.95", "km")
                workout.heartRate = (144, 168)
                let fitFile = try directory.write(fit.encoded().bytes, to: "run.fit")
                let healthFile = try directory.write(AppleHealthExport(records: [], workouts: [workout]).bytes, to: "export.xml")
                let importer = FileImporter(logbook: logbook)
                for _ in 0..<2 {
                    for file in healthFirst ? [healthFile, fitFile] : [fitFile, healthFile] {
                        _ = try await importer.importFile(file, user: "ana")
                    }
                }
                let list = try await logbook.activities(user: "ana").activities
                #expect(list.count == 1)
                // The watch's recording has a track, so it leads; the phone's is under it.
                let primary = try #require(list.first)
                #expect(primary.source.kind == .garmin)
                #expect(primary.alsoRecordedBy?.map(\.source.kind) == [.healthkit])
                let duplicate = try #require(primary.alsoRecordedBy?.first)
                #expect(try await logbook.activity(user: "ana", workoutId: duplicate.workoutId).primaryWorkoutId == primary.workoutId)
                let totals = try await logbook.statsSummary(user: "ana", period: .all, to: primary.date).totals
                #expect(totals.workouts == 1 && totals.distanceMeters == primary.distanceMeters)
                #expect(try await logbook.verify().allSatisfy(\.matches))
            }
        }
    }
}
