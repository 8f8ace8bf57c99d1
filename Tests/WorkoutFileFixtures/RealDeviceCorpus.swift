public import Foundation

/// The corpus of real devices' files (with their licences, kept outside the repository) that the
/// conformance suites hold the parsers against: the directory `LOGBOOK_REALDATA` names.
///
/// Unset, the conformance suites are disabled (`.enabled(if: RealDeviceCorpus.isConfigured)`), and
/// `tools/test` leaves them out of the run by name and says so once. Set, they run — and fail if the
/// directory is missing or lacks a file its `MANIFEST.tsv` lists or a test reads. A relative path is
/// taken from the current directory (`tools/test` makes it absolute).
public enum RealDeviceCorpus {
    /// The environment variable.
    public static let variable = "LOGBOOK_REALDATA"

    /// The directory named by the variable, nil when unset or empty.
    public static var root: URL? {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path).standardizedFileURL
    }

    /// Whether the conformance suites run (for `.enabled(if:)`).
    public static var isConfigured: Bool { root != nil }

    /// Thrown when the corpus is configured but a file is not there.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// The URL of a corpus file; throws naming the variable when the directory or file is missing.
    public static func url(_ relative: String) throws -> URL {
        guard let root else { throw Missing(description: "\(variable) is not set") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Missing(description: "\(variable)=\(root.path): no such directory")
        }
        let file = root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Missing(description: "\(variable)=\(root.path) lacks \(relative): the corpus is incomplete")
        }
        return file
    }

    /// A corpus file's bytes.
    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relative)))
    }

    /// Names of the files in a corpus folder with one of `extensions`, sorted (empty when missing).
    public static func files(in folder: String, extensions: Set<String>) -> [String] {
        guard let root else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { name in extensions.contains { name.lowercased().hasSuffix("." + $0) } }.sorted()
    }

    /// Problems with the corpus: a missing directory or manifest, a listed file that is missing or
    /// differs in size, or one of `required` that the manifest does not list. Empty when complete.
    public static func problems(required: [String]) -> [String] {
        guard let manifestURL = try? url("MANIFEST.tsv"), let manifest = try? String(contentsOf: manifestURL, encoding: .utf8) else {
            do { _ = try url("MANIFEST.tsv") } catch { return ["\(error)"] }
            return ["MANIFEST.tsv cannot be read"]
        }
        var problems: [String] = []
        var listed = Set<String>()
        for line in manifest.split(whereSeparator: \.isNewline).dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 2, let size = Int(columns[1]) else { continue }
            listed.insert(columns[0])
            guard let file = try? url(columns[0]) else {
                problems.append("\(columns[0]) is listed in MANIFEST.tsv but missing")
                continue
            }
            let actual = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
            if actual != size { problems.append("\(columns[0]) has \(actual) bytes, MANIFEST.tsv says \(size)") }
        }
        for name in required where !listed.contains(name) { problems.append("\(name) is read by a test but not in MANIFEST.tsv") }
        return problems
    }
}
