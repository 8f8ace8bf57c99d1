/// A generated file and what reading it must give.
public struct SampleFile: Sendable {
    /// What a reader must make of a sample.
    public enum Expectation: Sendable, Hashable {
        /// Workouts and step samples, this many.
        case content(workouts: Int, stepSamples: Int)
        /// Nothing, said with a skip note of this reason.
        case skipped(String)
        /// This error code (a `WorkoutFileError.Code` raw value), at this byte offset or line when given.
        case failure(code: String, offset: Int64?, line: Int?)
    }

    public var name: String
    public var bytes: [UInt8]
    public var expectation: Expectation
    /// What the file is, for failure messages.
    public var about: String

    public init(_ name: String, _ bytes: [UInt8], _ expectation: Expectation, about: String) {
        self.name = name
        self.bytes = bytes
        self.expectation = expectation
        self.about = about
    }

    /// Zip archives can only be read from a file.
    public var needsFile: Bool { bytes.starts(with: [0x50, 0x4B, 3, 4]) }
}

/// Every generated file the "all files" tests run over: each sample in its encodings, the other
/// FIT file types, the damaged variants, and the compressed forms. Expectations follow from the specs.
public enum SampleCatalogue {
    /// The catalogue, made once per test process.
    public static let shared = Result<[SampleFile], any Error> { try all() }

    /// The sample called `name`.
    public static func file(named name: String) throws -> SampleFile {
        guard let file = try shared.get().first(where: { $0.name == name }) else {
            throw Deflate.Failure(description: "no sample is called \(name)")
        }
        return file
    }

    /// Makes every sample.
    public static func all() throws -> [SampleFile] {
        var files: [SampleFile] = []
        let activities: [(String, FITActivityFile)] = [
            ("run", SampleFIT.run), ("ride", SampleFIT.ride), ("multisport", SampleFIT.multisport),
            ("compressed-speed-distance", SampleFIT.compressedSpeedDistance), ("device-relative", SampleFIT.deviceRelative),
            ("small", SampleFIT.small),
        ]
        for (stem, activity) in activities {
            let sports = activity.sessions.filter { $0.sport != .transition }.count
            for (variant, options) in FITWriteOptions.variants {
                files.append(SampleFile("\(stem)-\(variant.replacingSpaces).fit", activity.encoded(options).bytes,
                                        .content(workouts: sports, stepSamples: 0), about: "\(stem) written \(variant)"))
            }
        }
        let monitoring = SampleFIT.monitoring
        for (variant, options) in [("plain", FITWriteOptions()), ("big-endian", FITWriteOptions(bigEndian: true))] {
            files.append(SampleFile("monitoring-\(variant).fit", monitoring.encoded(options).bytes,
                                    .content(workouts: 0, stepSamples: monitoring.intervals.count), about: "monitoring file"))
        }
        let created = FixtureTime.unix(2015, 10, 13, 8, 43, 15)
        files.append(SampleFile("settings.fit", FITOtherFiles.settings(serial: 7, created: created).bytes,
                                .skipped("not an activity file (type 2 settings)"), about: "settings file"))
        files.append(SampleFile("weight.fit", FITOtherFiles.weight(serial: 8, created: created).bytes,
                                .skipped("not an activity file (type 9 weight)"), about: "weight-scale file"))
        files.append(SampleFile("workout-plan.fit", FITOtherFiles.workoutPlan(serial: 9, created: created).bytes,
                                .skipped("not an activity file (type 5 workout)"), about: "workout file"))
        let small = SampleFIT.small.encoded()
        files.append(SampleFile("activity-settings.fit", small.bytes + FITOtherFiles.settings(serial: 7, created: created).bytes,
                                .content(workouts: 1, stepSamples: 0), about: "activity chained with settings"))
        for damaged in FITDamage.all(small, chainedWith: FITOtherFiles.settings(serial: 7, created: created), stem: "small") {
            files.append(SampleFile(damaged.name, damaged.bytes, .failure(code: damaged.code, offset: damaged.offset, line: nil),
                                    about: damaged.damage))
        }

        let gpx: [(String, GPXDocument)] = [
            ("run.gpx", SampleText.gpxRun), ("tracks-1.0.gpx", SampleText.gpxTracks), ("still.gpx", SampleText.gpxStill),
            ("route.gpx", SampleExports.zippedRoute),
        ]
        for (name, document) in gpx {
            let timed = document.tracks.filter { $0.segments.joined().contains { $0.time != nil } }.count
            files.append(SampleFile(name, document.bytes, .content(workouts: timed, stepSamples: 0), about: "GPX"))
        }
        files.append(SampleFile("waypoint.gpx", SampleText.gpxWaypoint.bytes, .skipped("GPX waypoint (wpt)"), about: "waypoint only"))
        for (name, document) in [("run.tcx", SampleText.tcxRun), ("ski.tcx", SampleText.tcxSki), ("ride.tcx", SampleText.tcxRide)] {
            files.append(SampleFile(name, document.bytes, .content(workouts: document.activities.count, stepSamples: 0), about: "TCX"))
        }
        let health = SampleExports.health()
        let steps = health.records.filter { $0.type.hasSuffix("StepCount") && Double($0.value) != 0 }.count
        files.append(SampleFile("export.xml", health.bytes, .content(workouts: health.workouts.count, stepSamples: steps), about: "Apple Health"))
        let zipped = SampleExports.zippedHealth
        let zippedSteps = zipped.records.filter { $0.type.hasSuffix("StepCount") && Double($0.value) != 0 }.count
        files.append(SampleFile("export.zip", try SampleExports.healthZip(),
                                .content(workouts: zipped.workouts.count, stepSamples: zippedSteps), about: "Apple Health zip"))
        files.append(SampleFile("export-badcrc.zip", try SampleExports.healthZip(exportCRCDamage: 1),
                                .failure(code: "badCRC", offset: Int64(zipped.bytes.count), line: nil), about: "export.xml's CRC-32 wrong"))
        let strava = SampleExports.strava()
        files.append(SampleFile("activities.csv", StravaCSV.bytes(strava), .content(workouts: strava.count, stepSamples: 0), about: "Strava"))
        files.append(SampleFile("steps.csv", Array("startDate,endDate,value\n2016-01-01,2016-01-01,10\n".utf8),
                                .failure(code: "unsupported", offset: nil, line: 1), about: "a CSV with too few columns"))

        files.append(SampleFile("run.fit.gz", try GzipWriter.member(small.bytes, name: "run.fit"), .content(workouts: 1, stepSamples: 0),
                                about: "gzipped FIT"))
        files.append(SampleFile("route.gpx.gz", try GzipWriter.member(SampleExports.zippedRoute.bytes, name: "route.gpx"),
                                .content(workouts: 1, stepSamples: 0), about: "gzipped GPX"))
        files.append(SampleFile("run-badcrc.fit.gz", try GzipWriter.member(small.bytes, name: "run.fit", crcDamage: 0x100),
                                .failure(code: "badCRC", offset: nil, line: nil), about: "gzip CRC-32 wrong"))
        return files
    }
}

extension String {
    var replacingSpaces: String { String(map { $0 == " " ? "-" : $0 }) }
}
