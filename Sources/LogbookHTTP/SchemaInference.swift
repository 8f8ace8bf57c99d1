import Foundation

/// Infers a JSON Schema from example JSON documents: the types seen at each place, the
/// properties of objects (required when every example has them), array items, and the formats
/// `date` and `date-time` when every string there has one. Used to document response bodies
/// from real answers, so the documentation follows the Codable types without a second source.
enum SchemaInference {
    /// One JSON value, decoded strictly (a number is never taken for a Boolean or the reverse).
    indirect enum Value: Decodable {
        case null, bool(Bool), integer(Int64), number(Double), string(String), array([Value]), object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Int64.self) { self = .integer(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([Value].self) { self = .array(value) }
            else { self = .object(try container.decode([String: Value].self)) }
        }
    }

    /// The schema every one of `documents` (JSON texts) satisfies.
    static func schema(of documents: [Data]) throws -> [String: Any] {
        schema(of: try documents.map { try JSONDecoder().decode(Value.self, from: $0) })
    }

    static func schema(of values: [Value]) -> [String: Any] {
        var types = Set<String>()
        var strings: [String] = [], elements: [Value] = [], objects: [[String: Value]] = []
        for value in values {
            switch value {
            case .null: types.insert("null")
            case .bool: types.insert("boolean")
            case .integer: types.insert("integer")
            case .number: types.insert("number")
            case .string(let text): types.insert("string"); strings.append(text)
            case .array(let items): types.insert("array"); elements += items
            case .object(let fields): types.insert("object"); objects.append(fields)
            }
        }
        if types.contains("number") { types.remove("integer") }
        var schema: [String: Any] = [:]
        let sorted = types.sorted()
        if sorted.count == 1 { schema["type"] = sorted[0] } else if !sorted.isEmpty { schema["type"] = sorted }
        if !strings.isEmpty, let format = format(of: strings) { schema["format"] = format }
        if types.contains("array") { schema["items"] = elements.isEmpty ? [String: Any]() : self.schema(of: elements) }
        if !objects.isEmpty {
            let keys = Set(objects.flatMap(\.keys))
            var properties: [String: Any] = [:]
            for key in keys { properties[key] = self.schema(of: objects.compactMap { $0[key] }) }
            schema["properties"] = properties
            let required = keys.filter { key in objects.allSatisfy { $0[key] != nil } }.sorted()
            if !required.isEmpty { schema["required"] = required }
        }
        return schema
    }

    private static func format(of strings: [String]) -> String? {
        if strings.allSatisfy({ $0.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil }) { return "date" }
        if strings.allSatisfy({ $0.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9]{2}:[0-9]{2})/) != nil }) { return "date-time" }
        return nil
    }
}
