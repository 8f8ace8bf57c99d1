import Foundation
import Testing

/// The repository explains itself: its sources, tests, schemas and API descriptions state each
/// rule where it applies, and never send the reader to a design document or an issue tracker
/// that a clone of the repository does not hold.
@Suite("Repository texts")
struct RepositoryTextTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What a citation of an outside document looks like: the design document's name in
    /// capitals, or an issue by number. Spelt in pieces, so this file does not match itself.
    static let citation = try! Regex("DES" + "IGN|\\bissue #?[0-9]+")

    @Test("no file in Sources, Tests or Schemas cites the design document or an issue by number")
    func noOutsideCitations() throws {
        var found: [String] = []
        for folder in ["Sources", "Tests", "Schemas"] {
            let base = Self.root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else {
                Issue.record("cannot read \(folder)")
                continue
            }
            for case let url as URL in walk where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
                // Text files only: a fuzz corpus or fixture that is not UTF-8 holds no prose.
                guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else { continue }
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains(Self.citation) {
                    found.append("\(url.path.dropFirst(Self.root.path.count + 1)):\(number + 1): \(line.trimmingCharacters(in: .whitespaces).prefix(120))")
                }
            }
        }
        #expect(found.isEmpty, "state the rule instead of citing where it was written:\n\(found.joined(separator: "\n"))")
    }
}
