import Foundation

/// Reads FIT files: activity files become one workout per (non-transition) session, monitoring
/// files become step samples; other FIT file types parse cleanly and are reported as skipped.
///
/// `sourceId` is `fit:<file_id.serial_number>:<file_id.time_created>:<session index>` ("-" for a
/// missing value); the session index counts every session of that FIT file, transitions
/// included, so ids never shift. Chained FIT files are read one after the other; a session
/// whose id was already produced by an earlier chained copy is skipped as a duplicate.
/// `movingSeconds` is total_moving_time when present, else total_timer_time; `activeKcal` is
/// total_calories. Memory grows with the number of records (they are kept until the sessions,
/// which FIT writes at the end, say where each workout begins and ends).
public struct FITParser: WorkoutFileParser, ByteStreamParser {
    public static let format = WorkoutFileFormat.fit

    /// Parser options.
    public var options: ParseOptions

    /// Creates a parser.
    public init(options: ParseOptions = ParseOptions()) { self.options = options }




    func stream(source: any ByteSource, name: String, _ sink: (WorkoutFileEvent) throws -> Void) throws -> StreamSummary {
        try withoutActuallyEscaping(sink) { sink in
            var handler = FITFileHandler(fileName: name, options: options, sink: sink)
            try FITDecoder(source: source, fileName: name).decode(into: &handler)
            return StreamSummary(format: .fit, workoutCount: handler.workoutCount, stepSampleCount: handler.stepCount,
                                 skipped: handler.skips.notes, warnings: handler.warnings.items)
        }
    }

    /// Decodes and returns the monitoring step totals per FIT activity type (tests, diagnostics).
    func monitoringTotals(bytes: [UInt8], fileName: String) throws -> [Int64: Int64] {
        var totals: [Int64: Int64] = [:]
        var handler = FITFileHandler(fileName: fileName, options: options, sink: { _ in })
        handler.onMonitoringTotals = { for (key, value) in $0 { totals[key, default: 0] += value } }
        try FITDecoder(source: MemoryByteSource(bytes), fileName: fileName).decode(into: &handler)
        return totals
    }
}

/// Routes decoded FIT messages to the activity and monitoring builders, one chained file at a time.
struct FITFileHandler: FITMessageHandler {
    let fileName: String
    let options: ParseOptions
    let sink: (WorkoutFileEvent) throws -> Void
    var skips = SkipCounter()
    var warnings = WarningList()
    var workoutCount = 0
    var stepCount = 0
    var onMonitoringTotals: (([Int64: Int64]) -> Void)?

    private var fileType: Int64?
    private var manufacturer: Int64?
    private var serial: Int64?
    private var timeCreated: Int64?
    private var sawFileId = false
    /// Whether any chained file so far had a file_id; a later chained file without one
    /// continues the last identified file (Garmin writes stored heart rate that way).
    private var fileIdentified = false
    private var sessionBase: [String: Int] = [:]
    private var activity = FITActivityBuilder()
    private var monitoring = FITMonitoringBuilder()
    private var emittedIds: Set<String> = []

    init(fileName: String, options: ParseOptions, sink: @escaping (WorkoutFileEvent) throws -> Void) {
        self.fileName = fileName
        self.options = options
        self.sink = sink
    }

    mutating func fileStarted(index: Int, offset: Int64) {
        sawFileId = false
        activity = FITActivityBuilder(options: options)
        monitoring = FITMonitoringBuilder()
        monitoring.maxSamples = max(0, options.maxStepSamplesPerFile - stepCount)
    }

    mutating func message(_ message: FITMessage) throws {
        monitoring.noteTimestamp(message.timestamp)
        switch message.globalNumber {
        case FITProfile.Message.fileId:
            guard !sawFileId else { return }
            sawFileId = true
            fileIdentified = true
            typealias F = FITProfile.FileId
            fileType = message.integer(F.type)
            manufacturer = message.integer(F.manufacturer)
            serial = message.integer(F.serialNumber)
            timeCreated = message.integer(F.timeCreated)
        case FITProfile.Message.session, FITProfile.Message.lap, FITProfile.Message.record, FITProfile.Message.activity:
            if fileType == nil || fileType == 4 { try activity.take(message, fileName: fileName) }
        case FITProfile.Message.monitoring, FITProfile.Message.monitoringInfo:
            if let fileType, FITProfile.isMonitoring(fileType) { try monitoring.take(message, fileName: fileName) }
        default:
            break
        }
    }

    mutating func fileEnded(index: Int) throws {
        let kind = FITProfile.sourceKind(manufacturer: manufacturer)
        guard fileIdentified, let fileType else {
            skips.add("FIT file without a file_id message")
            return
        }
        let continuation = !sawFileId
        if fileType == 4 {
            if continuation, activity.sessions.isEmpty, activity.records.isEmpty {
                skips.add("chained FIT file without file_id or activity data (e.g. stored heart rate)")
                return
            }
            let prefix = "fit:\(serial.map(String.init) ?? "-"):\(timeCreated.map(String.init) ?? "-")"
            let base = continuation ? sessionBase[prefix, default: 0] : 0
            let built = try activity.workouts(idPrefix: prefix, firstIndex: base, sourceKind: kind, fileName: fileName,
                                              skips: &skips, warnings: &warnings)
            sessionBase[prefix] = base + activity.sessions.count
            for workout in built {
                guard emittedIds.insert(workout.sourceId).inserted else {
                    skips.add("duplicate session in a chained FIT file")
                    continue
                }
                guard workoutCount < options.maxWorkoutsPerFile else {
                    throw WorkoutFileError.exceeded(fileName, "more than \(options.maxWorkoutsPerFile) workouts", option: "maxWorkoutsPerFile")
                }
                workoutCount += 1
                try sink(.workout(workout))
            }
        } else if FITProfile.isMonitoring(fileType) {
            let samples = monitoring.samples(source: kind)
            onMonitoringTotals?(monitoring.totals)
            if monitoring.utcOffset == nil, !samples.isEmpty {
                warnings.append("monitoring file without monitoring_info: days split at UTC midnight")
            }
            var index = 0
            while index < samples.count {
                let batch = Array(samples[index..<min(samples.count, index + options.stepBatchSize)])
                stepCount += batch.count
                try sink(.stepSamples(batch))
                index += options.stepBatchSize
            }
            if samples.isEmpty, !continuation { skips.add("monitoring file without step counts") }
        } else if !continuation {
            skips.add("not an activity file (type \(fileType) \(FITProfile.fileTypeName(fileType)))")
        }
    }
}
