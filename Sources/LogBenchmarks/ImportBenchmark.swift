import EventLog
public import Foundation
import Logbook
import WorkoutFiles
import WorkoutImport

/// `logbook-bench import`: how fast workout files are read and imported.
///
/// 1. Parsing, per format, over the real files (each parsed repeatedly for at least half a
///    second): MB/s and records/s (records = track points + step samples + workouts).
/// 2. A generated Apple Health `export.xml` (`tools/generate-health-export`) imported into a
///    fresh store: MB/s, records/s and peak memory — with its baselines measured in the same run:
///    reading the file's bytes, and Python's `xml.etree.ElementTree.iterparse` over the same file.
/// 3. 1,000 FIT files imported into a store (the real activity files, cycled over users): files/s.
/// Phase 2 runs first, so that its peak memory is its own.
public struct ImportBenchmark: Sendable {
    /// The directory of real device files (the corpus `LOGBOOK_REALDATA` names; never in the repository).
    public var realData: URL
    /// A generated Apple Health export to import (nil: skip that phase).
    public var healthExport: URL?
    /// FIT files to import in phase 3 (0: skip).
    public var fitFiles = 1000
    /// Where the stores go.
    public var directory: URL
    /// Run just before and after the large export is imported (the CLI sets its allocator there).
    public var beforeLargeImport: @Sendable () -> Void = {}
    public var afterLargeImport: @Sendable () -> Void = {}

    public init(realData: URL, healthExport: URL?, directory: URL) {
        self.realData = realData
        self.healthExport = healthExport
        self.directory = directory
    }

    public func run(progress: @Sendable (String) -> Void) async throws -> BenchmarkReport {
        var report = BenchmarkReport()
        // The large import first, so that its peak memory is its own, not the heap the other phases left.
        if let healthExport {
            beforeLargeImport()
            try await importExport(healthExport, &report, progress)
            afterLargeImport()
        }
        try parsing(&report, progress)
        if fitFiles > 0 { try await importFITFiles(&report, progress) }
        return report
    }

