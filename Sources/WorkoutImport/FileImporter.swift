public import Foundation
public import Logbook
import WorkoutFiles
import EventLog

/// Imports workout files into a Logbook: a FIT, GPX, TCX, Apple Health (`export.xml` or
/// `export.zip`) or Strava (`activities.csv`, with the original files it names beside it) file,
/// or a folder of them.
///
/// A file is read whole before anything is written, so a damaged file writes nothing; a file
/// larger than ``Options/inMemoryLimitBytes`` is read twice (checked, then streamed into the log)
/// so memory stays bounded whatever its size. Workouts are idempotent by source id and step
/// batches by content-derived event ids: importing the same file again writes nothing.
public struct FileImporter: Sendable {
    /// How to import.
    public struct Options: Sendable, Hashable {
        /// Read and report only; write nothing.
        public var dryRun = false
        /// Uncompressed files up to this size are read once and held in memory; larger ones, and
        /// compressed ones (zip, gzip: their size says little), are read twice.
        public var inMemoryLimitBytes: Int64 = 16 << 20
        /// Read the original files a Strava `activities.csv` names, beside it (off for uploads:
        /// an uploaded CSV must not name files of the server's).
        public var readOriginals = true
        /// Step samples per `steps.recorded` event (Logbook accepts up to 10,000).
        public var stepsPerEvent = 10_000
        /// How long reading the file (the first pass, before anything is written) may take; past
        /// it the import stops with `timeLimitExceeded` and writes nothing. nil: no limit.
        public var readTimeLimit: Duration?
        /// Hears how many workouts and step samples have been written so far, as the import goes.
        public var progress: (@Sendable (_ workouts: Int, _ stepSamples: Int) -> Void)?

        public static func == (lhs: Options, rhs: Options) -> Bool {
            lhs.dryRun == rhs.dryRun && lhs.inMemoryLimitBytes == rhs.inMemoryLimitBytes && lhs.stepsPerEvent == rhs.stepsPerEvent
                && lhs.readOriginals == rhs.readOriginals && lhs.readTimeLimit == rhs.readTimeLimit
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(dryRun)
            hasher.combine(inMemoryLimitBytes)
            hasher.combine(stepsPerEvent)
            hasher.combine(readOriginals)
            hasher.combine(readTimeLimit)
        }

        public init(dryRun: Bool = false) { self.dryRun = dryRun }
    }

    public let logbook: Logbook
    public var options: Options

    public init(logbook: Logbook, options: Options = Options()) {
        self.logbook = logbook
        self.options = options
    }

