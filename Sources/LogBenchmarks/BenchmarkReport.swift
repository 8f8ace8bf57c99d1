/// An ordered set of named results, printed as one JSON object or as an aligned table.
public struct BenchmarkReport: Sendable {
    public enum Value: Sendable {
        case int(Int)
        case double(Double)
        case text(String)
        case object(BenchmarkReport)
    }

    public private(set) var entries: [(key: String, value: Value)] = []

    public init() {}

    public mutating func set(_ key: String, _ value: Int) { entries.append((key, .int(value))) }
    public mutating func set(_ key: String, _ value: Double) { entries.append((key, .double(value))) }
    public mutating func set(_ key: String, _ value: String) { entries.append((key, .text(value))) }
    public mutating func set(_ key: String, _ value: BenchmarkReport) { entries.append((key, .object(value))) }

    /// The value stored under `key`, as a number.
    public func number(_ key: String) -> Double? {
        for entry in entries where entry.key == key {
            switch entry.value {
            case .int(let value): return Double(value)
            case .double(let value): return value
            default: return nil
            }
        }
        return nil
    }

    /// One JSON object, keys in insertion order.
    public var json: String {
        "{" + entries.map { "\"\($0.key)\": \(Self.json($0.value))" }.joined(separator: ", ") + "}"
    }

    /// One line per entry, for people.
    public var table: String {
        let width = entries.map(\.key.count).max() ?? 0
        return entries.map { entry in
            entry.key + String(repeating: " ", count: width - entry.key.count) + "  " + Self.json(entry.value)
        }.joined(separator: "\n")
    }

    private static func json(_ value: Value) -> String {
        switch value {
        case .int(let value): String(value)
        case .double(let value): value.isFinite ? String(format3(value)) : "null"
        case .text(let value): "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .object(let report): report.json
        }
    }

    private static func format3(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }
}
