import DemoData
import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Seeded mutation fuzzing: every parse of a damaged input must return or throw a
/// `WorkoutFileError` — never crash, trap or hang. Each file gets 200 mutations from a fixed
/// SplitMix64 seed, so failures reproduce exactly.
@Suite struct FuzzTests {
    static let corpus = [
        "small-plain.fit", "run-compressed-timestamps.fit", "monitoring-plain.fit", "ride-developer-fields.fit",
        "run-everything.fit", "activity-settings.fit", "run.gpx", "waypoint.gpx", "run.tcx", "export.xml", "tracks-1.0.gpx",
        "activities.csv",
    ]

    /// One random mutation: bit flips, truncation, insertion, deletion or a duplicated chunk.
    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &rng)] }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            }
        case 1:
            bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &rng)...)
        case 2:
            let insert = (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            bytes.insert(contentsOf: insert, at: Int.random(in: 0...bytes.count, using: &rng))
        case 3:
            let start = Int.random(in: 0..<bytes.count, using: &rng)
            bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...16, using: &rng)))
        default:
            let start = Int.random(in: 0..<bytes.count, using: &rng)
            let chunk = Array(bytes[start..<min(bytes.count, start + Int.random(in: 1...64, using: &rng))])
            bytes.insert(contentsOf: chunk, at: Int.random(in: 0...bytes.count, using: &rng))
        }
        return bytes
    }

    @Test(arguments: corpus.enumerated().map { ($0.offset, $0.element) })
    func mutatedFiles(_ index: Int, _ relative: String) throws {
        var original = try SampleCatalogue.file(named: relative).bytes
        if original.count > 96 << 10 { original = Array(original.prefix(96 << 10)) } // keep debug runs short
        let name = (relative as NSString).lastPathComponent
        var rng = SplitMix64(seed: 0x5EED_0000 + UInt64(index))
        var failures = 0
        for _ in 0..<200 {
            let mutated = Self.mutate(original, &rng)
            let started = Self.threadCPUSeconds()
            do {
                _ = try WorkoutFileReader.parse(bytes: mutated, fileName: name)
            } catch is WorkoutFileError {
                failures += 1
            }
            // A size-proportional budget of this thread's own CPU time (so a loaded machine does
            // not count against it): far above a normal parse, far below a hang.
            #expect(Self.threadCPUSeconds() - started < 4 + Double(mutated.count) / 10_000)
        }
        #expect(failures <= 200)
    }

    /// The CPU time this thread has used, in seconds (a parse runs on the caller's thread).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test func mutatedCompressedStreams() throws {
        var rng = SplitMix64(seed: 0x5EED_1000)
        for base in [CompressionFixtures.routeGzip, CompressionFixtures.exportDeflated] {
            for _ in 0..<200 {
                let mutated = Self.mutate(base, &rng)
                do {
                    if base == CompressionFixtures.routeGzip {
                        _ = try WorkoutFileReader.parse(bytes: mutated, fileName: "ride.gpx.gz")
                    } else {
                        _ = try CompressionTests.inflate(mutated)
                    }
                } catch is WorkoutFileError {}
            }
        }
    }

    @Test func mutatedZipArchives() throws {
        var rng = SplitMix64(seed: 0x5EED_2000)
        let good = try Data(contentsOf: CompressionTests.writeExportZip())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wf-fuzz-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: url) }
        for _ in 0..<200 {
            try Data(Self.mutate([UInt8](good), &rng)).write(to: url)
            do { _ = try WorkoutFileReader.parse(url, format: .appleHealth) } catch is WorkoutFileError {}
        }
    }
}

/// Absurd numbers must not trap (Double → Int conversions, date arithmetic).
@Suite struct ExtremeValueTests {
    @Test func absurdNumbersAreRejectedOrClamped() throws {
        let tcx = """
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>
        <Activity Sport="Running"><Id>2020-01-01T00:00:00Z</Id>
        <Lap StartTime="2020-01-01T00:00:00Z"><TotalTimeSeconds>1e300</TotalTimeSeconds><DistanceMeters>1e308</DistanceMeters>
        <Calories>9e300</Calories><AverageHeartRateBpm><Value>1e40</Value></AverageHeartRateBpm></Lap>
        <Lap StartTime="9999-12-31T23:59:59Z"><TotalTimeSeconds>99999999999</TotalTimeSeconds><Calories>-5</Calories></Lap>
        </Activity></Activities></TrainingCenterDatabase>
        """
        let tcxFile = try TCXParser().parse(bytes: Array(tcx.utf8), fileName: "x.tcx")
        #expect(tcxFile.workouts.first?.activeKcal == nil)
        let health = """
        <HealthData><Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="1e308" durationUnit="h"
          totalEnergyBurned="1e308" totalEnergyBurnedUnit="kcal" sourceName="s" startDate="2020-01-01 00:00:00 +0000"
          endDate="2020-01-01 01:00:00 +0000"><WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="1e300" maximum="nan"/></Workout>
        <Record type="HKQuantityTypeIdentifierStepCount" sourceName="s" startDate="2020-01-01 00:00:00 +0000" endDate="2020-01-01 00:01:00 +0000" value="1e300"/></HealthData>
        """
        let healthFile = try AppleHealthParser().parse(bytes: Array(health.utf8), fileName: "export.xml")
        #expect(healthFile.workouts.first?.movingSeconds == nil && healthFile.workouts.first?.avgHeartRate == nil)
        #expect(healthFile.stepSamples.isEmpty)
        var csv = (0..<40).map { "h\($0)" }.joined(separator: ",") + "\n"
        var row = [String](repeating: "1e300", count: 40)
        row[0] = "42"; row[1] = "\"Jan 1, 2020, 1:00:00 AM\""
        csv += row.joined(separator: ",") + "\n"
        let strava = try StravaCSVParser().parse(bytes: Array(csv.utf8), fileName: "activities.csv")
        #expect(strava.workouts.first?.elapsedSeconds == 1e9)
    }
}
