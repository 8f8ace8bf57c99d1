import DemoData
import Foundation
import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Conformance over real devices' files: the parsers held against the corpus `LOGBOOK_REALDATA`
/// names (files of Garmin, Wahoo, Coros, Apple Health, Strava and others, with their licences,
/// kept beside our checkouts, never in the repository). Off when the variable is unset; set, every
/// suite in here runs and fails if the corpus is missing or incomplete (`tools/test` leaves this
/// suite out by its name when the variable is unset). The generated-file suites pin the same
/// behaviours on inputs of known values; these check that real devices agree.
@Suite("Conformance over real device files", .enabled(if: RealDeviceCorpus.isConfigured))
struct RealDeviceFiles {
    /// Every corpus file a test of this target names.
    static let required = [
        "apple_health/applehealthdata__StepCount.csv", "apple_health/applehealthdata__export6s3sample.xml",
        "apple_health/healthkit-to-sqlite__route_2019-06-11_3.00pm.gpx", "apple_health/healthkit-to-sqlite__tests_export.xml",
        "apple_health/healthkit-to-sqlite__zip_export.xml", "apple_health/hkimport__Data_export.xml",
        "fit/python-fitparse__2019-02-17-062644-ELEMNT-297E-195-0.fit", "fit/python-fitparse__Activity.fit",
        "fit/python-fitparse__DeveloperData.fit", "fit/python-fitparse__MonitoringFile.fit",
        "fit/python-fitparse__activity-activity-filecrc.fit", "fit/python-fitparse__activity-filecrc.fit",
        "fit/python-fitparse__activity-large-fenxi2-multisport.fit", "fit/python-fitparse__activity-settings-corruptheader.fit",
        "fit/python-fitparse__activity-settings-nodata.fit", "fit/python-fitparse__activity-settings.fit",
        "fit/python-fitparse__activity-small-fenix2-run.fit", "fit/python-fitparse__activity-unexpected-eof.fit",
        "fit/python-fitparse__antfs-dump.63.fit", "fit/python-fitparse__compressed-speed-distance-records.csv",
        "fit/python-fitparse__compressed-speed-distance.fit", "fit/python-fitparse__coros-pace-2-cycling-misaligned-fields.fit",
        "fit/python-fitparse__developer-types-sample.fit", "fit/python-fitparse__elemnt-bolt-no-application-id-inside-developer-data-id.fit",
        "fit/python-fitparse__garmin-edge-500-activity.fit", "fit/python-fitparse__garmin-edge-500-activity-records.csv",
        "fit/python-fitparse__garmin-edge-820-bike.fit", "fit/python-fitparse__garmin-edge-820-bike-records.csv",
        "fit/python-fitparse__garmin-fenix-5-bike.fit", "fit/python-fitparse__garmin-fenix-5-bike-records.csv",
        "fit/python-fitparse__garmin-fenix-5-run.fit", "fit/python-fitparse__garmin-fenix-5-run-records.csv",
        "fit/python-fitparse__garmin-fenix-5-walk.fit", "fit/python-fitparse__garmin-fenix-5-walk-records.csv",
        "fit/python-fitparse__nick.fit", "fit/python-fitparse__sample_mulitple_header.fit",
        "fit/python-fitparse__strava-android-app-201.10-b1218918.fit", "gpx/gpxpy-1.6.2__Mojstrovka.gpx",
        "gpx/gpxpy-1.6.2__around-visnjan-with-car.gpx", "gpx/gpxpy-1.6.2__gpx_with_garmin_extension.gpx",
        "gpx/gpxpy-1.6.2__korita-zbevnica.gpx", "strava/JoBoSo__activities_2023.csv",
        "strava/JoBoSo__strava_exports_export_08_25_2025_activities.csv", "tcx/python-tcxparser__sup_activity_1.tcx",
        "tcx/python-tcxparser__test.tcx", "tcx/tcxreader__cross-country-skiing_activity_1.tcx", "tcx/tcxreader__mapmyride_biking.tcx",
    ]

    @Test("the corpus is there and complete: every file MANIFEST.tsv lists, at its size, and every file a test reads")
    func corpusIsComplete() {
        let problems = RealDeviceCorpus.problems(required: Self.required)
        #expect(problems.isEmpty, "\(RealDeviceCorpus.variable): \(problems.prefix(10).joined(separator: "; "))")
    }

    @Test(arguments: ["gpx/gpxpy-1.6.2__around-visnjan-with-car.gpx", "tcx/python-tcxparser__sup_activity_1.tcx",
                      "apple_health/applehealthdata__export6s3sample.xml"])
    func realFilesGiveTheSameEventsWhenTrickled(_ relative: String) throws {
        let text = String(decoding: try RealDeviceCorpus.bytes(relative), as: UTF8.self)
        #expect(try transcript(text) == transcript(text, trickle: true))
    }

    static let fuzzCorpus = [
        "fit/python-fitparse__Activity.fit", "fit/python-fitparse__garmin-fenix-5-run.fit", "fit/python-fitparse__MonitoringFile.fit",
        "fit/python-fitparse__elemnt-bolt-no-application-id-inside-developer-data-id.fit", "fit/python-fitparse__DeveloperData.fit",
        "fit/python-fitparse__activity-settings.fit", "gpx/gpxpy-1.6.2__around-visnjan-with-car.gpx",
        "gpx/gpxpy-1.6.2__gpx_with_garmin_extension.gpx", "tcx/python-tcxparser__sup_activity_1.tcx",
        "apple_health/healthkit-to-sqlite__tests_export.xml", "apple_health/applehealthdata__export6s3sample.xml",
        "strava/JoBoSo__activities_2023.csv",
    ]

    /// ``FuzzTests`` over real files: 200 seeded mutations each must parse or throw a `WorkoutFileError`.
    @Test(arguments: fuzzCorpus.enumerated().map { ($0.offset, $0.element) })
    func mutatedRealFiles(_ index: Int, _ relative: String) throws {
        var original = try RealDeviceCorpus.bytes(relative)
        if original.count > 96 << 10 { original = Array(original.prefix(96 << 10)) }
        let name = (relative as NSString).lastPathComponent
        var rng = SplitMix64(seed: 0x5EED_0000 + UInt64(index))
        for _ in 0..<200 {
            let mutated = FuzzTests.mutate(original, &rng)
            let started = Date()
            do { _ = try WorkoutFileReader.parse(bytes: mutated, fileName: name) } catch is WorkoutFileError {}
            #expect(Date().timeIntervalSince(started) < 2 + Double(mutated.count) / 20_000)
        }
    }
}

/// A plain comma-split CSV reader for fitparse's reference files (they contain no quotes).
func readSimpleCSV(_ relative: String) throws -> (header: [String], rows: [[String]]) {
    let text = try String(contentsOf: RealDeviceCorpus.url(relative), encoding: .utf8)
    var lines = text.split(whereSeparator: \.isNewline).map(String.init)
    let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
    let rows = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    return (header, rows)
}
