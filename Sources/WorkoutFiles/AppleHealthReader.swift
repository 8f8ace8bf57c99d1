/// Walks an Apple Health `export.xml` and reports step records and workouts as they complete.
///
/// Only top-level `<Record>` elements count (records inside `<Correlation>` repeat top-level
/// ones, per the export's own DTD comment). Step samples are not de-duplicated: iPhone and
/// Watch both record steps for the same minutes, and resolving that is the caller's job.
struct AppleHealthReader {
    struct WorkoutDraft {
        var type = "", sourceName = "", startText = "", endText = ""
        var start: FileTimestamp?, end: FileTimestamp?
        var duration: Double?, distance: Double?, energy: Double?
        var avgHeartRate: Int?, maxHeartRate: Int?
        var routePath: String?
        var locations: [TrackPoint] = []
    }

    static let stepType = XMLKey("HKQuantityTypeIdentifierStepCount")
    private static let typeKey = XMLKey("type"), valueKey = XMLKey("value"), sourceKey = XMLKey("sourceName")
    private static let startKey = XMLKey("startDate"), endKey = XMLKey("endDate"), pathKey = XMLKey("path")
    private static let dateKey = XMLKey("date"), latKey = XMLKey("latitude"), lonKey = XMLKey("longitude")
    private static let altitudeKey = XMLKey("altitude"), speedKey = XMLKey("speed")

    var skips = SkipCounter()
    /// Most inline route locations per workout (`ParseOptions.maxTrackPointsPerWorkout`).
    var maxLocations = ParseOptions().maxTrackPointsPerWorkout
    private var lastSourceBytes: [UInt8] = []
    private var lastSource = ""
    private var pendingTypeBytes: [UInt8] = []
    private var pendingTypeCount = 0

    /// Reads the document; `onStep` gets each step sample, `onWorkout` each finished workout.
    mutating func read(_ reader: XMLPullReader, onStep: (ParsedStepSample) throws -> Void,
                       onWorkout: (WorkoutDraft) throws -> Void) throws {
        var workout: WorkoutDraft?
        var first = true
        while true {
            switch try reader.next() {
            case .endOfDocument:
                flushTypeCount()
                return
            case .text:
                continue
            case .endElement:
                if reader.depth == 1, reader.localName == "Workout", let finished = workout {
                    workout = nil
                    try onWorkout(finished)
                }
            case .startElement:
                let name = reader.localName
                if first {
                    first = false
                    guard name == "HealthData" else {
                        throw reader.error(.unsupported, at: reader.tokenStart, "root element <\(name)> is not <HealthData>")
                    }
                    continue
                }
                if reader.depth == 2 {
                    switch name {
                    case "Record": try record(reader, onStep: onStep)
                    case "Workout": workout = Self.workoutDraft(reader)
                    case "ExportDate", "Me": break
                    default: skips.add("<\(name)> not imported")
                    }
                } else if workout != nil {
                    try workoutChild(name, reader, &workout!)
                }
            }
        }
    }

    private mutating func record(_ reader: XMLPullReader, onStep: (ParsedStepSample) throws -> Void) throws {
        guard reader.attribute(Self.typeKey, equals: Self.stepType) else {
            countOtherType(reader)
            return
        }
        guard let start = reader.withAttribute(Self.startKey, TextScalars.appleDate) ?? nil,
              let end = reader.withAttribute(Self.endKey, TextScalars.appleDate) ?? nil,
              let value = reader.attributeDouble(Self.valueKey), value >= 0, value < 10_000_000 else {
            skips.add("step record with unreadable dates or value")
            return
        }
        let count = Int(value.rounded())
        guard count > 0 else {
            skips.add("step record with a zero count")
            return
        }
        try onStep(ParsedStepSample(start: start, end: end, count: count, source: sourceName(reader)))
    }

    /// The record's sourceName, reusing the previous String while it repeats.
    private mutating func sourceName(_ reader: XMLPullReader) -> String {
        let same = reader.withAttribute(Self.sourceKey) { bytes in
            bytes.count == lastSourceBytes.count && bytes.elementsEqual(lastSourceBytes)
        } ?? false
        if !same {
            lastSourceBytes = reader.withAttribute(Self.sourceKey) { Array($0) } ?? []
            lastSource = String(decoding: lastSourceBytes, as: UTF8.self)
        }
        return lastSource
    }

    /// Counts non-step records per type without building a String per record.
    private mutating func countOtherType(_ reader: XMLPullReader) {
        let same = reader.withAttribute(Self.typeKey) { $0.elementsEqual(pendingTypeBytes) } ?? pendingTypeBytes.isEmpty
        if same {
            pendingTypeCount += 1
            return
        }
        flushTypeCount()
        pendingTypeBytes = reader.withAttribute(Self.typeKey) { Array($0) } ?? []
        pendingTypeCount = 1
    }

