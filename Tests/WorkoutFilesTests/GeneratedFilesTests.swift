import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Every generated file (each sample in each encoding, the other FIT types, the damaged variants,
/// zip and gzip forms) either reads with the content it was written with or fails with the error
/// code at the byte its damage sits — from a file and from memory alike.
@Suite struct GeneratedFilesTests {
    static let names: [String] = ((try? SampleCatalogue.shared.get()) ?? []).map(\.name)

    @Test func everySampleIsMadeAndNamedOnce() throws {
        let files = try SampleCatalogue.shared.get()
        #expect(Set(files.map(\.name)).count == files.count)
        #expect(files.allSatisfy { !$0.bytes.isEmpty || $0.name.hasSuffix("-empty.fit") })
    }

    @Test(arguments: names)
    func parsesOrFailsAsExpected(_ name: String) throws {
        let sample = try SampleCatalogue.file(named: name)
        try FixtureDirectory.with { directory in
            let url = try directory.write(sample.bytes, to: name)
            switch sample.expectation {
            case .content(let workouts, let stepSamples):
                let file = try WorkoutFileReader.parse(url)
                #expect(file.workouts.count == workouts && file.stepSamples.count == stepSamples, "\(sample.about)")
                for workout in file.workouts {
                    #expect((workout.elapsedSeconds > 0 || !workout.track.isEmpty) && workout.endedAt >= workout.startedAt, "\(name)")
                    #expect(ActivityTypeMapping.all.contains(workout.activityType) && !workout.sourceId.isEmpty)
                    #expect(workout.distanceMeters != nil || workout.activeKcal != nil || !workout.track.isEmpty
                            || workout.movingSeconds != nil, "\(name): a workout without any measurement")
                }
                #expect(Set(file.workouts.map(\.sourceId)).count == file.workouts.count)
                #expect(file.stepSamples.allSatisfy { $0.count > 0 && $0.start <= $0.end })
                // Read again, and read from memory: the same values.
                #expect(try WorkoutFileReader.parse(url) == file)
                if !sample.needsFile { #expect(try WorkoutFileReader.parse(bytes: sample.bytes, fileName: name) == file) }
            case .skipped(let reason):
                let file = try WorkoutFileReader.parse(url)
                #expect(file.workouts.isEmpty && file.stepSamples.isEmpty)
                #expect(file.skipped.contains { $0.reason == reason }, "\(name): \(file.skipped)")
            case .failure(let code, let offset, let line):
                var errors = [workoutError { _ = try WorkoutFileReader.parse(url) }]
                if !sample.needsFile { errors.append(workoutError { _ = try WorkoutFileReader.parse(bytes: sample.bytes, fileName: name) }) }
                for error in errors {
                    #expect(error?.code.rawValue == code, "\(name) (\(sample.about)): \(String(describing: error))")
                    if let offset { #expect(error?.byteOffset == offset, "\(name) (\(sample.about)): \(String(describing: error))") }
                    if let line { #expect(error?.line == line, "\(name): \(String(describing: error))") }
                    #expect(error?.fileName.hasPrefix(name) == true)
                }
            }
        }
    }

    @Test func formatDetection() throws {
        func prefix(_ name: String, _ count: Int = 4096) throws -> [UInt8] { Array(try SampleCatalogue.file(named: name).bytes.prefix(count)) }
        #expect(WorkoutFileFormat.detect(prefix: try prefix("run-plain.fit", 64), fileName: "x.bin") == .fit)
        #expect(WorkoutFileFormat.detect(prefix: try prefix("run-12-byte-header.fit", 64), fileName: "x.bin") == .fit)
        #expect(WorkoutFileFormat.detect(prefix: try prefix("export.xml"), fileName: "x") == .appleHealth)
        #expect(WorkoutFileFormat.detect(prefix: try prefix("run.tcx"), fileName: "x") == .tcx)
        #expect(WorkoutFileFormat.detect(prefix: try prefix("run.gpx"), fileName: "x") == .gpx)
        #expect(WorkoutFileFormat.detect(prefix: try prefix("tracks-1.0.gpx"), fileName: "x") == .gpx)
        #expect(WorkoutFileFormat.detect(prefix: try prefix("activities.csv"), fileName: "x") == .stravaCSV)
        #expect(WorkoutFileFormat.detect(prefix: try prefix("export.zip", 4), fileName: "x") == .appleHealth)
        #expect(WorkoutFileFormat.detect(prefix: [0x50, 0x4B, 3, 4], fileName: "export.zip") == .appleHealth)
        #expect(WorkoutFileFormat.detect(prefix: [], fileName: "ride.fit.gz") == .fit)
        #expect(WorkoutFileFormat.detect(prefix: Array("hello".utf8), fileName: "notes.txt") == nil)
        #expect(WorkoutFileFormat(rawValue: "apple-health") == .appleHealth && WorkoutFileFormat.allCases.count == 5)
    }
}
