import Foundation
import Synchronization

/// `Schemas/openapi.json` as a contract every answer in the HTTP tests is held to: each response
/// must have a documented status for its operation, a documented content type, and a JSON body
/// valid against the documented schema (``SchemaValidator``). ``TestServer/call`` checks every
/// response it returns.
struct APIContract {
    static let shared = Mutex(APIContract())

    private let paths: [String: [String: Any]]
    private let document: [String: Any]
    private var validator: SchemaValidator

    init() {
        let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Schemas")
        let data = (try? Data(contentsOf: schemas.appendingPathComponent("openapi.json"))) ?? Data("{}".utf8)
        document = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        paths = document["paths"] as? [String: [String: Any]] ?? [:]
        validator = SchemaValidator(directory: schemas)
    }

    /// How the answer to `method uri` breaks the document (empty: it conforms, or the request
    /// matched no documented operation: an unknown path or method, which the router answers
    /// itself and the tests of those refusals check).
    mutating func violations(method: String, uri: String, status: Int, contentType: String?, body: Data) -> [String] {
        guard !paths.isEmpty else { return ["Schemas/openapi.json could not be read: no answer can be checked"] }
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        guard let (template, operation) = operation(method: method.lowercased(), path: path) else { return [] }
        let name = "\(method) \(template) → \(status)"
        guard let response = (operation["responses"] as? [String: Any])?[String(status)] as? [String: Any] else {
            return ["\(name): status \(status) is not documented"]
        }
        guard let content = response["content"] as? [String: Any] else { return [] }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let entry = content[mediaType] as? [String: Any] else {
            return ["\(name): content type \(mediaType) is not documented (\(content.keys.sorted().joined(separator: ", ")))"]
        }
        guard mediaType.hasSuffix("json"), !mediaType.hasSuffix("ndjson"), let schema = entry["schema"] as? [String: Any] else { return [] }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: body) else { return ["\(name): the body is not JSON"] }
        return validator.errors(value, schema, root: document).map { "\(name): \($0)" }
    }

    /// The documented operation whose path template matches `path`, preferring literal segments.
    private func operation(method: String, path: String) -> (String, [String: Any])? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var best: (String, [String: Any], Int)?
        for (template, operations) in paths {
            guard let operation = operations[method] as? [String: Any] else { continue }
            let parts = template.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard parts.count == segments.count else { continue }
            var literals = 0
            var matched = true
            for (part, segment) in zip(parts, segments) {
                if part.hasPrefix("{") { if segment.isEmpty { matched = false; break } }
                else if part == segment { literals += 1 }
                else { matched = false; break }
            }
            if matched, literals > (best?.2 ?? -1) { best = (template, operation, literals) }
        }
        return best.map { ($0.0, $0.1) }
    }
}