    private mutating func flushTypeCount() {
        guard pendingTypeCount > 0 else { return }
        let type = pendingTypeBytes.isEmpty ? "(no type)" : String(decoding: pendingTypeBytes, as: UTF8.self)
        skips.add("\(type) record not imported", count: pendingTypeCount)
        pendingTypeCount = 0
    }

    private static func workoutDraft(_ reader: XMLPullReader) -> WorkoutDraft {
        var draft = WorkoutDraft()
        draft.type = reader.attribute(XMLKey("workoutActivityType")) ?? ""
        draft.sourceName = reader.attribute(sourceKey) ?? ""
        draft.startText = reader.attribute(startKey) ?? ""
        draft.endText = reader.attribute(endKey) ?? ""
        draft.start = draft.startText.withUTF8Bytes(TextScalars.appleDate)
        draft.end = draft.endText.withUTF8Bytes(TextScalars.appleDate)
        draft.duration = UnitConversion.seconds(reader.attributeDouble(XMLKey("duration")), unit: reader.attribute(XMLKey("durationUnit")))
        draft.distance = UnitConversion.meters(reader.attributeDouble(XMLKey("totalDistance")), unit: reader.attribute(XMLKey("totalDistanceUnit")))
        draft.energy = UnitConversion.kilocalories(reader.attributeDouble(XMLKey("totalEnergyBurned")), unit: reader.attribute(XMLKey("totalEnergyBurnedUnit")))
        return draft
    }

    /// Handles `WorkoutStatistics`, `FileReference` and inline route `Location` elements.
    private mutating func workoutChild(_ name: String, _ reader: XMLPullReader, _ draft: inout WorkoutDraft) throws {
        switch name {
        case "WorkoutStatistics" where reader.depth == 3:
            let type = reader.attribute(Self.typeKey) ?? ""
            let unit = reader.attribute(XMLKey("unit"))
            let sum = reader.attributeDouble(XMLKey("sum"))
            if type.hasPrefix("HKQuantityTypeIdentifierDistance"), draft.distance == nil {
                draft.distance = UnitConversion.meters(sum, unit: unit)
            } else if type == "HKQuantityTypeIdentifierActiveEnergyBurned", draft.energy == nil {
                draft.energy = UnitConversion.kilocalories(sum, unit: unit)
            } else if type == "HKQuantityTypeIdentifierHeartRate" {
                draft.avgHeartRate = reader.attributeDouble(XMLKey("average")).flatMap(TextScalars.roundedInt)
                draft.maxHeartRate = reader.attributeDouble(XMLKey("maximum")).flatMap(TextScalars.roundedInt)
            }
        case "FileReference":
            draft.routePath = reader.attribute(Self.pathKey)
        case "Location":
            guard draft.locations.count < maxLocations else {
                throw reader.error(.limitExceeded, at: reader.tokenStart,
                                   "more than \(maxLocations) route locations in one workout (ParseOptions.maxTrackPointsPerWorkout)")
            }
            var point = TrackPoint()
            point.time = reader.withAttribute(Self.dateKey, TextScalars.appleDate) ?? nil
            point.latitude = reader.attributeDouble(Self.latKey).flatMap { abs($0) <= 90 ? $0 : nil }
            point.longitude = reader.attributeDouble(Self.lonKey).flatMap { abs($0) <= 180 ? $0 : nil }
            point.altitudeMeters = reader.attributeDouble(Self.altitudeKey)
            point.speedMetersPerSecond = reader.attributeDouble(Self.speedKey).flatMap { $0 >= 0 ? $0 : nil }
            draft.locations.append(point)
        default:
            break
        }
    }
}

/// Apple Health unit names → seconds, metres, kilocalories.
enum UnitConversion {
    /// Keeps finite results only.
    private static func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }

    static func seconds(_ value: Double?, unit: String?) -> Double? {
        finite(rawSeconds(value, unit: unit))
    }

    static func meters(_ value: Double?, unit: String?) -> Double? {
        finite(rawMeters(value, unit: unit))
    }

    static func kilocalories(_ value: Double?, unit: String?) -> Double? {
        finite(rawKilocalories(value, unit: unit))
    }

    private static func rawSeconds(_ value: Double?, unit: String?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        switch unit {
        case "s", "sec": return value
        case "min": return value * 60
        case "h", "hr": return value * 3600
        case "ms": return value / 1000
        default: return nil
        }
    }

    private static func rawMeters(_ value: Double?, unit: String?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        switch unit {
        case "m": return value
        case "km": return value * 1000
        case "mi": return value * 1609.344
        case "yd": return value * 0.9144
        case "ft": return value * 0.3048
        case "cm": return value / 100
        default: return nil
        }
    }

    private static func rawKilocalories(_ value: Double?, unit: String?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        switch unit {
        case "kcal", "Cal": return value
        case "kJ": return value / 4.184
        case "cal": return value / 1000
        case "J": return value / 4184
        default: return nil
        }
    }
}
