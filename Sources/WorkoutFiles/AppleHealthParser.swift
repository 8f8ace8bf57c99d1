import Foundation

/// Reads an Apple Health export: `export.xml`, or `export.zip` (stored or deflated entries)
/// whose `export.xml` is streamed straight out of the archive.
///
/// * `HKQuantityTypeIdentifierStepCount` records → step samples (source = `sourceName`, dates
///   keep their `+hhmm` offset), streamed in batches; not de-duplicated across devices;
/// * `<Workout>` → a workout: `sourceKind` "healthkit", `sourceId`
///   `healthkit:<sourceName>|<startDate>|<endDate>|<workoutActivityType>` (the raw attribute
///   texts), elapsed = endDate − startDate (or `duration` when an app wrote endDate =
///   startDate with a longer duration), moving = `duration` (min/s/h), distance
///   (km/mi/m/yd/ft), energy (kcal/Cal/kJ), falling back to `<WorkoutStatistics>` sums and
///   taking heart rate from its HeartRate average/maximum;
/// * routes: inline `<Location>` points become the track; a `<FileReference path=…>` is read from
///   the zip's `workout-routes/` GPX when parsing a zip, and otherwise kept in `originalFile`.
public struct AppleHealthParser: WorkoutFileParser, ByteStreamParser {
    public static let format = WorkoutFileFormat.appleHealth

    /// Parser options.
    public var options: ParseOptions

    /// Creates a parser.
    public init(options: ParseOptions = ParseOptions()) { self.options = options }



    /// Streams an `export.zip` at `url`: its `export.xml` straight out of the archive, with the
    /// routes of its `workout-routes/` folder. Memory stays bounded by one batch of step samples
    /// plus one workout whatever the export's size.
    func streamArchive(_ url: URL, name: String, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        let archive = try ZipArchive(url: url, fileName: name, options: options)
        guard let entry = archive.entry(named: "export.xml") else {
            throw WorkoutFileError(code: .unsupported, fileName: name, message: "the zip has no export.xml")
        }
        return try stream(source: try archive.open(entry), name: "\(name)/\(entry.name)", routes: archive, sink)
    }

    /// Streams an `export.xml` (its routes' files are kept by name, not read).
    func stream(source: any ByteSource, name: String, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        try stream(source: source, name: name, routes: nil, sink)
    }

    func stream(source: any ByteSource, name: String, routes: ZipArchive?,
                _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        let reader = XMLPullReader(source: source, fileName: name)
        var health = AppleHealthReader()
        health.maxLocations = options.maxTrackPointsPerWorkout
        var batch: [ParsedStepSample] = []
        batch.reserveCapacity(min(options.stepBatchSize, 1 << 16))
        var stepCount = 0, workoutCount = 0
        var routeSkips = SkipCounter()
        var readRoutes = Set<String>()
        try health.read(reader, onStep: { sample in
            guard stepCount + batch.count < options.maxStepSamplesPerFile else {
                throw reader.error(.limitExceeded, at: reader.tokenStart,
                                   "more than \(options.maxStepSamplesPerFile) step samples (ParseOptions.maxStepSamplesPerFile)")
            }
            batch.append(sample)
            if batch.count >= options.stepBatchSize {
                stepCount += batch.count
                try sink(.stepSamples(batch))
                batch.removeAll(keepingCapacity: true)
            }
        }, onWorkout: { draft in
            guard workoutCount < options.maxWorkoutsPerFile else {
                throw reader.error(.limitExceeded, at: reader.tokenStart,
                                   "more than \(options.maxWorkoutsPerFile) workouts (ParseOptions.maxWorkoutsPerFile)")
            }
            guard let workout = try workout(from: draft, routes: routes, readRoutes: &readRoutes, skips: &routeSkips) else { return }
            workoutCount += 1
            try sink(.workout(workout))
        })
        if !batch.isEmpty {
            stepCount += batch.count
            try sink(.stepSamples(batch))
        }
        var skips = health.skips
        for note in routeSkips.notes { skips.add(note.reason, count: note.count) }
        return StreamSummary(format: .appleHealth, workoutCount: workoutCount, stepSampleCount: stepCount,
                             skipped: skips.notes, warnings: [])
    }

    private func workout(from draft: AppleHealthReader.WorkoutDraft, routes: ZipArchive?,
                         readRoutes: inout Set<String>, skips: inout SkipCounter) throws -> ParsedWorkout? {
        guard let start = draft.start, let end = draft.end, end >= start else {
            skips.add("workout with unreadable start or end date")
            return nil
        }
        var track = draft.locations
        if let path = draft.routePath, track.isEmpty {
            track = try route(path, in: routes, readRoutes: &readRoutes, skips: &skips)
        }
        let totals = TrackMath.totals(segments: [track])
        // Some apps write endDate = startDate with a real duration; trust the duration then.
        var finish = end
        if let duration = draft.duration, duration > end.seconds(since: start) + 1 { finish = start.adding(seconds: duration) }
        return ParsedWorkout(
            sourceKind: SourceKind.healthkit,
            sourceId: "healthkit:\(draft.sourceName)|\(draft.startText)|\(draft.endText)|\(draft.type)",
            activityType: ActivityTypeMapping.healthKit(draft.type), sportName: draft.type.isEmpty ? nil : draft.type,
            title: nil, startedAt: start, endedAt: finish, elapsedSeconds: finish.seconds(since: start),
            movingSeconds: draft.duration, distanceMeters: draft.distance,
            activeKcal: draft.energy.flatMap(TextScalars.roundedInt),
            avgHeartRate: draft.avgHeartRate ?? totals.avgHeartRate, maxHeartRate: draft.maxHeartRate ?? totals.maxHeartRate,
            laps: [], track: options.includeTrack ? track : [], originalFile: draft.routePath)
    }

    /// Reads a route GPX out of the archive; damage becomes a skip note, a passed limit an error.
    ///
    /// Each route entry is decoded at most once: a second workout naming an entry already read
    /// gets no track (and a note), so an export cannot make a small zip cost its size many times over.
    private func route(_ path: String, in archive: ZipArchive?, readRoutes: inout Set<String>,
                       skips: inout SkipCounter) throws -> [TrackPoint] {
        guard let archive else {
            skips.add("workout route file not available outside export.zip (kept in originalFile)")
            return []
        }
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard let entry = archive.entry(named: relative) else {
            skips.add("workout route file missing from the zip")
            return []
        }
        guard readRoutes.insert(entry.name).inserted else {
            skips.add("workout route file already read for an earlier workout (each is read once)")
            return []
        }
        do {
            let reader = XMLPullReader(source: try archive.open(entry), fileName: "\(archive.fileName)/\(entry.name)")
            var tracks = GPXTrackReader(options: options)
            // One route is one workout's track, whatever number of <trk> it splits into.
            tracks.maxBufferedPoints = options.maxTrackPointsPerWorkout
            var points: [TrackPoint] = []
            try tracks.read(reader) { track in points.append(contentsOf: track.segments.joined()) }
            return points
        } catch let error as WorkoutFileError where error.code == .limitExceeded {
            throw error
        } catch {
            skips.add("unreadable workout route file")
            return []
        }
    }
}
