/// Turns FIT monitoring messages (cumulative step counts per activity type since local
/// midnight) into step samples: one sample per positive delta.
///
/// Rules, from the FIT profile and checked on `MonitoringFile.fit`:
/// * steps = the raw `cycles` field (3) for activity types walking (6) and running (1) — the
///   profile's `steps` sub-field has scale 1 while `cycles` itself has scale 2, so steps are
///   twice the displayed cycles; other activity types carry strokes or nothing and are ignored;
/// * the activity type comes from field 5, else from the low 5 bits of field 24;
/// * times come from field 253 or `timestamp_16` (26) expanded against the last full timestamp;
/// * counts restart at each local midnight (offset from monitoring_info: local_timestamp −
///   timestamp). A message exactly at midnight still belongs to the day that ends then (a
///   count "since midnight" taken at midnight can only be the previous day's total), which
///   keeps end-of-day summary messages from counting twice;
/// * a count lower than the previous one on the same day is a device reset: the new count is
///   the delta.
struct FITMonitoringBuilder {
    struct Cumulative {
        var day: Int64
        var count: Int64
        var time: Int64
    }

    struct Pending {
        var start: Int64, end: Int64, count: Int64, activityType: Int64
    }

    var utcOffset: Int32?
    private var lastFullTimestamp: Int64?
    private var state: [Int64: Cumulative] = [:]
    private(set) var pending: [Pending] = []
    /// Steps per FIT activity type (1 running, 6 walking), for checks and summaries.
    private(set) var totals: [Int64: Int64] = [:]
    /// Most samples this FIT file may still give (`ParseOptions.maxStepSamplesPerFile` less those given already).
    var maxSamples = ParseOptions().maxStepSamplesPerFile

    /// Notes every full timestamp, so `timestamp_16` can be expanded.
    mutating func noteTimestamp(_ raw: UInt32?) {
        if let raw { lastFullTimestamp = Int64(raw) }
    }

    /// Handles monitoring_info (offset) and monitoring (counts) messages.
    mutating func take(_ message: FITMessage, fileName: String) throws {
        if message.globalNumber == FITProfile.Message.monitoringInfo {
            if let offset = FITProfile.utcOffset(local: message.integer(FITProfile.MonitoringInfo.localTimestamp), utc: message.timestamp) {
                utcOffset = offset
            }
            return
        }
        guard message.globalNumber == FITProfile.Message.monitoring else { return }
        typealias M = FITProfile.Monitoring
        var time: Int64?
        if let raw = message.timestamp {
            time = Int64(raw)
        } else if let short = message.integer(M.timestamp16).flatMap({ UInt16(exactly: $0) }), let last = lastFullTimestamp {
            // timestamp_16 is a uint16 and FIT times are uint32: a value outside either is not a time.
            let expanded = last + ((Int64(short) - (last & 0xFFFF)) & 0xFFFF)
            if expanded <= Int64(UInt32.max) {
                time = expanded
                lastFullTimestamp = expanded
            }
        }
        // cycles is a uint32 in the profile; wider values (a definition may give it 8 bytes) are invalid.
        guard let time, let cycles = message.integer(M.cycles).flatMap({ UInt32(exactly: $0) }).map(Int64.init) else { return }
        let activityType = message.integer(M.activityType) ?? message.integer(M.typeAndIntensity).map { $0 & 0x1F }
        guard let activityType, activityType == 1 || activityType == 6 else { return }
        let offset = Int64(utcOffset ?? 0)
        let local = time + offset
        let day = (local - 1) >= 0 ? (local - 1) / 86_400 : ((local - 1) - 86_399) / 86_400
        var current = state[activityType] ?? Cumulative(day: day, count: 0, time: day * 86_400 - offset)
        if current.day != day {
            current = Cumulative(day: day, count: 0, time: day * 86_400 - offset)
        }
        let delta = cycles >= current.count ? cycles - current.count : cycles
        if delta > 0 {
            guard pending.count < maxSamples else {
                throw WorkoutFileError.exceeded(fileName, "more step samples than ParseOptions allows", option: "maxStepSamplesPerFile")
            }
            pending.append(Pending(start: current.time, end: time, count: delta, activityType: activityType))
            totals[activityType, default: 0] += delta
        }
        current.count = cycles
        current.time = time
        state[activityType] = current
    }

    /// The samples, stamped with the file's offset.
    func samples(source: String) -> [ParsedStepSample] {
        pending.map { sample in
            func stamp(_ raw: Int64) -> FileTimestamp {
                FileTimestamp(unixSeconds: raw + FITProfile.epochOffset,
                              utcOffsetSeconds: utcOffset ?? 0, offsetKnown: utcOffset != nil)
            }
            return ParsedStepSample(start: stamp(sample.start), end: stamp(sample.end),
                                    count: Int(sample.count), source: source)
        }
    }
}
