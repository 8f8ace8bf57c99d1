import Foundation

/// Reads the `activities.csv` of a Strava bulk export: one workout per row.
///
/// Columns are read BY POSITION because Strava repeats header names ("Elapsed Time",
/// "Distance", "Max Heart Rate", "Relative Effort", "Commute" twice) and localises them.
/// Positions, identical in the 87-column (2023) and 99-column (2025) files:
///
/// | # | header | use |
/// |---|---|---|
/// | 0 | Activity ID | `sourceId` |
/// | 1 | Activity Date | start, English "Oct 5, 2014, 4:15:21 PM" or ISO; taken as UTC, offset unknown |
/// | 2 | Activity Name | `title` |
/// | 3 | Activity Type | `sportName`, mapped with `ActivityTypeMapping.freeText` |
/// | 5 | Elapsed Time | seconds (integer); col 15 is the same as a float, used as fallback |
/// | 6 | Distance | display units — km, but nautical miles for Sail — used only if col 17 is empty (× 1000, Sail × 1852) |
/// | 7 / 30 | Max Heart Rate | bpm (30 preferred) |
/// | 12 | Filename | `originalFile` (e.g. activities/123.fit.gz) |
/// | 16 | Moving Time | seconds |
/// | 17 | Distance | metres (preferred) |
/// | 31 | Average Heart Rate | bpm |
/// | 34 | Calories | kcal |
///
/// `endedAt` = start + elapsed. Rows without an id or a readable date are skipped with a note.
public struct StravaCSVParser: WorkoutFileParser, ByteStreamParser {
    public static let format = WorkoutFileFormat.stravaCSV

    /// Parser options.
    public var options: ParseOptions

    /// Creates a parser.
    public init(options: ParseOptions = ParseOptions()) { self.options = options }

    /// The column positions used.
    enum Column {
        static let id = 0, date = 1, name = 2, type = 3, elapsed = 5, displayDistance = 6, maxHeartRateA = 7
        static let filename = 12, elapsedFloat = 15, moving = 16, distanceMeters = 17
        static let maxHeartRate = 30, avgHeartRate = 31, calories = 34
        static let minimumCount = 18
    }




    func stream(source: any ByteSource, name: String, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        let reader = CSVReader(source: source, fileName: name)
        guard let header = try reader.nextRawRow() else {
            throw WorkoutFileError(code: .malformedCSV, fileName: name, line: 1, column: 1, message: "the file is empty")
        }
        guard header.count >= Column.minimumCount else {
            throw WorkoutFileError(code: .unsupported, fileName: name, line: 1, column: 1,
                                   message: "header has \(header.count) columns; a Strava activities.csv has at least \(Column.minimumCount)")
        }
        var skips = SkipCounter()
        var count = 0
        while let row = try reader.nextRawRow() {
            if row.isBlank { continue }
            guard row.count >= Column.minimumCount else {
                skips.add("row with fewer than \(Column.minimumCount) columns")
                continue
            }
            let id = row[Column.id].trimmingSpaces()
            guard !id.isEmpty else {
                skips.add("row without an Activity ID")
                continue
            }
            guard let start = TextScalars.stravaDate(row[Column.date]) else {
                skips.add("row with an unreadable Activity Date")
                continue
            }
            guard count < options.maxWorkoutsPerFile else {
                throw WorkoutFileError.exceeded(name, "more than \(options.maxWorkoutsPerFile) workouts", option: "maxWorkoutsPerFile",
                                                line: reader.rowLine, column: 1)
            }
            count += 1
            try sink(.workout(Self.workout(row, id: id, start: start)))
        }
        return StreamSummary(format: .stravaCSV, workoutCount: count, stepSampleCount: 0, skipped: skips.notes, warnings: [])
    }

    static func number(_ row: CSVRow, _ index: Int) -> Double? {
        guard !row.isEmpty(index) else { return nil }
        if let value = row.withField(index, TextScalars.double) { return value }
        let text = row[index]
        if text.filter({ $0 == "," }).count == 1, !text.contains(".") {
            return text.replacingOccurrences(of: ",", with: ".").withUTF8Bytes(TextScalars.double)
        }
        return text.replacingOccurrences(of: ",", with: "").withUTF8Bytes(TextScalars.double)
    }

    static func workout(_ row: CSVRow, id: String, start: FileTimestamp) -> ParsedWorkout {
        let elapsed = min(number(row, Column.elapsed) ?? number(row, Column.elapsedFloat) ?? 0, 1e9)
        let type = row.isEmpty(Column.type) ? nil : row[Column.type]
        // Column 6 is in the display unit: nautical miles for Sail, kilometres otherwise.
        let displayUnit = type?.trimmingSpaces() == "Sail" ? 1852.0 : 1000.0
        let distance = number(row, Column.distanceMeters) ?? number(row, Column.displayDistance).map { $0 * displayUnit }
        let maxHR = number(row, Column.maxHeartRate) ?? number(row, Column.maxHeartRateA)
        let file = row[Column.filename].trimmingSpaces()
        func rate(_ value: Double?) -> Int? { value.flatMap { $0 > 0 && $0 < 400 ? Int($0.rounded()) : nil } }
        return ParsedWorkout(
            sourceKind: SourceKind.strava, sourceId: id, activityType: ActivityTypeMapping.freeText(type),
            sportName: type, title: row.isEmpty(Column.name) ? nil : row[Column.name], startedAt: start,
            endedAt: start.adding(seconds: max(0, elapsed)), elapsedSeconds: max(0, elapsed),
            movingSeconds: number(row, Column.moving), distanceMeters: distance.flatMap { $0 >= 0 ? $0 : nil },
            activeKcal: number(row, Column.calories).flatMap { $0 >= 0 && $0 < 1e7 ? Int($0.rounded()) : nil },
            avgHeartRate: rate(number(row, Column.avgHeartRate)), maxHeartRate: rate(maxHR),
            laps: [], track: [], originalFile: file.isEmpty ? nil : file)
    }
}
