public import Foundation

/// A temporary directory of generated files for one test, removed when the test's body ends,
/// however it ends.
public struct FixtureDirectory: Sendable {
    public let url: URL

    /// Runs `body` with a new, empty directory and removes it afterwards.
    public static func with<R>(_ body: (FixtureDirectory) async throws -> R) async throws -> R {
        let directory = try FixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        return try await body(directory)
    }

    /// Runs `body` with a new, empty directory and removes it afterwards.
    public static func with<R>(_ body: (FixtureDirectory) throws -> R) throws -> R {
        let directory = try FixtureDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        return try body(directory)
    }

    private init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `relative` (creating folders) and returns its URL.
    @discardableResult
    public func write(_ bytes: [UInt8], to relative: String) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file
    }

    /// The URL of `relative` inside the directory.
    public func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }
}

extension FixtureDirectory {
    /// Writes a Strava export into `folder`: `activities.csv` of ``SampleExports/strava(rows:)`` and
    /// the originals it names — row 1's `.fit.gz` (``SampleFIT/small``, whose times state +01:00),
    /// row 2's `.fit.gz` with a wrong gzip CRC, row 3's `.gpx.gz` (``SampleText/gpxRun``); row 0's
    /// GPX is not there. Returns the CSV's URL.
    @discardableResult
    public func writeStravaExport(rows: Int = 150, folder: String = "strava") throws -> URL {
        let activities = SampleExports.strava(rows: rows)
        let csv = try write(StravaCSV.bytes(activities), to: "\(folder)/activities.csv")
        let fit = SampleFIT.small.encoded().bytes
        try write(GzipWriter.member(fit, name: "\(activities[1].id).fit"), to: "\(folder)/\(activities[1].filename!)")
        try write(GzipWriter.member(fit, name: "\(activities[2].id).fit", crcDamage: 0x8000), to: "\(folder)/\(activities[2].filename!)")
        try write(GzipWriter.member(SampleText.gpxRun.bytes, name: "\(activities[3].id).gpx"), to: "\(folder)/\(activities[3].filename!)")
        return csv
    }
}
