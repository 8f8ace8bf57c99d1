import Foundation
import Testing

/// The repository explains itself: its sources, tests, schemas and API descriptions state each
/// rule where it applies, and never send the reader to a design document or an issue tracker
/// that a clone of the repository does not hold; what its articles link and name exists.
@Suite("Repository texts")
struct RepositoryTextTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("no file in Sources, Tests or Schemas cites the design document or an issue by number")
    func noOutsideCitations() throws {
        // What a citation of an outside document looks like: the design document's name in
        // capitals, or an issue by number. Spelt in pieces, so this file does not match itself.
        let citation = try NSRegularExpression(pattern: "DES" + "IGN|\\bissue #?[0-9]+")
        var found: [String] = []
        for folder in ["Sources", "Tests", "Schemas"] {
            for url in try Self.files(under: folder) {
                // Text files only: a fuzz corpus or fixture that is not UTF-8 holds no prose.
                guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else { continue }
                for match in citation.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let range = Range(match.range, in: text) else { continue }
                    let line = text[..<range.lowerBound].count { $0 == "\n" } + 1
                    found.append("\(url.path.dropFirst(Self.root.path.count + 1)):\(line): \(text[range])")
                }
            }
        }
        #expect(found.isEmpty, "state the rule instead of citing where it was written:\n\(found.joined(separator: "\n"))")
    }

    @Test("every symbol an article links (``Type/member``) is declared in Sources, and every repository path it names exists")
    func articleReferencesResolve() throws {
        let sources = try Self.files(under: "Sources").filter { $0.pathExtension == "swift" }.map { try String(contentsOf: $0, encoding: .utf8) }
            .joined(separator: "\n")
        let declaredTypes = Set(Self.captures(try NSRegularExpression(pattern: #"\b(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#), in: sources))
        var members = Set(Self.captures(try NSRegularExpression(pattern: #"\b(?:func|var|let|subscript)\s+`?([A-Za-z_][A-Za-z0-9_]*)"#), in: sources))
        // Enumeration cases, several to a line as often as one.
        for list in Self.captures(try NSRegularExpression(pattern: #"\bcase\s+([^:=\n{(]+)"#), in: sources) {
            for name in list.split(separator: ",") {
                members.insert(String(name.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
            }
        }
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path))
        var unresolved: [String] = []
        for article in try Self.files(under: "Sources").filter({ $0.pathExtension == "md" && $0.path.contains(".docc/") }) {
            let name = article.lastPathComponent
            // Code blocks hold examples, not links.
            let whole = try String(contentsOf: article, encoding: .utf8)
            let text = try NSRegularExpression(pattern: #"(?s)```.*?```"#)
                .stringByReplacingMatches(in: whole, range: NSRange(whole.startIndex..., in: whole), withTemplate: "")
            for link in Set(Self.captures(try NSRegularExpression(pattern: "``([^`]+)``"), in: text)) {
                let parts = link.split(separator: "/").map { String($0.prefix { $0 != "(" && $0 != "-" }) }
                guard let first = parts.first, declaredTypes.contains(first) || members.contains(first) || modules.contains(first) else {
                    unresolved.append("\(name): ``\(link)``: no type, member or module \(parts.first ?? "") is declared")
                    continue
                }
                for part in parts.dropFirst() where part != "init" && !members.contains(part) && !declaredTypes.contains(part) {
                    unresolved.append("\(name): ``\(link)``: nothing named \(part) is declared")
                }
            }
            for path in Set(Self.captures(try NSRegularExpression(pattern: #"`((?:Sources|Schemas|tools|Tests)/[^`\s]*)`"#), in: text))
            where !path.contains(where: { "<*{…".contains($0) }) {
                if !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path) {
                    unresolved.append("\(name): `\(path)` does not exist")
                }
            }
        }
        #expect(unresolved.isEmpty, "\(unresolved.sorted().joined(separator: "\n"))")
    }

    /// The text of capture `group` of each match of `pattern` in `text`.
    static func captures(_ pattern: NSRegularExpression, in text: String, group: Int = 1) -> [String] {
        pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    /// Every regular file under `folder` of the repository.
    static func files(under folder: String) throws -> [URL] {
        guard let walk = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        return try walk.compactMap { item in
            guard let url = item as? URL, try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { return nil }
            return url
        }
    }
}