    /// The files a path names: itself, or a folder's workout files (recursively, in path order),
    /// leaving out the originals a Strava `activities.csv` of the folder names (they are read with
    /// their row).
    public static func files(at url: URL) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw WorkoutFileError(code: .io, fileName: url.lastPathComponent, message: "no such file or folder")
        }
        guard isDirectory.boolValue else { return [url] }
        let known: Set<String> = ["fit", "gpx", "tcx", "xml", "zip", "csv"]
        var found: [URL] = []
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        while let item = enumerator?.nextObject() as? URL {
            var name = item.lastPathComponent.lowercased()
            if name.hasSuffix(".gz") { name.removeLast(3) }
            guard known.contains((name as NSString).pathExtension), (try? item.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
            else { continue }
            found.append(item.standardizedFileURL)
        }
        found.sort { $0.path < $1.path }
        var named = Set<String>()
        for csv in found where csv.pathExtension.lowercased() == "csv" {
            let parsed = try? StravaCSVParser(options: ParseOptions(includeTrack: false)).parse(csv)
            for workout in parsed?.workouts ?? [] {
                if let original = workout.originalFile {
                    named.insert(csv.deletingLastPathComponent().appendingPathComponent(original).standardizedFileURL.path)
                }
            }
        }
        return found.filter { !named.contains($0.path) }
    }

    /// Imports one file for `user` (who must be registered: their time zone places times the file
    /// gives without an offset). Throws ``WorkoutFileError`` for a damaged file, having written nothing.
    public func importFile(_ url: URL, user: String) async throws -> FileImportReport {
        let profile = try await logbook.profile(user: user)
        guard let zone = TimeZone(identifier: profile.timeZone) else {
            throw LogbookError.invalidArgument(name: "timeZone", reason: "\(profile.timeZone) is not a time zone")
        }
        let mapping = ImportMapping(user: user, timeZone: zone)
        let identity = Self.identity(url)
        let holdInMemory = identity.size <= options.inMemoryLimitBytes && !Self.isCompressed(url)
        let originals = options.readOriginals
        var firstPass = ParseOptions()
        firstPass.readDeadline = options.readTimeLimit.map { ContinuousClock.now + $0 }
        let parsing = firstPass
        // Pass 1: read everything (a damaged file throws here, before any write).
        let first = try await BlockingWork.onThread { () throws -> Reading in
            var reading = Reading(mapping: mapping, keepItems: holdInMemory)
            var unreadOriginals = 0
            let summary = try Self.stream(url, options: parsing, readOriginals: originals, unreadOriginal: { unreadOriginals += 1 }) {
                reading.take($0)
            }
            if unreadOriginals > 0 { reading.skippedHere["original file that cannot be read (the row is imported without its track)"] = unreadOriginals }
            reading.finish(summary)
            return reading
        }
        var report = first.report(file: url.lastPathComponent)
        guard !options.dryRun else { return report }
        var writer = Writer(logbook: logbook, mapping: mapping, stepsPerEvent: options.stepsPerEvent, progress: options.progress)
        if holdInMemory {
            // Written as pass 1 mapped them: nothing is converted twice.
            for item in first.items { try await writer.write(item) }
        } else {
            // Pass 2: the same bytes again, streamed into the log with a small buffer between the threads.
            // A file changed since pass 1 (still being copied?) is refused rather than half imported.
            guard Self.identity(url) == identity else {
                throw WorkoutFileError(code: .io, fileName: url.lastPathComponent, message: "the file changed while it was being imported")
            }
            let feed = ParseFeed()
            defer { feed.cancel() }
            feed.start { sink in _ = try Self.stream(url, options: ParseOptions(), readOriginals: originals, unreadOriginal: {}) { try sink($0) } }
            var ignored: [String: Int] = [:]  // pass 1 counted them for the report
            for try await event in feed.items {
                try await writer.write(mapping.item(event, skipped: &ignored))
                feed.consumed()
            }
            // The stream also ends when this task is cancelled: that is not the end of the file.
            try Task.checkCancellation()
        }
        try await writer.flush()
        report.written = writer.written
        for index in report.workouts.indices {
            let outcome = writer.outcomes[report.workouts[index].sourceId]
            report.workouts[index].workoutId = outcome?.workoutId
            report.workouts[index].outcome = outcome?.outcome
        }
        return report
    }

    /// Streams a file's workouts (a Strava row with its original file, when that file lies beside
    /// the CSV and can be read; `unreadOriginal` hears of one that cannot) and step batches.
    static func stream(
        _ url: URL, options: ParseOptions, readOriginals: Bool, unreadOriginal: () -> Void, _ sink: (WorkoutFileEvent) throws -> Void
    ) throws -> StreamSummary {
        try WorkoutFileReader.stream(url, options: options) { event in
            guard readOriginals, case .workout(var workout) = event, workout.sourceKind == SourceKind.strava,
                  let original = workout.originalFile, let path = originalFile(original, besides: url)
            else { return try sink(event) }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                  (try? path.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
            else { return try sink(event) }
            guard let parsed = try? WorkoutFileReader.parse(path, options: options) else {
                unreadOriginal()
                return try sink(event)
            }
            if let recorded = parsed.workouts.first {
                workout.laps = recorded.laps
                workout.track = recorded.track
                workout.avgHeartRate = workout.avgHeartRate ?? recorded.avgHeartRate
                workout.maxHeartRate = workout.maxHeartRate ?? recorded.maxHeartRate
                workout.activeKcal = workout.activeKcal ?? recorded.activeKcal
                workout.startedAt = recorded.startedAt.offsetKnown ? recorded.startedAt : workout.startedAt
                workout.endedAt = recorded.endedAt.offsetKnown ? recorded.endedAt : workout.endedAt
            }
            try sink(.workout(workout))
        }
    }

    /// The original file a Strava row names, inside the CSV's folder; nil for an absolute path or
    /// one that climbs out of the folder.
    static func originalFile(_ relative: String, besides csv: URL) -> URL? {
        let components = relative.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        guard !relative.hasPrefix("/"), !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let folder = csv.deletingLastPathComponent().standardizedFileURL
        let path = folder.appendingPathComponent(components.joined(separator: "/")).standardizedFileURL
        return path.path.hasPrefix(folder.path + "/") ? path : nil
    }

    /// Size and modification time: what says a file is still the one pass 1 read.
    static func identity(_ url: URL) -> FileIdentity {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return FileIdentity(size: (attributes?[.size] as? Int64) ?? 0, modified: (attributes?[.modificationDate] as? Date) ?? .distantPast)
    }

    /// Whether the file is a zip archive or gzip-compressed (by its first bytes).
    static func isCompressed(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let magic = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        return magic.starts(with: [0x50, 0x4B, 0x03, 0x04]) || magic.starts(with: [0x1F, 0x8B])
    }
}

/// A file's size and modification time.
struct FileIdentity: Equatable, Sendable {
    var size: Int64
    var modified: Date
}

