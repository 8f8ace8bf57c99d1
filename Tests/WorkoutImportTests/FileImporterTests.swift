import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import Testing
import WorkoutFiles
@testable import WorkoutImport

/// Real workout files (read in place from `../shared/realdata`) imported into a real Logbook:
/// values checked against figures known independently, re-imports that write nothing, damaged
/// files that write nothing, and read models that verify.
@Suite("Workout files into Logbook", .serialized)
struct FileImporterTests {
    static let realData = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/realdata").standardizedFileURL

    static func file(_ relative: String) -> URL { realData.appendingPathComponent(relative) }

    static func register(_ logbook: Logbook, _ user: String = "ana", zone: String = "Europe/Berlin", units: Units = .metric) async throws {
        try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: "Ana", timeZone: zone, units: units)),
                                  context: when("2012-01-01T08:00:00+01:00"))
    }

    @Test("FIT, TCX and monitoring files give the figures known for them, and the activity detail shows laps, splits and route")
    func knownFigures() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let importer = FileImporter(logbook: logbook)

            let fenix = try await importer.importFile(Self.file("fit/python-fitparse__activity-small-fenix2-run.fit"), user: "ana")
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

            let edge = try await importer.importFile(Self.file("fit/python-fitparse__garmin-edge-500-activity.fit"), user: "ana")
            let ride = try #require(edge.workouts.first)
            #expect(ride.elapsedSeconds == 12_691 && ride.movingSeconds == 10_641)
            #expect(abs((ride.distanceMeters ?? 0) - 92_600) < 100)

            let tcx = try await importer.importFile(Self.file("tcx/python-tcxparser__test.tcx"), user: "ana")
            let tcxRun = try #require(tcx.workouts.first)
            #expect(tcxRun.laps == 3 && tcxRun.elapsedSeconds == 1993 && tcxRun.distanceMeters == 4689 && tcxRun.activeKcal == 379)

            let monitoring = try await importer.importFile(Self.file("fit/python-fitparse__MonitoringFile.fit"), user: "ana")
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

    @Test("an Apple Health export: 3,980 step records of 349,765 steps and 61 workouts; importing it again writes nothing")
    func appleHealthAndReimport() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let importer = FileImporter(logbook: logbook)
            let export = Self.file("apple_health/hkimport__Data_export.xml")
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

    @Test("the streamed (read twice) path writes exactly what the in-memory path writes")
    func streamedEqualsInMemory() async throws {
        func digests(limit: Int64) async throws -> [String] {
            try await withLogbook { logbook, _ in
                try await Self.register(logbook)
                var importer = FileImporter(logbook: logbook)
                importer.options.inMemoryLimitBytes = limit
                importer.options.stepsPerEvent = 500
                for name in ["apple_health/hkimport__Data_export.xml", "fit/python-fitparse__garmin-fenix-5-run.fit", "gpx/gpxpy-1.6.2__korita-zbevnica.gpx"] {
                    _ = try await importer.importFile(Self.file(name), user: "ana")
                }
                return try logbook.digests().map(\.sha256)
            }
        }
        #expect(try await digests(limit: 0) == digests(limit: 1 << 30))
    }

    @Test("damaged files are refused with the byte offset, and write nothing", arguments: [
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
                    _ = try await importer.importFile(Self.file(name), user: "ana")
                    Issue.record("\(name) imported")
                } catch let error as WorkoutFileError {
                    #expect(error.byteOffset != nil && error.fileName.hasSuffix(".fit"), "\(error)")
                }
                #expect(try await logbook.log.headPosition() == head, "\(name) wrote something")
            }
        }
    }

    @Test("mutated real files (seeded) never crash; those refused write nothing")
    func mutatedFiles() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let importer = FileImporter(logbook: logbook)
            var generator = SplitMix64(seed: 20261123)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-fuzz-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let sources = ["fit/python-fitparse__activity-small-fenix2-run.fit", "tcx/python-tcxparser__test.tcx",
                           "gpx/gpxpy-1.6.2__Mojstrovka.gpx", "apple_health/healthkit-to-sqlite__tests_export.xml"]
            var refused = 0
            for round in 0..<40 {
                let source = sources[round % sources.count]
                var bytes = [UInt8](try Data(contentsOf: Self.file(source)))
                switch round % 3 {
                case 0: bytes.removeLast(Int.random(in: 1...max(1, bytes.count / 2), using: &generator))
                case 1:
                    for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                default:
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes.insert(contentsOf: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: at)
                }
                let url = directory.appendingPathComponent("mutant-\(round)." + (source as NSString).pathExtension)
                try Data(bytes).write(to: url)
                let head = try await logbook.log.headPosition()
                do {
                    _ = try await importer.importFile(url, user: "ana")
                } catch is WorkoutFileError {
                    refused += 1
                    #expect(try await logbook.log.headPosition() == head, "refused mutant \(round) wrote something")
                }
            }
            #expect(refused > 0)
            for result in try await logbook.verify() { #expect(result.matches) }
        }
    }

    @Test("a folder: Strava rows and every parsable file, in path order; the user must be registered")
    func folderAndUnknownUser() async throws {
        let files = try FileImporter.files(at: Self.realData.appendingPathComponent("tcx"))
        #expect(files.count == 5 && files == files.sorted { $0.path < $1.path })
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let report = try await FileImporter(logbook: logbook).importFile(Self.file("strava/JoBoSo__activities_2023.csv"), user: "ana")
            #expect(report.format == "strava-csv" && report.workouts.count > 100)
            #expect(report.workouts.allSatisfy { $0.sourceKind == "strava" })
            await #expect(throws: LogbookError.self) {
                _ = try await FileImporter(logbook: logbook).importFile(Self.file("tcx/python-tcxparser__test.tcx"), user: "nobody")
            }
        }
    }

    @Test("a deleted import stays deleted when the file comes again; imp- ids belong to imports; a retry of a multi-event command names the same events")
    func deleteReservedAndRetry() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let importer = FileImporter(logbook: logbook)
            let tcx = Self.file("tcx/python-tcxparser__test.tcx")
            let first = try await importer.importFile(tcx, user: "ana")
            let id = try #require(first.workouts.first?.workoutId)
            try await logbook.execute(.deleteWorkout(user: "ana", workoutId: id))
            let head = try await logbook.log.headPosition()
            let again = try await importer.importFile(tcx, user: "ana")
            #expect(again.workouts.first?.outcome == "already-imported" && again.workouts.first?.workoutId == id)
            #expect(try await logbook.log.headPosition() == head, "a deleted import is not brought back")
            await #expect(throws: LogbookError.self) { _ = try await logbook.activityDetail(user: "ana", workoutId: id) }

            // Nobody else may take a derived id (another user's, or a made-up one).
            try await Self.register(logbook, "bob")
            let squat = WorkoutStarted(workoutId: WorkoutImported.derivedWorkoutId(user: "carl", kind: .strava, sourceId: "1"), activityType: .run,
                                       startedAt: at("2026-11-20T07:00:00+01:00"))
            await #expect(throws: LogbookError.invalidArgument(
                name: "workoutId", reason: "ids starting imp- are given by file imports; choose another")) {
                _ = try await logbook.execute(.startWorkout(user: "bob", squat))
            }

            // A keyed retry of an import with a track: the same result, nothing written, on any server.
            let key = UUID()
            let track = TrackSamples(points: 5000, offsetMillis: (0..<5000).map { $0 * 1000 })
            let imported = WorkoutImported(workoutId: "w-track", activityType: .ride, startedAt: at("2026-11-20T07:00:00+01:00"),
                                           endedAt: at("2026-11-20T09:00:00+01:00"), distanceMeters: 40_000, movingSeconds: 5000,
                                           source: WorkoutSource(kind: .wahoo, sourceId: "w-1"))
            let written = try await logbook.execute(.importWorkout(user: "bob", imported, track: track), context: CommandContext(eventId: key))
            let retried = try await logbook.execute(.importWorkout(user: "bob", imported, track: track), context: CommandContext(eventId: key))
            #expect(retried.alreadyApplied && retried.firstPosition == written.firstPosition && retried.lastPosition == written.lastPosition)
            #expect(written.lastPosition - written.firstPosition == 2)
            let events = try await logbook.log.readStream("workout-w-track", from: 0, direction: .forward, limit: 10)
            #expect(events.map(\.envelope.eventId) == [key, DerivedIds.following(key, index: 1), DerivedIds.following(key, index: 2)])
        }
    }

    @Test("a Strava row's original file must lie inside the CSV's folder")
    func originalsStayInTheFolder() {
        let csv = URL(fileURLWithPath: "/data/export/activities.csv")
        #expect(FileImporter.originalFile("activities/1.fit.gz", besides: csv)?.path == "/data/export/activities/1.fit.gz")
        for hostile in ["../secret.fit", "/etc/passwd", "activities/../../x.fit", "./a.fit", "", "a\\..\\..\\b.fit"] {
            #expect(FileImporter.originalFile(hostile, besides: csv) == nil, "\(hostile)")
        }
    }

    @Test("a track without any column of values is refused, as a command and on the wire")
    func emptyTrack() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            await #expect(throws: LogbookError.ruleViolation(rule: .trackInvalid, message: "a track has at least one column of values")) {
                _ = try await logbook.execute(.importWorkout(user: "ana", WorkoutImported(
                    workoutId: "w-empty", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"), endedAt: at("2026-11-20T08:00:00+01:00"),
                    distanceMeters: 1, movingSeconds: 1, source: WorkoutSource(kind: .file, sourceId: "e")), track: TrackSamples(points: 100)))
            }
            let line = #"{"position":1,"stream":"workout-w","streamVersion":1,"eventId":"00000000-0000-4000-8000-000000000001","type":"workout.track_recorded","schemaVersion":1,"subject":"ana","occurredAt":"2026-11-20T08:00:00+01:00","recordedAt":"2026-11-20T07:00:00Z","correlationId":null,"causationId":null,"metadata":{},"data":{"part":0,"parts":1,"samples":{"points":POINTS},"workoutId":"w"}}"#
            for (points, field) in [("-1", "data.samples.points"), ("3", "data.samples")] {
                do {
                    _ = try WireEvent(jsonLine: line.replacingOccurrences(of: "POINTS", with: points))
                    Issue.record("accepted points \(points)")
                } catch let error as LogbookError {
                    if case .invalidJSON(_, let named, _)? = error.codingError { #expect(named == field) } else { Issue.record("\(error)") }
                }
            }
        }
    }

    @Test("a track of 9,000 points is three events, read back whole")
    func longTrackIsSplit() async throws {
        try await withLogbook { logbook, _ in
            try await Self.register(logbook)
            let points = 9000
            let track = TrackSamples(
                points: points, offsetMillis: (0..<points).map { $0 * 1000 }, latitudeE7: (0..<points).map { 475_000_000 + $0 * 300 },
                longitudeE7: Array(repeating: 85_000_000, count: points), heartRate: (0..<points).map { 120 + $0 % 40 })
            let result = try await logbook.execute(.importWorkout(user: "ana", WorkoutImported(
                workoutId: "long", activityType: .run, startedAt: at("2026-11-20T07:00:00+01:00"), endedAt: at("2026-11-20T09:30:00+01:00"),
                distanceMeters: 30_000, movingSeconds: 9000, source: WorkoutSource(kind: .file, sourceId: "long-1")), track: track),
                context: when("2026-11-20T10:00:00+01:00"))
            #expect(result.lastPosition - result.firstPosition == 3)
            let (_, read) = try await logbook.activityTrack(user: "ana", workoutId: "long")
            #expect(read == track)
            let detail = try await logbook.activityDetail(user: "ana", workoutId: "long")
            #expect(detail.splits.count == 31, "30.0 km of haversine distance in 1 km splits (the last one short)")
            try await logbook.execute(.deleteWorkout(user: "ana", workoutId: "long"), context: when("2026-11-20T11:00:00+01:00"))
            await #expect(throws: LogbookError.self) { _ = try await logbook.activityTrack(user: "ana", workoutId: "long") }
            for result in try await logbook.verify() { #expect(result.matches) }
        }
    }
}
