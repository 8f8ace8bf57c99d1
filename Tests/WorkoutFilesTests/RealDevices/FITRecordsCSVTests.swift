import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

extension RealDeviceFiles {
    /// Record-by-record comparison with python-fitparse's `*-records.csv` reference files.
    ///
    /// Tolerances: the CSVs print values fitparse already scaled, so we allow the field's own
    /// resolution plus float-print noise — speed 0.001 m/s (scale 1000), distance 0.01 m
    /// (scale 100; 1/16 m for compressed distance), altitude 0.2 m (scale 5), one semicircle for
    /// positions (the CSV keeps raw semicircles), exact integers for heart rate and cadence, and
    /// exact seconds for timestamps. The reference CSVs carry a value forward from the previous
    /// row when a record lacks it (python-fitparse itself reports None there: 121 cadences and 12
    /// positions in the Edge 500 file), so a nil of ours matches a CSV value equal to the previous
    /// row's. The compressed-speed CSV leaves out the file's first record, which holds only a
    /// timestamp, so records without any measurement are not compared.
    @Suite struct FITRecordsCSVTests {
        /// "Sun Sep 25 06:00:22 PDT 2011" → Unix seconds (only the US Pacific zones occur).
        static func unixSeconds(fromDateText text: String) -> Int64? {
            let parts = text.split(separator: " ")
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            guard parts.count == 6, let month = months.firstIndex(of: String(parts[1])),
                  let day = Int(parts[2]), let year = Int(parts[5]) else { return nil }
            let clock = parts[3].split(separator: ":").compactMap { Int($0) }
            let offsets = ["PDT": -7 * 3600, "PST": -8 * 3600, "UTC": 0, "GMT": 0]
            guard clock.count == 3, let offset = offsets[String(parts[4])],
                  let local = CivilTime.unixSeconds(year: year, month: month + 1, day: day,
                                                    hour: clock[0], minute: clock[1], second: clock[2]) else { return nil }
            return local - Int64(offset)
        }

        static func number(_ text: String) -> Double? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed == "null" || trimmed == "None" ? nil : Double(trimmed)
        }

        func allRecords(_ fitName: String) throws -> [TrackPoint] {
            let file = try FITParser().parse(try RealDeviceCorpus.url("fit/" + fitName))
            return file.workouts.flatMap(\.track)
        }

        @Test(arguments: [
            "python-fitparse__garmin-edge-500-activity",
            "python-fitparse__garmin-edge-820-bike",
            "python-fitparse__garmin-fenix-5-bike",
            "python-fitparse__garmin-fenix-5-run",
            "python-fitparse__garmin-fenix-5-walk",
        ])
        func namedColumnCSV(_ stem: String) throws {
            let csv = try readSimpleCSV("fit/\(stem)-records.csv")
            #expect(csv.header == ["timestamp", "heart_rate", "cadence", "speed", "distance",
                                   "position_lat", "position_long", "altitude", "temperature"])
            let points = try allRecords(stem + ".fit")
            try #require(points.count == csv.rows.count, "record count \(points.count) vs CSV \(csv.rows.count)")
            var mismatches = 0
            var previous = csv.rows[0]
            for (row, point) in zip(csv.rows, points) {
                defer { previous = row }
                func close(_ actual: Double?, _ column: Int, _ tolerance: Double) -> Bool {
                    if actual == nil, let carried = Self.number(row[column]), Self.number(previous[column]) == carried { return true }
                    return self.close(actual, Self.number(row[column]), tolerance)
                }
                let expectedTime = Self.unixSeconds(fromDateText: row[0])
                let time = point.time.map { $0.microsecondsSinceEpoch / 1_000_000 }
                var ok = expectedTime != nil && time == expectedTime
                ok = ok && close(point.heartRate.map(Double.init), 1, 0)
                ok = ok && close(point.cadence.map(Double.init), 2, 0)
                ok = ok && close(point.speedMetersPerSecond, 3, 0.0011)
                ok = ok && close(point.distanceMeters, 4, 0.011)
                let lat = point.latitude.map { ($0 / FITProfile.degreesPerSemicircle).rounded() }
                let lon = point.longitude.map { ($0 / FITProfile.degreesPerSemicircle).rounded() }
                ok = ok && close(lat, 5, 1) && close(lon, 6, 1)
                ok = ok && close(point.altitudeMeters, 7, 0.21)
                if !ok {
                    mismatches += 1
                    if mismatches <= 3 { Issue.record("row \(row) vs \(point)") }
                }
            }
            #expect(mismatches == 0)
        }

        @Test func compressedSpeedDistanceCSV() throws {
            let csv = try readSimpleCSV("fit/python-fitparse__compressed-speed-distance-records.csv")
            #expect(csv.header.first == "Timestamp")
            let points = try allRecords("python-fitparse__compressed-speed-distance.fit").filter { point in
                point.heartRate != nil || point.speedMetersPerSecond != nil || point.distanceMeters != nil || point.cadence != nil
            }
            try #require(points.count == csv.rows.count)
            var mismatches = 0
            for (row, point) in zip(csv.rows, points) {
                // The CSV's timestamps are raw FIT seconds (device-relative in this file).
                let raw = point.time.map { $0.microsecondsSinceEpoch / 1_000_000 - FITProfile.epochOffset }
                var ok = raw.map(Double.init) == Self.number(row[0])
                ok = ok && point.heartRate.map(Double.init) == Self.number(row[1])
                ok = ok && close(point.speedMetersPerSecond, Self.number(row[2]), 0.0051)
                ok = ok && close(point.distanceMeters, Self.number(row[3]), 1.0 / 16 + 0.001)
                ok = ok && point.cadence.map(Double.init) == Self.number(row[4])
                if !ok {
                    mismatches += 1
                    if mismatches <= 3 { Issue.record("row \(row) vs \(point)") }
                }
            }
            #expect(mismatches == 0)
        }

        private func close(_ actual: Double?, _ expected: Double?, _ tolerance: Double) -> Bool {
            switch (actual, expected) {
            case (nil, nil): return true
            case let (a?, e?): return abs(a - e) <= tolerance
            default: return false
            }
        }
    }
}