/// The first pass: the report, and (for a file held in memory) the mapped items to write.
struct Reading: Sendable {
    let mapping: ImportMapping
    let keepItems: Bool
    var items: [ImportMapping.Item] = []
    var workouts: [FileImportReport.Workout] = []
    var stepSamples = 0
    var steps = 0
    var skippedHere: [String: Int] = [:]
    var summary: StreamSummary?

    init(mapping: ImportMapping, keepItems: Bool) {
        self.mapping = mapping
        self.keepItems = keepItems
    }

    mutating func take(_ event: WorkoutFileEvent) {
        let item = mapping.item(event, skipped: &skippedHere)
        if keepItems { items.append(item) }
        switch (event, item) {
        case (.workout(let parsed), .workout(let e, let track)):
            // The report says null where the file has no value, so moving time and distance come from the file.
            workouts.append(FileImportReport.Workout(
                sourceKind: e.source.kind.rawValue, sourceId: e.source.sourceId ?? "", activityType: e.activityType.rawValue,
                startedAt: e.startedAt, endedAt: e.endedAt, elapsedSeconds: e.elapsedSeconds,
                movingSeconds: ImportMapping.count(parsed.movingSeconds, "movingSeconds"), distanceMeters: ImportMapping.count(parsed.distanceMeters, "distanceMeters"),
                activeKcal: e.activeKcal, avgHeartRate: e.avgHeartRate, laps: e.laps?.count ?? 0, trackPoints: track?.points ?? 0))
        case (_, .steps(let kept)):
            stepSamples += kept.count
            steps += kept.reduce(0) { $0 + $1.count }
        case (_, .workout):
            break  // a workout item comes only from a parsed workout
        }
    }

    mutating func finish(_ summary: StreamSummary) { self.summary = summary }

    func report(file: String) -> FileImportReport {
        var skipped = (summary?.skipped ?? []).map { FileImportReport.Skipped(reason: $0.reason, count: $0.count) }
        for (reason, count) in skippedHere.sorted(by: { $0.key < $1.key }) { skipped.append(.init(reason: reason, count: count)) }
        return FileImportReport(
            file: file, format: summary?.format.rawValue ?? "", workouts: workouts, stepSamples: stepSamples, steps: steps, skipped: skipped)
    }
}

/// The writing side: workouts one command each, step samples gathered into events of up to
/// `stepsPerEvent` samples whose ids derive from their content.
struct Writer {
    let logbook: Logbook
    let mapping: ImportMapping
    let stepsPerEvent: Int
    var pendingSteps: [StepSample] = []
    var written = FileImportReport.Written()
    var outcomes: [String: (workoutId: String, outcome: String)] = [:]
    let progress: (@Sendable (Int, Int) -> Void)?
    private var workoutsDone = 0
    private var samplesDone = 0

    init(logbook: Logbook, mapping: ImportMapping, stepsPerEvent: Int, progress: (@Sendable (Int, Int) -> Void)?) {
        self.logbook = logbook
        self.mapping = mapping
        self.stepsPerEvent = max(1, min(stepsPerEvent, 10_000))
        self.progress = progress
    }

    mutating func write(_ item: ImportMapping.Item) async throws {
        switch item {
        case .workout(let e, let track):
            let result = try await logbook.execute(.importWorkout(user: mapping.user, e, track: track))
            if result.alreadyApplied { written.workoutsAlreadyThere += 1 } else { written.workouts += 1 }
            written.lastPosition = max(written.lastPosition, result.lastPosition)
            if let sourceId = e.source.sourceId {
                outcomes[sourceId] = (result.workoutId ?? e.workoutId, result.alreadyApplied ? "already-imported" : "imported")
            }
            workoutsDone += 1
            progress?(workoutsDone, samplesDone)
        case .steps(let kept):
            pendingSteps += kept
            while pendingSteps.count >= stepsPerEvent {
                let chunk = Array(pendingSteps.prefix(stepsPerEvent))
                pendingSteps.removeFirst(stepsPerEvent)
                try await writeSteps(chunk)
            }
        }
    }

    mutating func flush() async throws {
        if !pendingSteps.isEmpty { try await writeSteps(pendingSteps) }
        pendingSteps = []
    }

    private mutating func writeSteps(_ samples: [StepSample]) async throws {
        let result = try await logbook.execute(
            .recordSteps(user: mapping.user, StepsRecorded(samples: samples)), context: CommandContext(eventId: mapping.stepsEventId(samples)))
        if result.alreadyApplied { written.stepEventsAlreadyThere += 1 } else { written.stepEvents += 1 }
        written.lastPosition = max(written.lastPosition, result.lastPosition)
        samplesDone += samples.count
        progress?(workoutsDone, samplesDone)
    }
}
