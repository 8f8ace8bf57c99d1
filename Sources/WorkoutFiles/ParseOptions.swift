/// Knobs shared by all parsers, and the limits that keep hostile input bounded.
///
/// Every limit is checked while the input is read: a parser throws `limitExceeded` naming the
/// limit (and the entry, workout or line) as soon as one is passed, before it allocates or
/// inflates for what lies beyond. The defaults let real exports through with room to spare:
///
/// * inflation — a real Apple Health `export.xml` (3.8 MB, 11,101 records) compresses 20.0× with
///   `zip -9` and 20.0× with `gzip -9`; TCX 9.3×, GPX 5.6×, Strava CSV 3.5×, FIT 2.7×. DEFLATE
///   can reach 1,032×, which is what a bomb uses. So an entry may inflate to at most 100× its
///   compressed bytes (5× the most compressible real file), plus 1 MiB whatever its ratio, and
///   never past 2 GiB; all the entries read from one archive, 3 GiB in all. Uploads are capped
///   at 512 MiB (`HTTPConfiguration.maxImportBytes`), so a real export that fits the upload is
///   cut only above 2 GiB of XML, several years of a watch's records;
/// * domain — Logbook accepts at most 500,000 points per track (`Rules.maxTrackPoints`) and
///   keeps 10,000 laps per workout (`Rules.totals`; a parser holds ten times that, since a
///   workout with more is imported without its laps); a file gives at most 100,000 workouts
///   (a workout a day for 270 years) and 5,000,000 step samples (a phone and a watch writing
///   about 300 step records a day for 45 years; the real export above has 3,980 in 11,101 records).
public struct ParseOptions: Sendable, Hashable {
    /// Step samples per streamed batch.
    public var stepBatchSize: Int = 4096
    /// Whether to keep track points (false saves memory when only totals are needed).
    public var includeTrack: Bool = true
    /// Name used in errors instead of the URL's last path component.
    public var displayName: String? = nil

    /// Most bytes one zip entry or gzip member may inflate to (default 2 GiB).
    public var maxInflatedBytesPerEntry: Int64 = 2 << 30
    /// Most bytes all the entries read from one zip archive may inflate to together (default
    /// 3 GiB: an export.xml at its ceiling plus 1 GiB of workout routes).
    public var maxInflatedBytesPerFile: Int64 = 3 << 30
    /// Most inflated bytes per compressed byte of a deflated entry or member (default 100).
    public var maxCompressionRatio: Int64 = 100
    /// Inflated bytes an entry may reach whatever its ratio (default 1 MiB), so small, highly
    /// compressible entries (an empty route, a short GPX of repeated points) pass.
    public var compressionRatioAllowanceBytes: Int64 = 1 << 20
    /// Most points one workout's track may hold (default 500,000 — Logbook's own limit,
    /// `Rules.maxTrackPoints` in Sources/LogbookDomain/Commands/Rules.swift; this module cannot import it).
    public var maxTrackPointsPerWorkout: Int = 500_000
    /// Most track points a parser holds while it reads one file before it can hand workouts on
    /// (FIT keeps records until its sessions arrive, GPX and TCX keep tracks until the content
    /// hash is known): default 1,000,000, two maximal tracks, about 150 MB.
    public var maxBufferedTrackPoints: Int = 1_000_000
    /// Most laps one workout may hold, and a FIT file may buffer (default 100,000). Logbook keeps
    /// at most 10,000 laps (`Rules.totals`) and WorkoutImport imports a workout with more without
    /// its laps, so this bound only keeps memory in check: ten times that, about 10 MB of laps.
    public var maxLapsPerWorkout: Int = 100_000
    /// Most workouts one file may give (default 100,000; FIT sessions count, transitions included).
    public var maxWorkoutsPerFile: Int = 100_000
    /// Most step samples one file may give (default 5,000,000).
    public var maxStepSamplesPerFile: Int = 5_000_000
    /// When reading must stop (nil: never): every read from the file checks it, so a file that is
    /// slow to parse holds a thread no longer than its caller allows (`timeLimitExceeded`).
    public var readDeadline: ContinuousClock.Instant? = nil

    /// Default options.
    public init(stepBatchSize: Int = 4096, includeTrack: Bool = true, displayName: String? = nil) {
        self.stepBatchSize = max(1, stepBatchSize)
        self.includeTrack = includeTrack
        self.displayName = displayName
    }
}

extension WorkoutFileError {
    /// A `limitExceeded` error naming the limit: "more than 500000 track points in one workout
    /// (ParseOptions.maxTrackPointsPerWorkout)".
    static func exceeded(_ fileName: String, _ what: String, option: String, byteOffset: Int64? = nil,
                      line: Int? = nil, column: Int? = nil) -> WorkoutFileError {
        WorkoutFileError(code: .limitExceeded, fileName: fileName, byteOffset: byteOffset, line: line, column: column,
                         message: "\(what) (ParseOptions.\(option))")
    }
}
