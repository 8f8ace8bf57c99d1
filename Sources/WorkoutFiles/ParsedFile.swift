/// The formats this module reads.
public enum WorkoutFileFormat: String, Sendable, CaseIterable {
    /// Garmin FIT (binary), possibly several chained FIT files.
    case fit
    /// GPX 1.0 / 1.1 track files.
    case gpx
    /// Garmin Training Center XML.
    case tcx
    /// Apple Health `export.xml`, or `export.zip` containing it.
    case appleHealth = "apple-health"
    /// Strava bulk-export `activities.csv`.
    case stravaCSV = "strava-csv"
}

/// Something a parser read but left out of its output, with how many times it happened.
public struct SkipNote: Sendable, Hashable {
    /// Why, e.g. "not an activity file (type 2 settings)".
    public var reason: String
    /// How many items were skipped for this reason.
    public var count: Int

    /// Creates a note.
    public init(reason: String, count: Int) {
        self.reason = reason
        self.count = count
    }
}

/// Everything read from one file.
public struct ParsedFile: Sendable, Hashable {
    /// Which format was read.
    public var format: WorkoutFileFormat
    /// Workouts in file order.
    public var workouts: [ParsedWorkout]
    /// Step samples in file order.
    public var stepSamples: [ParsedStepSample]
    /// Items deliberately left out, grouped by reason in first-seen order.
    public var skipped: [SkipNote]
    /// Caveats about values that were kept (e.g. FIT device-relative timestamps).
    public var warnings: [String]

    /// Creates a result.
    public init(format: WorkoutFileFormat, workouts: [ParsedWorkout] = [],
                stepSamples: [ParsedStepSample] = [], skipped: [SkipNote] = [], warnings: [String] = []) {
        self.format = format
        self.workouts = workouts
        self.stepSamples = stepSamples
        self.skipped = skipped
        self.warnings = warnings
    }
}

/// One piece of streamed output: parsers call the sink with these as soon as each is complete.
public enum WorkoutFileEvent: Sendable, Hashable {
    /// A finished workout.
    case workout(ParsedWorkout)
    /// A batch of step samples (at most `ParseOptions.stepBatchSize` each).
    case stepSamples([ParsedStepSample])
}

/// Summary returned by a streaming parse: what was not emitted through the sink.
public struct StreamSummary: Sendable, Hashable {
    /// Which format was read.
    public var format: WorkoutFileFormat
    /// Workouts emitted.
    public var workoutCount: Int
    /// Step samples emitted.
    public var stepSampleCount: Int
    /// Items deliberately left out.
    public var skipped: [SkipNote]
    /// Caveats about emitted values.
    public var warnings: [String]
}

/// Collects skip reasons in first-seen order.
struct SkipCounter {
    private(set) var notes: [SkipNote] = []

    /// Distinct reasons kept; further ones are pooled (keeps hostile input from growing this).
    static let maxReasons = 200
    static let overflowReason = "other reasons (too many distinct ones to list)"

    mutating func add(_ reason: String, count: Int = 1) {
        guard count > 0 else { return }
        if let index = notes.firstIndex(where: { $0.reason == reason }) {
            notes[index].count += count
        } else if notes.count < Self.maxReasons {
            notes.append(SkipNote(reason: reason, count: count))
        } else if let index = notes.firstIndex(where: { $0.reason == Self.overflowReason }) {
            notes[index].count += count
        } else {
            notes.append(SkipNote(reason: Self.overflowReason, count: count))
        }
    }
}

/// Warnings in first-seen order, at most `maxItems` of them (keeps hostile input, say a FIT
/// stream of many chained files, from growing the list without bound).
struct WarningList {
    private(set) var items: [String] = []

    static let maxItems = 200

    mutating func append(_ warning: String) {
        guard items.count < Self.maxItems else { return }
        items.append(warning)
    }
}

/// Turns a streamed parse back into a `ParsedFile`.
struct EventCollector {
    var workouts: [ParsedWorkout] = []
    var steps: [ParsedStepSample] = []

    mutating func take(_ event: WorkoutFileEvent) {
        switch event {
        case .workout(let workout): workouts.append(workout)
        case .stepSamples(let batch): steps.append(contentsOf: batch)
        }
    }

    func file(_ summary: StreamSummary) -> ParsedFile {
        ParsedFile(format: summary.format, workouts: workouts, stepSamples: steps,
                   skipped: summary.skipped, warnings: summary.warnings)
    }
}
