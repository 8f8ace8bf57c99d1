import EventLog
import Foundation
import Logbook
import Testing
import WorkoutFileFixtures
import WorkoutFiles
@testable import WorkoutImport

/// Folders and Strava exports: which files a folder holds, and a CSV's rows with their originals.
extension FileImporterTests {
    @Test("a folder: its workout files in path order, the originals a Strava CSV names left to their rows; the user must be registered")
    func folderAndUnknownUser() async throws {
        try await Self.withFiles { logbook, directory in
            for name in ["b.tcx", "a.TCX", "sub/c.tcx", "d.tcx.gz", "e.tcx"] {
                try directory.write(name.hasSuffix(".gz") ? try GzipWriter.member(SampleText.tcxRun.bytes, name: "d.tcx") : SampleText.tcxRun.bytes,
                                    to: "tcx/" + name)
            }
            try directory.write(Array("notes".utf8), to: "tcx/notes.txt")
            let files = try FileImporter.files(at: directory.path("tcx"))
            #expect(files.count == 5 && files == files.sorted { $0.path < $1.path })
            let csv = try directory.writeStravaExport()
            #expect(try FileImporter.files(at: csv.deletingLastPathComponent()) == [csv.standardizedFileURL], "originals go with their rows")
            await #expect(throws: LogbookError.self) {
                _ = try await FileImporter(logbook: logbook).importFile(directory.path("tcx/e.tcx"), user: "nobody")
            }
        }
    }

    @Test("a Strava export: one workout a row, with the track of the original file beside the CSV where it can be read")
    func stravaWithOriginals() async throws {
        try await Self.withFiles { logbook, directory in
            let csv = try directory.writeStravaExport()
            let rows = SampleExports.strava()
            let report = try await FileImporter(logbook: logbook).importFile(csv, user: "ana")
            #expect(report.format == "strava-csv" && report.workouts.count == rows.count)
            #expect(report.workouts.map(\.sourceId) == rows.map(\.id) && report.workouts.allSatisfy { $0.sourceKind == "strava" })
            #expect(report.written?.workouts == rows.count)
            // Row 0's GPX is not there; row 1's .fit.gz gives its track and, stating +01:00, its times; row 2's
            // gzip is damaged (imported without a track, and said); row 3's .gpx.gz gives its track, its Z times not.
            let fit = SampleFIT.small
            #expect(report.workouts.map(\.trackPoints).prefix(4) == [0, fit.records.count, 0, SampleText.gpxRun.tracks[0].segments[0].count])
            #expect(report.workouts[1].startedAt == Timestamp(microsecondsSinceEpoch: fit.sessions[0].start * 1_000_000, utcOffsetSeconds: 3600))
            #expect(report.workouts[3].startedAt.instant == rows[3].start * 1_000_000)
            #expect(report.skipped.contains(FileImportReport.Skipped(reason: "original file that cannot be read (the row is imported without its track)",
                                                                     count: 1)))
            let head = try await logbook.log.headPosition()
            let again = try await FileImporter(logbook: logbook).importFile(csv, user: "ana")
            #expect(again.written?.workoutsAlreadyThere == rows.count)
            #expect(try await logbook.log.headPosition() == head, "a re-import appends nothing")
            // An upload does not read originals.
            var upload = FileImporter(logbook: logbook)
            upload.options.readOriginals = false
            upload.options.dryRun = true
            #expect(try await upload.importFile(csv, user: "ana").workouts.allSatisfy { $0.trackPoints == 0 })
        }
    }
}