    /// Phase 1: parse throughput per format.
    private func parsing(_ report: inout BenchmarkReport, _ progress: (String) -> Void) throws {
        let folders: [(String, String, Set<String>)] = [
            ("fit", "fit", ["fit"]), ("gpx", "gpx", ["gpx"]), ("tcx", "tcx", ["tcx"]), ("apple_health", "apple_health", ["xml"]),
            ("strava", "strava_csv", ["csv"]),
        ]
        for (folder, key, extensions) in folders {
            progress("parsing \(folder) files")
            var bytes = 0.0, records = 0.0, seconds = 0.0, files = 0
            for url in Self.files(in: realData.appendingPathComponent(folder), extensions: extensions) {
                guard let first = try? WorkoutFileReader.parse(url) else { continue }
                let size = Double((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0)
                let perParse = Double(Self.records(first))
                let clock = Stopwatch()
                var runs = 0
                repeat {
                    _ = try WorkoutFileReader.parse(url)
                    runs += 1
                } while clock.seconds < 0.5
                seconds += clock.seconds
                bytes += size * Double(runs)
                records += perParse * Double(runs)
                files += 1
            }
            report.set("\(key)_files", files)
            report.set("\(key)_mb_per_s", seconds > 0 ? bytes / seconds / 1e6 : 0)
            report.set("\(key)_records_per_s", seconds > 0 ? records / seconds : 0)
        }
    }

    /// Phase 2: a large Apple Health export into a fresh store, with its baselines.
    private func importExport(_ export: URL, _ report: inout BenchmarkReport, _ progress: @Sendable (String) -> Void) async throws {
        let size = Double((try FileManager.default.attributesOfItem(atPath: export.path)[.size] as? Int) ?? 0)
        progress("baseline: reading \(Int(size / 1e6)) MB")
        let read = Stopwatch()
        let handle = try FileHandle(forReadingFrom: export)
        var bytesRead = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { bytesRead += chunk.count }
        try handle.close()
        report.set("baseline_read_mb_per_s", Double(bytesRead) / read.seconds / 1e6)
        if let python = Self.pythonIterparseSeconds(export) {
            report.set("baseline_python_iterparse_mb_per_s", size / python / 1e6)
        }
        progress("importing the export (\(Int(size / 1e6)) MB)")
        let store = directory.appendingPathComponent("health-\(UUID().uuidString.prefix(8))")
        var configuration = LogbookConfiguration()
        configuration.log.durability = .relaxed
        let logbook = try await Logbook.open(path: store.path, configuration: configuration)
        try await logbook.execute(.registerUser(user: "bench", UserRegistered(displayName: "Bench", timeZone: "Europe/Berlin")))
        ProcessStats.resetPeakResident()
        let memory = SharedMemoryPeak()
        let sampling = Task.detached {
            while !Task.isCancelled {
                memory.sample()
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        let clock = Stopwatch()
        let imported = try await FileImporter(logbook: logbook).importFile(export, user: "bench")
        let seconds = clock.seconds
        sampling.cancel()
        memory.sample()
        let records = Double(imported.stepSamples + imported.workouts.count)
        report.set("apple_health_export_bytes", Int(size))
        report.set("apple_health_export_seconds", seconds)
        report.set("apple_health_export_mb_per_s", size / seconds / 1e6)
        report.set("apple_health_export_records_per_s", records / seconds)
        report.set("apple_health_export_step_samples", imported.stepSamples)
        report.set("apple_health_export_workouts", imported.workouts.count)
        report.set("apple_health_export_peak_rss_bytes", ProcessStats.peakResidentBytes)
        report.set("apple_health_export_peak_anon_bytes", memory.peak)
        if let python = report.number("baseline_python_iterparse_mb_per_s"), python > 0 {
            report.set("apple_health_export_vs_python_iterparse", size / seconds / 1e6 / python)
        }
        await logbook.close()
        try? FileManager.default.removeItem(at: store)
    }

    /// Phase 3: many FIT files, each its own import (the real activity files, cycled over users).
    private func importFITFiles(_ report: inout BenchmarkReport, _ progress: @Sendable (String) -> Void) async throws {
        let candidates = Self.files(in: realData.appendingPathComponent("fit"), extensions: ["fit"]).filter { url in
            ((try? WorkoutFileReader.parse(url))?.workouts.isEmpty == false)
        }
        guard !candidates.isEmpty else { return }
        progress("importing \(fitFiles) FIT files")
        let store = directory.appendingPathComponent("fit-\(UUID().uuidString.prefix(8))")
        let logbook = try await Logbook.open(path: store.path, configuration: LogbookConfiguration())
        let users = (fitFiles + candidates.count - 1) / candidates.count
        for index in 0..<users {
            try await logbook.execute(.registerUser(user: "u\(index)", UserRegistered(displayName: "U\(index)", timeZone: "Europe/Berlin")))
        }
        let importer = FileImporter(logbook: logbook)
        let clock = Stopwatch()
        var workouts = 0
        for index in 0..<fitFiles {
            let report = try await importer.importFile(candidates[index % candidates.count], user: "u\(index / candidates.count)")
            workouts += report.written?.workouts ?? 0
        }
        let seconds = clock.seconds
        report.set("fit_import_files", fitFiles)
        report.set("fit_import_workouts", workouts)
        report.set("fit_import_files_per_s", Double(fitFiles) / seconds)
        await logbook.close()
        try? FileManager.default.removeItem(at: store)
    }

    static func files(in folder: URL, extensions: Set<String>) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.map { folder.appendingPathComponent($0) }
    }

    static func records(_ file: ParsedFile) -> Int {
        file.workouts.reduce(0) { $0 + 1 + $1.track.count } + file.stepSamples.count
    }

    /// Seconds Python's standard library takes to iterparse the file (nil without python3).
    static func pythonIterparseSeconds(_ file: URL) -> Double? {
        let script = """
            import sys, time, xml.etree.ElementTree as ET
            start = time.perf_counter()
            for _, element in ET.iterparse(sys.argv[1]):
                element.clear()
            print(time.perf_counter() - start)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
