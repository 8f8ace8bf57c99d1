public import Foundation

/// A reader of one workout-file format: FIT, GPX, TCX, Apple Health or Strava CSV.
///
/// Every format is read through one path, ``WorkoutFileReader``: the file is opened within the
/// options' deadline, one layer of gzip is unwrapped, the limits are those of ``ParseOptions``,
/// and every failure is a ``WorkoutFileError`` naming the file and the place in it. A parser pins
/// the format instead of detecting it; its own code is how the format's bytes become workouts and
/// step samples.
public protocol WorkoutFileParser: Sendable {
    /// The format this parser reads.
    static var format: WorkoutFileFormat { get }
    /// Limits, the read deadline, the name errors use, and whether tracks are kept.
    var options: ParseOptions { get }
    init(options: ParseOptions)
}

extension WorkoutFileParser {
    /// Parses the file at `url`.
    public func parse(_ url: URL) throws -> ParsedFile {
        try WorkoutFileReader.parse(url, format: Self.format, options: options)
    }

    /// Parses bytes held in memory, named `fileName` in errors.
    public func parse(bytes: [UInt8], fileName: String) throws -> ParsedFile {
        try WorkoutFileReader.parse(bytes: bytes, fileName: fileName, format: Self.format, options: options)
    }

    /// Streams the file's workouts and step-sample batches to `sink` as they complete.
    public func stream(_ url: URL, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        try WorkoutFileReader.stream(url, format: Self.format, options: options, sink)
    }
}

/// What each parser implements: its format's bytes, from an open source, to workouts and steps.
protocol ByteStreamParser: WorkoutFileParser {
    func stream(source: any ByteSource, name: String, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary
}

extension WorkoutFileFormat {
    /// The parser of this format, with `options`.
    func parser(options: ParseOptions) -> any ByteStreamParser {
        switch self {
        case .fit: FITParser(options: options)
        case .gpx: GPXParser(options: options)
        case .tcx: TCXParser(options: options)
        case .appleHealth: AppleHealthParser(options: options)
        case .stravaCSV: StravaCSVParser(options: options)
        }
    }
}

/// Collects a streaming parse, and names files in errors.
enum ParseDriver {
    /// Runs a streaming parse and collects its events.
    static func collect(_ body: ((WorkoutFileEvent) throws -> Void) throws -> StreamSummary) throws -> ParsedFile {
        var collector = EventCollector()
        let summary = try body { collector.take($0) }
        return collector.file(summary)
    }

    /// The name used in errors.
    static func displayName(_ url: URL, _ options: ParseOptions) -> String {
        options.displayName ?? url.lastPathComponent
    }
}
