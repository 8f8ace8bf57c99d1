import DemoData
import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import Testing
import WorkoutFileFixtures
import WorkoutFiles
@testable import WorkoutImport

/// Generated workout files (written with known values by WorkoutFileFixtures) imported into a real
/// Logbook: the values written come back, re-imports write nothing, damaged files write nothing,
/// and read models verify. ``RealFilesImportTests`` holds real devices' files to the same.
@Suite("Workout files into Logbook", .serialized)
struct FileImporterTests {
    static func register(_ logbook: Logbook, _ user: String = "ana", zone: String = "Europe/Berlin", units: Units = .metric) async throws {
        try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: "Ana", timeZone: zone, units: units)),
                                  context: when("2012-01-01T08:00:00+01:00"))
    }

    /// A Logbook with "ana" registered, and a directory for generated files; both removed afterwards.
    static func withFiles<R>(_ body: (Logbook, FixtureDirectory) async throws -> R) async throws -> R {
        try await FixtureDirectory.with { directory in
            try await withLogbook { logbook, _ in
                try await register(logbook)
                return try await body(logbook, directory)
            }
        }
    }

    /// Whole units as the import reports them.
    static func whole(_ value: Double?) -> Int? { value.map { Int($0.rounded()) } }

    @Test("FIT, TCX and monitoring files give the values written into them, and the activity detail shows laps, splits and route")
    func knownFigures() async throws {
        try await Self.withFiles { logbook, directory in
            let importer = FileImporter(logbook: logbook)
            let spec = SampleFIT.run, session = spec.sessions[0]
            let report = try await importer.importFile(try directory.write(spec.encoded().bytes, to: "run.fit"), user: "ana")
            let run = try #require(report.workouts.first)
            #expect(report.format == "fit" && report.workouts.count == 1)
            #expect(run.elapsedSeconds == Self.whole(session.elapsedSeconds) && run.distanceMeters == Self.whole(session.distanceMeters))
            #expect(run.activeKcal == session.calories && run.avgHeartRate == session.avgHeartRate && run.activityType == "run")
            #expect(run.outcome == "imported" && run.laps == spec.laps.count && run.trackPoints == spec.records.count)
            let detail = try await logbook.activityDetail(user: "ana", workoutId: try #require(run.workoutId))
            #expect(detail.activity.laps?.count == spec.laps.count && detail.activity.trackPoints == spec.records.count)
            // Splits of the device's distance: whole kilometres and a last part.
            let meters = spec.records.last!.distanceMeters! - spec.records[0].distanceMeters!
            #expect(detail.splits.count == Int((meters / 1000).rounded(.up)))
            #expect(detail.splits.dropLast().allSatisfy { $0.distanceMeters == 1000 })
            let seconds = Int(spec.records.last!.time - spec.records[0].time)
            #expect(abs(detail.splits.reduce(0) { $0 + $1.seconds } - seconds) <= detail.splits.count, "split times add up to the run")
            #expect(detail.hasRoute)
            let (record, track) = try await logbook.activityTrack(user: "ana", workoutId: run.workoutId!)
            let samples = try #require(track)
            #expect(samples.heartRate == spec.records.map(\.heartRate))
            let geo = try #require(TrackAnalysis.geoJSON(samples, workoutId: record.workoutId, activityType: record.activityType))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(geo.utf8)) as? [String: Any])
            #expect((object["geometry"] as? [String: Any])?["type"] as? String == "LineString")

            let rideSpec = SampleFIT.ride.sessions[0]
            let ride = try #require(try await importer.importFile(try directory.write(SampleFIT.ride.encoded().bytes, to: "ride.fit"),
                                                                  user: "ana").workouts.first)
            #expect(ride.elapsedSeconds == Self.whole(rideSpec.elapsedSeconds) && ride.movingSeconds == Self.whole(rideSpec.movingSeconds))
            #expect(ride.distanceMeters == Self.whole(rideSpec.distanceMeters) && ride.sourceKind == "wahoo")

            let laps = SampleText.tcxRun.activities[0].laps
            let tcx = try await importer.importFile(try directory.write(SampleText.tcxRun.bytes, to: "run.tcx"), user: "ana")
            let tcxRun = try #require(tcx.workouts.first)
            #expect(tcxRun.laps == laps.count && tcxRun.elapsedSeconds == Self.whole(laps.map(\.totalTimeSeconds).reduce(0, +)))
            #expect(tcxRun.distanceMeters == Self.whole(laps.map(\.distanceMeters).reduce(0, +)))
            #expect(tcxRun.activeKcal == laps.compactMap(\.calories).reduce(0, +))

            let steps = SampleFIT.monitoring
            let monitoring = try await importer.importFile(try directory.write(steps.encoded().bytes, to: "monitoring.fit"), user: "ana")
            #expect(monitoring.steps == steps.intervals.reduce(0) { $0 + $1.steps } && monitoring.workouts.isEmpty)
            #expect(monitoring.stepSamples == steps.intervals.count && monitoring.written?.stepEvents == 1)

            // The imports flow through stats, the timeline and collectibles, and every read model verifies.
            let week = try await logbook.weeklyStats(user: "ana", containing: run.startedAt.localDate)
            #expect(week.totals.distanceMeters >= run.distanceMeters!)
            let timeline = try await logbook.timeline(user: "ana", filter: TimelineFilter(), limit: 100, cursor: nil)
            #expect(timeline.entries.contains { $0.description.hasPrefix("Recorded the track of the run") })
            for result in try await logbook.verify() { #expect(result.matches, "\(result.projection) differs after a rebuild") }
        }
    }

    @Test("an Apple Health export: its step records and workouts; importing it again writes nothing, read once or twice")
    func appleHealthAndReimport() async throws {
        try await Self.withFiles { logbook, directory in
            let importer = FileImporter(logbook: logbook)
            let spec = SampleExports.health()
            let export = try directory.write(spec.bytes, to: "export.xml")
            let steps = spec.records.filter { $0.type.hasSuffix("StepCount") }.compactMap { Int(Double($0.value)!) }.filter { $0 > 0 }
            let first = try await importer.importFile(export, user: "ana")
            #expect(first.format == "apple-health")
            #expect(first.stepSamples == steps.count && first.steps == steps.reduce(0, +))
            #expect(first.workouts.count == spec.workouts.count)
            #expect(first.written?.workouts == spec.workouts.count && first.written?.workoutsAlreadyThere == 0)
            let head = try await logbook.log.headPosition()
            let again = try await importer.importFile(export, user: "ana")
            #expect(again.written?.workouts == 0 && again.written?.workoutsAlreadyThere == spec.workouts.count)
            #expect(again.written?.stepEvents == 0 && again.written?.stepEventsAlreadyThere == first.written?.stepEvents)
            #expect(again.workouts.map(\.workoutId) == first.workouts.map(\.workoutId))
            #expect(try await logbook.log.headPosition() == head, "a re-import appends nothing")
            // Read twice and streamed (the large-file path) writes nothing new either, and names the same workouts.
            var streaming = FileImporter(logbook: logbook)
            streaming.options.inMemoryLimitBytes = 0
            let streamed = try await streaming.importFile(export, user: "ana")
            #expect(streamed.written?.workoutsAlreadyThere == spec.workouts.count)
            #expect(streamed.workouts.map(\.workoutId) == first.workouts.map(\.workoutId))
            #expect(try await logbook.log.headPosition() == head)
        }
    }

    @Test("the streamed (read twice) path writes exactly what the in-memory path writes")
    func streamedEqualsInMemory() async throws {
        func digests(limit: Int64) async throws -> [String] {
            try await Self.withFiles { logbook, directory in
                var importer = FileImporter(logbook: logbook)
                importer.options.inMemoryLimitBytes = limit
                importer.options.stepsPerEvent = 500
                let files = [("export.xml", SampleExports.health().bytes), ("run.fit", SampleFIT.run.encoded().bytes),
                             ("tracks.gpx", SampleText.gpxTracks.bytes), ("export.zip", try SampleExports.healthZip())]
                for (name, bytes) in files { _ = try await importer.importFile(try directory.write(bytes, to: name), user: "ana") }
                return try logbook.digests().map(\.sha256)
            }
        }
        #expect(try await digests(limit: 0) == digests(limit: 1 << 30))
    }

    /// The damaged variants of a small activity file (FITDamage): truncated, bad CRCs, undefined
    /// local messages, corrupt chained headers.
    static let damaged = FITDamage.all(SampleFIT.small.encoded(), chainedWith: SampleFIT.run.encoded(), stem: "small")

    @Test("damaged files are refused with the byte offset, and write nothing", arguments: damaged.map(\.name))
    func damagedFiles(_ name: String) async throws {
        let damaged = try #require(Self.damaged.first { $0.name == name })
        try await Self.withFiles { logbook, directory in
            let url = try directory.write(damaged.bytes, to: name)
            let head = try await logbook.log.headPosition()
            for limit: Int64 in [0, 1 << 30] {
                var importer = FileImporter(logbook: logbook)
                importer.options.inMemoryLimitBytes = limit
                do {
                    _ = try await importer.importFile(url, user: "ana")
                    Issue.record("\(name) imported")
                } catch let error as WorkoutFileError {
                    #expect(error.code.rawValue == damaged.code && error.byteOffset == damaged.offset && error.fileName == name, "\(error)")
                }
                #expect(try await logbook.log.headPosition() == head, "\(name) wrote something")
            }
        }
    }

    @Test("mutated files (seeded) never crash; those refused write nothing")
    func mutatedFiles() async throws {
        try await Self.withFiles { logbook, directory in
            let importer = FileImporter(logbook: logbook)
            var generator = SplitMix64(seed: 20261123)
            let sources: [(String, [UInt8])] = [
                ("fit", SampleFIT.run.encoded(FITWriteOptions(compressedTimestamps: true)).bytes), ("tcx", SampleText.tcxRun.bytes),
                ("gpx", SampleText.gpxRun.bytes), ("xml", SampleExports.health(steps: 40).bytes),
            ]
            var refused = 0
            for round in 0..<40 {
                let (suffix, source) = sources[round % sources.count]
                var bytes = source
                switch round % 3 {
                case 0: bytes.removeLast(Int.random(in: 1...max(1, bytes.count / 2), using: &generator))
                case 1:
                    for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                default:
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes.insert(contentsOf: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: at)
                }
                let url = try directory.write(bytes, to: "mutant-\(round).\(suffix)")
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

    @Test("a deleted import stays deleted when the file comes again; imp- ids belong to imports; a retry of a multi-event command names the same events")
    func deleteReservedAndRetry() async throws {
        try await Self.withFiles { logbook, directory in
            let importer = FileImporter(logbook: logbook)
            let tcx = try directory.write(SampleText.tcxRun.bytes, to: "run.tcx")
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

    @Test("a file's value past the domain's limit is dropped as implausible, so the workout still imports (a CSV's elapsed time of 1e9 s)")
    func valuesPastTheLimitsAreDropped() {
        #expect(ImportMapping.count(3_600, "elapsedSeconds") == 3_600)
        #expect(ImportMapping.count(34_560_000, "movingSeconds") == 34_560_000)
        #expect(ImportMapping.count(1e9, "elapsedSeconds") == nil)
        #expect(ImportMapping.count(100_000_000.4, "distanceMeters") == 100_000_000)
        #expect(ImportMapping.count(100_000_001, "distanceMeters") == nil)
        #expect(ImportMapping.count(1e15, "activeKcal") == nil && ImportMapping.count(-1, "activeKcal") == nil)
    }

    @Test("a file's step-source name is taken as the rules take sources: in NFC, at most 64 scalars, no control characters")
    func sourceNamesAsTheRulesTakeThem() throws {
        #expect(ImportMapping.sourceName("Montre Cafe\u{301}")?.utf8.elementsEqual("Montre Caf\u{e9}".utf8) == true)
        #expect(ImportMapping.sourceName("iPhone\u{7}") == "iPhone")
        #expect(ImportMapping.sourceName(" \u{1}") == nil)
        // 70 decomposed letters: 140 scalars, 70 once composed, cut to 64.
        let long = try #require(ImportMapping.sourceName(String(repeating: "e\u{301}", count: 70)))
        #expect(long.unicodeScalars.count == 64 && long.isInNormalizationFormC)
        let mixed = try #require(ImportMapping.sourceName(String(repeating: "a", count: 63) + "q\u{307}\u{323}"))
        #expect(mixed.isInNormalizationFormC && mixed.unicodeScalars.count == 64)
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
