import Foundation

/// A JSON value decoded strictly (a number is never taken for a Boolean or the reverse).
indirect enum JSONValue: Decodable, CustomStringConvertible {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value.prefix(60))\""
        case .array(let values): "[\(values.count) items]"
        case .object(let fields): "{\(fields.keys.sorted().joined(separator: ","))}"
        }
    }
}

/// Validates JSON values against the JSON Schema (draft 2020-12) keywords the OpenAPI document
/// and `Schemas/` use: type, enum, const, properties, required, additionalProperties, items,
/// min/maxItems, minimum/maximum, min/maxLength, pattern, format (date, date-time), oneOf, anyOf,
/// allOf, if/then/else, and `$ref` within a document or to a file beside it.
struct SchemaValidator {
    /// The directory relative file references are resolved in (`Schemas/`).
    let directory: URL
    private var files: [String: [String: Any]] = [:]

    init(directory: URL) { self.directory = directory }

    /// Every way `value` breaks `schema` (whose `#` references resolve in `root`), as "path: reason".
    mutating func errors(_ value: JSONValue, _ schema: [String: Any], root: [String: Any], at path: String = "$") -> [String] {
        var errors: [String] = []
        if let reference = schema["$ref"] as? String {
            guard let (target, targetRoot) = resolve(reference, root: root) else { return ["\(path): cannot resolve \(reference)"] }
            errors += self.errors(value, target, root: targetRoot, at: path)
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [(types as? String) ?? ""]
            if !allowed.contains(where: { Self.matches(value, type: $0) }) { return errors + ["\(path): \(value) is not \(allowed.joined(separator: " or "))"] }
        }
        if let values = schema["enum"] as? [Any], !values.contains(where: { Self.equal(value, $0) }) {
            errors.append("\(path): \(value) is not one of \(values)")
        }
        if let constant = schema["const"], !Self.equal(value, constant) { errors.append("\(path): \(value) is not \(constant)") }
        switch value {
        case .object(let fields):
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for name in schema["required"] as? [String] ?? [] where fields[name] == nil { errors.append("\(path): \(name) is missing") }
            for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] {
                    errors += self.errors(field, property, root: root, at: "\(path).\(name)")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    errors += self.errors(field, additional, root: root, at: "\(path).\(name)")
                } else if (schema["additionalProperties"] as? Bool) == false {
                    errors.append("\(path): \(name) is not a documented property")
                }
            }
        case .array(let items):
            if let maximum = schema["maxItems"] as? Int, items.count > maximum { errors.append("\(path): more than \(maximum) items") }
            if let minimum = schema["minItems"] as? Int, items.count < minimum { errors.append("\(path): fewer than \(minimum) items") }
            if let itemSchema = schema["items"] as? [String: Any] {
                for (index, item) in items.enumerated() { errors += self.errors(item, itemSchema, root: root, at: "\(path)[\(index)]") }
            }
        case .integer, .number:
            let number: Double = if case .integer(let v) = value { Double(v) } else if case .number(let v) = value { v } else { 0 }
            if let minimum = (schema["minimum"] as? NSNumber)?.doubleValue, number < minimum { errors.append("\(path): \(number) < \(minimum)") }
            if let maximum = (schema["maximum"] as? NSNumber)?.doubleValue, number > maximum { errors.append("\(path): \(number) > \(maximum)") }
        case .string(let text):
            let length = text.unicodeScalars.count
            if let minimum = schema["minLength"] as? Int, length < minimum { errors.append("\(path): shorter than \(minimum)") }
            if let maximum = schema["maxLength"] as? Int, length > maximum { errors.append("\(path): longer than \(maximum)") }
            if let pattern = schema["pattern"] as? String, !Self.matches(text, pattern) {
                errors.append("\(path): \"\(text.prefix(60))\" does not match \(pattern)")
            }
            if let format = schema["format"] as? String, let formatPattern = Self.formats[format], !Self.matches(text, formatPattern) {
                errors.append("\(path): \"\(text.prefix(60))\" is not a \(format)")
            }
        default: break
        }
        for subschema in schema["allOf"] as? [[String: Any]] ?? [] { errors += self.errors(value, subschema, root: root, at: path) }
        if let choices = schema["anyOf"] as? [[String: Any]], !choices.contains(where: { self.errors(value, $0, root: root, at: path).isEmpty }) {
            errors.append("\(path): \(value) matches none of anyOf")
        }
        if let choices = schema["oneOf"] as? [[String: Any]] {
            let matching = choices.filter { self.errors(value, $0, root: root, at: path).isEmpty }.count
            if matching != 1 { errors.append("\(path): \(value) matches \(matching) of oneOf, not exactly one") }
        }
        if let condition = schema["if"] as? [String: Any] {
            let branch = self.errors(value, condition, root: root, at: path).isEmpty ? schema["then"] : schema["else"]
            if let branch = branch as? [String: Any] { errors += self.errors(value, branch, root: root, at: path) }
        }
        return errors
    }

    /// `#/a/b` within `root`, or `file.json` / `file.json#/a` relative to ``directory`` (that file
    /// becomes the root of what it holds).
    private mutating func resolve(_ reference: String, root: [String: Any]) -> ([String: Any], [String: Any])? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var document = root
        if let file = parts.first, !file.isEmpty {
            let name = String(file)
            if files[name] == nil {
                guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)),
                      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
                files[name] = object
            }
            document = files[name]!
        }
        var target: Any = document
        if parts.count == 2 {
            for component in parts[1].split(separator: "/") {
                guard let next = (target as? [String: Any])?[String(component)] else { return nil }
                target = next
            }
        }
        guard let schema = target as? [String: Any] else { return nil }
        return (schema, document)
    }

    private static let formats = [
        "date": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        "date-time": "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$",
    ]

    /// Whether `pattern` finds a match in `text`; a pattern anchored with `^…$` must cover the whole
    /// text (ICU's `$` also matches before a final newline, which JSON Schema's does not).
    private static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let range = text.range(of: pattern, options: .regularExpression) else { return false }
        return !pattern.hasSuffix("$") || range.upperBound == text.endIndex
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (value, type) {
        case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"): true
        case (.integer, "integer"), (.integer, "number"), (.number, "number"): true
        case (.number(let number), "integer"): number == number.rounded()
        default: false
        }
    }

    private static func equal(_ value: JSONValue, _ expected: Any) -> Bool {
        switch value {
        case .string(let text): (expected as? String) == text
        case .bool(let flag): (expected as? Bool) == flag && !(expected is String)
        case .integer(let number): (expected as? NSNumber)?.int64Value == number && !(expected is String)
        case .null: expected is NSNull
        default: false
        }
    }
}
