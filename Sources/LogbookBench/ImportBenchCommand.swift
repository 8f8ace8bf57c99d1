import ArgumentParser
import Foundation
import LogBenchmarks
import WorkoutImport

/// `logbook-bench import`: parsing per format over the real files, a large generated Apple
/// Health export imported with its baselines (reading the bytes; Python's iterparse), and many
/// FIT files imported one by one.
struct ImportBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Benchmark reading and importing workout files (FIT, GPX, TCX, Apple Health, Strava).")

    @OptionGroup var output: BenchOutput

    @Option(help: "The directory of real device files to parse (default: $LOGBOOK_REALDATA; the repository holds none).")
    var realData: String?

    @Option(help: "An Apple Health export.xml to import (make one with tools/generate-health-export).")
    var healthExport: String?

    @Option(help: "Size in MiB of an export.xml to generate with tools/generate-health-export when --health-export is not given (0: skip).")
    var generateMb = 0

    @Option(help: "FIT files to import one by one (0: skip).")
    var fitFiles = 1000

    /// The corpus directory: `--real-data`, else `LOGBOOK_REALDATA`; it must exist.
    func corpusDirectory() throws -> URL {
        guard let path = realData ?? ProcessInfo.processInfo.environment["LOGBOOK_REALDATA"], !path.isEmpty else {
            throw ValidationError("bench import parses real device files: give their directory with --real-data DIR or LOGBOOK_REALDATA=DIR")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("bench import: \(path) (from \(realData == nil ? "LOGBOOK_REALDATA" : "--real-data")) is not a directory")
        }
        return URL(fileURLWithPath: path)
    }

    func run() async throws {
        let realDataDirectory = try corpusDirectory()
        output.warnIfDebug("import")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-bench-import-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var export = healthExport.map { URL(fileURLWithPath: $0) }
        if export == nil, generateMb > 0 {
            let generated = directory.appendingPathComponent("export.xml")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "tools/generate-health-export", "--size-mb", "\(generateMb)", "--seed", "7", generated.path]
            process.standardOutput = FileHandle.standardError
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw ValidationError("tools/generate-health-export failed (run from the repository)") }
            export = generated
        }
        var benchmark = ImportBenchmark(realData: realDataDirectory, healthExport: export, directory: directory)
        benchmark.fitFiles = fitFiles
        let quiet = output.json
        // As `import-file` does for a large file; then back for the parsing phases, which it would slow.
        benchmark.beforeLargeImport = { MemoryTuning.returnLargeBlocksToTheSystem() }
        benchmark.afterLargeImport = { MemoryTuning.keepLargeBlocksInTheHeap() }
        let report = try await benchmark.run { message in
            if !quiet { FileHandle.standardError.write(Data("\(message)\n".utf8)) }
        }
        print(report.json)
    }
}
