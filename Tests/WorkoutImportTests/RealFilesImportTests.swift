import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import Testing
import WorkoutFileFixtures
import WorkoutFiles
@testable import WorkoutImport

/// Conformance over real device files, imported into a real Logbook: the figures known for real
/// files, an Apple Health export imported twice, and real damaged files that write nothing. Runs
/// when `LOGBOOK_REALDATA` names the corpus (`tools/test` leaves this suite out by its name when it
/// is unset); the same behaviours are pinned on generated files by ``FileImporterTests``.
@Suite("Conformance over real device files, imported", .serialized, .enabled(if: RealDeviceCorpus.isConfigured))
struct RealFilesImportTests {
    static func register(_ logbook: Logbook) async throws { try await FileImporterTests.register(logbook) }

    @Test("real FIT, TCX and monitoring files give the figures known for them, and the activity detail shows laps, splits and route")
    func knownFigures() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let importer = FileImporter(logbook: logbook)

            let fenix = try await importer.importFile(try RealDeviceCorpus.url("fit/python-fitparse__activity-small-fenix2-run.fit"), user: "ana")
            let run = try #require(fenix.workouts.first)
            #expect(fenix.format == "fit" && fenix.workouts.count == 1)
            #expect(run.elapsedSeconds == 2832 && run.distanceMeters == 9008 && run.activeKcal == 516 && run.activityType == "run")
            #expect(run.outcome == "imported")
            let detail = try await logbook.activityDetail(user: "ana", workoutId: try #require(run.workoutId))
            #expect(detail.activity.laps?.count == run.laps && run.laps > 0)
            #expect(detail.activity.trackPoints == run.trackPoints && run.trackPoints > 2000)
            #expect(detail.splits.count == 10, "9,008 m: nine whole kilometres and a last part")
            #expect(detail.splits.dropLast().allSatisfy { $0.distanceMeters == 1000 })
            #expect(abs(detail.splits.reduce(0) { $0 + $1.seconds } - 2832) <= 30, "split times add up to the run")
            #expect(detail.hasRoute)
            let (record, track) = try await logbook.activityTrack(user: "ana", workoutId: run.workoutId!)
            let samples = try #require(track)
            let geo = try #require(TrackAnalysis.geoJSON(samples, workoutId: record.workoutId, activityType: record.activityType))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(geo.utf8)) as? [String: Any])
            #expect((object["geometry"] as? [String: Any])?["type"] as? String == "LineString")

            let edge = try await importer.importFile(try RealDeviceCorpus.url("fit/python-fitparse__garmin-edge-500-activity.fit"), user: "ana")
            let ride = try #require(edge.workouts.first)
            #expect(ride.elapsedSeconds == 12_691 && ride.movingSeconds == 10_641)
            #expect(abs((ride.distanceMeters ?? 0) - 92_600) < 100)

            let tcx = try await importer.importFile(try RealDeviceCorpus.url("tcx/python-tcxparser__test.tcx"), user: "ana")
            let tcxRun = try #require(tcx.workouts.first)
            #expect(tcxRun.laps == 3 && tcxRun.elapsedSeconds == 1993 && tcxRun.distanceMeters == 4689 && tcxRun.activeKcal == 379)

            let monitoring = try await importer.importFile(try RealDeviceCorpus.url("fit/python-fitparse__MonitoringFile.fit"), user: "ana")
            #expect(monitoring.steps == 3_142 + 31 && monitoring.workouts.isEmpty)
            #expect(monitoring.written?.stepEvents == 1)

            // The imports flow through stats, the timeline and collectibles, and every read model verifies.
            let day = run.startedAt.localDate
            let week = try await logbook.weeklyStats(user: "ana", containing: day)
            #expect(week.totals.distanceMeters >= 9008)
            let timeline = try await logbook.timeline(user: "ana", filter: TimelineFilter(), limit: 100, cursor: nil)
            #expect(timeline.entries.contains { $0.description.hasPrefix("Recorded the track of the run") })
            for result in try await logbook.verify() { #expect(result.matches, "\(result.projection) differs after a rebuild") }
        }
    }

    @Test("a real Apple Health export: 3,980 step records of 349,765 steps and 61 workouts; importing it again writes nothing")
    func appleHealthAndReimport() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let importer = FileImporter(logbook: logbook)
            let export = try RealDeviceCorpus.url("apple_health/hkimport__Data_export.xml")
            let first = try await importer.importFile(export, user: "ana")
            #expect(first.format == "apple-health")
            #expect(first.stepSamples == 3_980 && first.steps == 349_765)
            #expect(first.workouts.count == 61)
            #expect(first.written?.workouts == 61 && first.written?.workoutsAlreadyThere == 0)
            let head = try await logbook.log.headPosition()
            let again = try await importer.importFile(export, user: "ana")
            #expect(again.written?.workouts == 0 && again.written?.workoutsAlreadyThere == 61)
            #expect(again.written?.stepEvents == 0 && again.written?.stepEventsAlreadyThere == first.written?.stepEvents)
            #expect(again.workouts.map(\.workoutId) == first.workouts.map(\.workoutId))
            #expect(try await logbook.log.headPosition() == head, "a re-import appends nothing")
            // Read twice and streamed (the large-file path) writes nothing new either, and names the same workouts.
            var streaming = FileImporter(logbook: logbook)
            streaming.options.inMemoryLimitBytes = 0
            let streamed = try await streaming.importFile(export, user: "ana")
            #expect(streamed.written?.workoutsAlreadyThere == 61)
            #expect(try await logbook.log.headPosition() == head)
        }
    }

    @Test("real damaged files are refused with the byte offset, and write nothing", arguments: [
        "fit/python-fitparse__nick.fit", "fit/python-fitparse__strava-android-app-201.10-b1218918.fit",
        "fit/python-fitparse__activity-settings-corruptheader.fit", "fit/python-fitparse__activity-settings-nodata.fit",
        "fit/python-fitparse__activity-unexpected-eof.fit", "fit/python-fitparse__activity-filecrc.fit",
        "fit/python-fitparse__activity-activity-filecrc.fit",
    ])
    func damagedFiles(_ name: String) async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let head = try await logbook.log.headPosition()
            for limit: Int64 in [0, 1 << 30] {
                var importer = FileImporter(logbook: logbook)
                importer.options.inMemoryLimitBytes = limit
                do {
                    _ = try await importer.importFile(try RealDeviceCorpus.url(name), user: "ana")
                    Issue.record("\(name) imported")
                } catch let error as WorkoutFileError {
                    #expect(error.byteOffset != nil && error.fileName.hasSuffix(".fit"), "\(error)")
                }
                #expect(try await logbook.log.headPosition() == head, "\(name) wrote something")
            }
        }
    }
}
