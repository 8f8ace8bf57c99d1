import DemoData
import Foundation
import Testing
@testable import WorkoutFiles

/// Locations of the shared real files, resolved from this source file:
/// <package root>/../shared/realdata (CI clones the repository beside `shared`).
enum RealData {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // WorkoutFilesTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // package root

    static let root: URL = packageRoot.appendingPathComponent("../shared/realdata").standardizedFileURL

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    static func files(in folder: String, extensions: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { name in extensions.contains { name.lowercased().hasSuffix("." + $0) } }.sorted()
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relative)))
    }
}

/// Runs `body` and returns the WorkoutFileError it throws (nil if it did not throw one).
func workoutError(_ body: () throws -> Void) -> WorkoutFileError? {
    do {
        try body()
        return nil
    } catch let error as WorkoutFileError {
        return error
    } catch {
        Issue.record("unexpected error type \(type(of: error)): \(error)")
        return nil
    }
}

/// A plain comma-split CSV reader for fitparse's reference files (they contain no quotes).
func readSimpleCSV(_ relative: String) throws -> (header: [String], rows: [[String]]) {
    let text = try String(contentsOf: RealData.url(relative), encoding: .utf8)
    var lines = text.split(whereSeparator: \.isNewline).map(String.init)
    let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
    let rows = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    return (header, rows)
}
