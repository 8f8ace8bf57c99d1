public import FuzzSupport
import Foundation
import WorkoutFiles

/// The fuzz targets of the workout-file readers (the HostileInput article): every parse of any bytes answers a
/// ``ParsedFile`` or a `WorkoutFileError`, never traps, and what it answers is sane — the
/// documented vocabularies, finite numbers, and the same result whatever the streaming batch size.
public enum WorkoutFilesFuzz {
    /// Every target of this module, by name.
    public static let targets: [FuzzTarget] = [fit, xml, archive, stravaCSV]

    /// FIT (chained files, activity and monitoring): the parser on the bytes as given.
    public static let fit = FuzzTarget("FuzzFIT") { bytes throws(FuzzFailure) in
        try checkParse("FIT", bytes) { options in try FITParser(options: options).parse(bytes: bytes, fileName: "fuzz.fit") }
        // The same bytes as one FIT file with its sizes and CRCs made right, so mutations reach
        // the builders that run after a file's CRC is checked.
        if let sealed = sealedFIT(bytes) {
            try checkParse("sealed FIT", sealed) { options in try FITParser(options: options).parse(bytes: sealed, fileName: "fuzz.fit") }
        }
    }

    /// `bytes` as one FIT file: the header's data size covering everything up to a fresh file CRC
    /// in the last two bytes, and a 14-byte header's CRC set to 0 ("not computed").
    static func sealedFIT(_ bytes: [UInt8]) -> [UInt8]? {
        guard let headerSize = bytes.first.map(Int.init), headerSize >= 12, bytes.count >= headerSize + 2 else { return nil }
        var sealed = bytes
        let dataSize = UInt32(bytes.count - headerSize - 2)
        for index in 0..<4 { sealed[4 + index] = UInt8(truncatingIfNeeded: dataSize >> UInt32(8 * index)) }
        if headerSize >= 14 { sealed[12] = 0; sealed[13] = 0 }
        let crc = fitCRC(sealed[0..<(sealed.count - 2)])
        sealed[sealed.count - 2] = UInt8(truncatingIfNeeded: crc)
        sealed[sealed.count - 1] = UInt8(truncatingIfNeeded: crc >> 8)
        return sealed == bytes ? nil : sealed
    }

    /// The FIT protocol's CRC-16 (reflected polynomial 0xA001, initial value 0).
    static func fitCRC(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    /// The XML pull reader under each of its three readers: GPX, TCX and Apple Health's export.xml
    /// all read the same bytes, so one input exercises the reader's whole grammar three ways.
    public static let xml = FuzzTarget("FuzzXML") { bytes throws(FuzzFailure) in
        try checkParse("GPX", bytes) { options in try GPXParser(options: options).parse(bytes: bytes, fileName: "fuzz.gpx") }
        try checkParse("TCX", bytes) { options in try TCXParser(options: options).parse(bytes: bytes, fileName: "fuzz.tcx") }
        try checkParse("Apple Health", bytes) { options in
            try AppleHealthParser(options: options).parse(bytes: bytes, fileName: "export.xml")
        }
    }

    /// zip and gzip: the bytes as an Apple Health `export.zip` (read from a file, as uploads are)
    /// and as a gzip-compressed file of any format (detected from the inflated bytes).
    public static let archive = FuzzTarget("FuzzArchive") { bytes throws(FuzzFailure) in
        let url = URL(fileURLWithPath: scratchDirectory).appendingPathComponent("logbook-fuzz-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw FuzzFailure("cannot write the scratch file \(url.path): \(error)")
        }
        try checkParse("zip", bytes) { options in try WorkoutFileReader.parse(url, format: .appleHealth, options: options) }
        try checkParse("gzip", bytes) { options in
            try WorkoutFileReader.parse(bytes: bytes, fileName: "fuzz.gz", options: options)
        }
    }

    /// Strava's `activities.csv`.
    public static let stravaCSV = FuzzTarget("FuzzStravaCSV") { bytes throws(FuzzFailure) in
        try checkParse("Strava CSV", bytes) { options in
            try StravaCSVParser(options: options).parse(bytes: bytes, fileName: "activities.csv")
        }
    }

    /// Where the zip reader's input is written (it reads archives from files): `LOGBOOK_FUZZ_SCRATCH`
    /// (tools/fuzz points it at its scratch directory), else the temporary directory.
    private static let scratchDirectory: String =
        ProcessInfo.processInfo.environment["LOGBOOK_FUZZ_SCRATCH"] ?? NSTemporaryDirectory()

    /// Parses with the default options and again in batches of 3 step samples: both parses must
    /// agree (one typed error, or equal results), and a result must hold only sane values.
    static func checkParse(
        _ what: String, _ bytes: [UInt8], _ parse: (ParseOptions) throws -> ParsedFile
    ) throws(FuzzFailure) {
        let whole = outcome(what) { try parse(ParseOptions()) }
        let batched = outcome(what) { try parse(ParseOptions(stepBatchSize: 3)) }
        switch (whole, batched) {
        case (.failure(let failure), _), (_, .failure(let failure)):
            throw failure
        case (.success(.some(let file)), .success(.some(let again))):
            try sane(file, what)
            try FuzzCheck.expect(file == again, "\(what): the result changes with the step batch size")
        case (.success(.none), .success(.none)):
            break
        default:
            throw FuzzFailure("\(what): one parse threw and the other did not, with another batch size")
        }
    }

    /// The parse's file, nil for a `WorkoutFileError`, or a failure for any other error.
    private static func outcome(_ what: String, _ parse: () throws -> ParsedFile) -> Result<ParsedFile?, FuzzFailure> {
        do {
            return .success(try parse())
        } catch is WorkoutFileError {
            return .success(nil)
        } catch {
            return .failure(FuzzFailure("\(what): an error that is not a WorkoutFileError: \(type(of: error)) \(error)"))
        }
    }

    /// What the module's documentation promises of every value it answers.
    static func sane(_ file: ParsedFile, _ what: String) throws(FuzzFailure) {
        let kinds: Set<String> = [SourceKind.garmin, SourceKind.wahoo, SourceKind.healthkit, SourceKind.strava, SourceKind.file]
        for workout in file.workouts {
            let name = "\(what) workout \(workout.sourceId)"
            try FuzzCheck.expect(ActivityTypeMapping.all.contains(workout.activityType), "\(name): activity type \(workout.activityType)")
            try FuzzCheck.expect(kinds.contains(workout.sourceKind), "\(name): source kind \(workout.sourceKind)")
            try FuzzCheck.expect(!workout.sourceId.isEmpty, "\(what): a workout without a source id")
            try finite(workout.elapsedSeconds, "\(name) elapsedSeconds")
            try finite(workout.movingSeconds, "\(name) movingSeconds")
            try finite(workout.distanceMeters, "\(name) distanceMeters")
            for lap in workout.laps {
                try finite(lap.elapsedSeconds, "\(name) lap elapsedSeconds")
                try finite(lap.movingSeconds, "\(name) lap movingSeconds")
                try finite(lap.distanceMeters, "\(name) lap distanceMeters")
            }
            for point in workout.track {
                for (value, field) in [(point.latitude, "latitude"), (point.longitude, "longitude"), (point.altitudeMeters, "altitude"),
                                       (point.distanceMeters, "distance"), (point.speedMetersPerSecond, "speed")] {
                    try finite(value, "\(name) track \(field)")
                }
            }
        }
    }

    private static func finite(_ value: Double?, _ what: String) throws(FuzzFailure) {
        guard let value else { return }
        try FuzzCheck.expect(value.isFinite, "\(what) is \(value)")
    }
}
