import ArgumentParser
import Foundation
import Logbook
import WorkoutFiles
import WorkoutImport

/// `logbook import-file`: workout files (FIT, GPX, TCX, Apple Health, Strava), folders of them or
/// an Apple Health `export.zip`, imported for one user. Each file is read whole before it writes,
/// so a damaged one writes nothing; sending the same file again writes nothing.
struct ImportFileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-file",
        abstract: "Import workout files (FIT, GPX, TCX, Apple Health export.xml/zip, Strava activities.csv) for a user.",
        discussion: """
            With --json, one JSON object per file on its own line: {"file", "format", "workouts": [...], \
            "stepSamples", "steps", "skipped": [...]} (and "written" unless --dry-run). A file that cannot be \
            read is named on standard error with the byte offset or line of the damage; the others are still \
            imported, and the exit status is 1. Files found in a folder that are not workout files at all are \
            left out with a line on standard error.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The user the workouts and steps belong to (registered: their time zone places times a file gives without an offset).")
    var user: String

    @Flag(help: "Read and report only; write nothing.")
    var dryRun = false

    @Flag(help: "Print one JSON object per file.")
    var json = false

    @Argument(help: "Files, folders (searched recursively) or Apple Health export.zip files.")
    var inputs: [String]

    func run() async throws {
        var files: [URL] = []
        var named = Set<String>()
        for input in inputs {
            let url = URL(fileURLWithPath: input)
            named.insert(url.standardizedFileURL.path)
            files += try FileImporter.files(at: url)
        }
        // A large file streams through batches that would fragment the heap; small ones parse faster without this.
        let streamedSize = FileImporter.Options().inMemoryLimitBytes
        if files.contains(where: { file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? 0
            return size > streamedSize || ["zip", "gz"].contains(file.pathExtension.lowercased())
        }) {
            MemoryTuning.returnLargeBlocksToTheSystem()
        }
        let failures = try await store.withLogbook(readOnly: dryRun) { logbook in
            var options = FileImporter.Options(dryRun: dryRun)
            let live = isatty(STDERR_FILENO) == 1 && !json
            if live {
                options.progress = { workouts, samples in
                    guard samples % 100_000 < 10_000 || workouts % 50 == 0 else { return }
                    FileHandle.standardError.write(Data("\r\(workouts) workouts, \(samples) step samples written".utf8))
                }
            }
            let importer = FileImporter(logbook: logbook, options: options)
            let bar = CountingProgress(total: UInt64(files.count), enabled: !json && files.count > 1, noun: "files read")
            var failures = 0
            for (index, file) in files.enumerated() {
                do {
                    let report = try await importer.importFile(file, user: user)
                    if live { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                    print(json ? report.jsonLine : summary(report))
                } catch let error as WorkoutFileError where error.code == .unsupported && !named.contains(file.standardizedFileURL.path) {
                    // Found in a folder and not a workout file at all (a README, another app's CSV): left out, said once.
                    FileHandle.standardError.write(Data("skipped \(file.path): \(error.message)\n".utf8))
                } catch let error as WorkoutFileError {
                    failures += 1
                    FileHandle.standardError.write(Data("\(file.path): \(error)\n".utf8))
                } catch let error as LogbookError where [.ruleViolation, .invalidArgument, .conflict, .versionConflict, .coding].contains(error.code) {
                    // Refused by Logbook (a rule, a conflict): this file stops, the others go on.
                    failures += 1
                    FileHandle.standardError.write(Data("\(file.path): \(error)\n".utf8))
                }
                bar.update(UInt64(index + 1))
            }
            bar.finish()
            return failures
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func summary(_ report: FileImportReport) -> String {
        var line = "\(report.file) (\(report.format)): \(report.workouts.count) workout(s), \(report.stepSamples) step sample(s) of \(report.steps) steps"
        if let written = report.written {
            line += "; wrote \(written.workouts) workout(s) and \(written.stepEvents) step event(s)"
            if written.workoutsAlreadyThere + written.stepEventsAlreadyThere > 0 {
                line += ", \(written.workoutsAlreadyThere) workout(s) and \(written.stepEventsAlreadyThere) step event(s) were already there"
            }
        } else {
            line += " (dry run: nothing written)"
        }
        for skipped in report.skipped { line += "\n  skipped \(skipped.count): \(skipped.reason)" }
        return line
    }
}
