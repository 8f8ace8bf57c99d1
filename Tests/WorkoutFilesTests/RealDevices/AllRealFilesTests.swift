import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

extension RealDeviceFiles {
    /// Every real file either parses with non-trivial content or, if deliberately damaged,
    /// throws the expected error code at a byte offset.
    @Suite struct AllRealFilesTests {
        /// Damaged files and what is wrong with them (established by reading their bytes):
        static let expectedFailures: [String: (WorkoutFileError.Code, Int64)] = [
            // The last message claims 28 bytes but only 19 remain before the file CRC.
            "fit/python-fitparse__nick.fit": (.truncated, 403_437),
            // A data message with local type 11 that was never defined.
            "fit/python-fitparse__strava-android-app-201.10-b1218918.fit": (.undefinedLocalMessage, 7471),
            // Activity.fit chained with a second file whose signature reads ".GIT".
            "fit/python-fitparse__activity-settings-corruptheader.fit": (.badHeader, 779),
            // Activity.fit chained with a 12-byte header promising 68 bytes of which 3 exist.
            "fit/python-fitparse__activity-settings-nodata.fit": (.truncated, 786),
            // Activity.fit cut 3 bytes short.
            "fit/python-fitparse__activity-unexpected-eof.fit": (.truncated, 768),
            // Activity.fit with the high byte of its file CRC changed (0xA1D5 → 0xB1D5).
            "fit/python-fitparse__activity-filecrc.fit": (.badCRC, 769),
            // A valid Activity.fit chained with that corrupted copy: the second file's CRC fails.
            "fit/python-fitparse__activity-activity-filecrc.fit": (.badCRC, 1540),
        ]

        static var allFiles: [String] {
            var files: [String] = []
            for folder in ["fit", "gpx", "tcx", "apple_health", "strava"] {
                for name in RealDeviceCorpus.files(in: folder, extensions: ["fit", "gpx", "tcx", "xml", "csv"]) {
                    if folder == "fit", name.hasSuffix(".csv") { continue } // fitparse reference outputs
                    files.append("\(folder)/\(name)")
                }
            }
            return files
        }

        @Test func realDataIsPresent() {
            #expect(Self.allFiles.count == 64)
        }

        @Test(arguments: allFiles)
        func parsesOrFailsAsExpected(_ relative: String) throws {
            let url = try RealDeviceCorpus.url(relative)
            if relative.hasPrefix("apple_health/applehealthdata__"), relative.hasSuffix(".csv") {
                // CSV outputs of the applehealthdata tool: not a format this module reads.
                let error = workoutError { _ = try WorkoutFileReader.parse(url) }
                #expect(error?.code == .unsupported)
                return
            }
            if let (code, offset) = Self.expectedFailures[relative] {
                let error = workoutError { _ = try WorkoutFileReader.parse(url) }
                #expect(error?.code == code, "\(relative): \(String(describing: error))")
                #expect(error?.byteOffset == offset, "\(relative): \(String(describing: error))")
                #expect(error?.fileName == url.lastPathComponent)
                return
            }
            let file = try WorkoutFileReader.parse(url)
            let content = file.workouts.count + file.stepSamples.count
            if content == 0 {
                // Settings, workout plans, weight scale, developer-data demo, waypoint-only GPX.
                #expect(!file.skipped.isEmpty, "\(relative) produced nothing and said nothing")
            }
            for workout in file.workouts {
                // Zero-length workouts exist for real (manual Apple Health entries with start = end).
                #expect(workout.elapsedSeconds > 0 || !workout.track.isEmpty || workout.distanceMeters != nil, "\(relative): empty workout")
                #expect(workout.distanceMeters != nil || workout.activeKcal != nil || !workout.track.isEmpty || !workout.laps.isEmpty
                        || workout.movingSeconds != nil, "\(relative): workout without any measurement")
                #expect(ActivityTypeMapping.all.contains(workout.activityType))
                #expect(workout.endedAt >= workout.startedAt)
                #expect(workout.elapsedSeconds >= 0)
                #expect(!workout.sourceId.isEmpty)
            }
            #expect(Set(file.workouts.map(\.sourceId)).count == file.workouts.count)
        }

        @Test(arguments: allFiles.filter { expectedFailures[$0] == nil && !$0.hasSuffix(".csv") || $0.hasPrefix("strava/") })
        func reparsingGivesIdenticalValues(_ relative: String) throws {
            let first = try WorkoutFileReader.parse(try RealDeviceCorpus.url(relative))
            let second = try WorkoutFileReader.parse(try RealDeviceCorpus.url(relative))
            #expect(first == second)
            // Streaming and in-memory parsing agree too.
            let fromBytes = try WorkoutFileReader.parse(bytes: RealDeviceCorpus.bytes(relative), fileName: (relative as NSString).lastPathComponent)
            #expect(fromBytes == first)
        }

        @Test func formatDetection() throws {
            #expect(WorkoutFileFormat.detect(prefix: Array(try RealDeviceCorpus.bytes("fit/python-fitparse__Activity.fit").prefix(64)), fileName: "x.bin") == .fit)
            #expect(WorkoutFileFormat.detect(prefix: Array(try RealDeviceCorpus.bytes("apple_health/hkimport__Data_export.xml").prefix(4096)), fileName: "x") == .appleHealth)
            #expect(WorkoutFileFormat.detect(prefix: Array(try RealDeviceCorpus.bytes("tcx/tcxreader__mapmyride_biking.tcx").prefix(4096)), fileName: "x") == .tcx)
            #expect(WorkoutFileFormat.detect(prefix: Array(try RealDeviceCorpus.bytes("gpx/gpxpy-1.6.2__Mojstrovka.gpx").prefix(4096)), fileName: "x") == .gpx)
            #expect(WorkoutFileFormat.detect(prefix: Array(try RealDeviceCorpus.bytes("strava/JoBoSo__activities_2023.csv").prefix(4096)), fileName: "x") == .stravaCSV)
            #expect(WorkoutFileFormat.detect(prefix: [0x50, 0x4B, 3, 4], fileName: "export.zip") == .appleHealth)
            #expect(WorkoutFileFormat.detect(prefix: [], fileName: "ride.fit.gz") == .fit)
            #expect(WorkoutFileFormat.detect(prefix: Array("hello".utf8), fileName: "notes.txt") == nil)
            #expect(WorkoutFileFormat(rawValue: "apple-health") == .appleHealth && WorkoutFileFormat.allCases.count == 5)
        }
    }
}
