import EventLog
import Hummingbird
import HummingbirdCore
import Logbook
import LogbookInput

/// One query parameter as a route takes it: how its text is read into a value, and how the API
/// document describes it. Reading and documenting come from this one definition, so the two
/// cannot drift apart. A text that does not read is refused with 400 naming the parameter.
struct QueryParameter<Value: Sendable>: Sendable {
    let name: String
    let required: Bool
    let schema: JSONSchema
    let description: String
    /// What a valid value is, for the refusal ("a log position").
    let expected: String
    private let read: @Sendable (String) throws -> Value?

    init(_ name: String, required: Bool = false, _ schema: JSONSchema, _ description: String, expected: String,
         read: @escaping @Sendable (String) throws -> Value?) {
        self.name = name
        self.required = required
        self.schema = schema
        self.description = description
        self.expected = expected
        self.read = read
    }

    /// The parameter's value in `request`; nil when it is absent. A required one that is absent,
    /// and any text that does not read, is a 400 naming the parameter.
    func value(in request: Request) throws -> Value? {
        try value(in: request.uri.queryParameters)
    }

    /// ``value(in:)-(Request)`` from the request's query parsed once (a route that reads several
    /// parameters parses the query string once, not once per parameter).
    func value(in parameters: FlatDictionary<Substring, Substring>) throws -> Value? {
        guard let text = parameters.get(name) else {
            if required { throw Problem.badRequest("the query needs \(name) (\(expected))", field: name) }
            return nil
        }
        guard let value = try read(text) else {
            throw Problem.badRequest("\(name) must be \(expected), not \"\(text.prefix(40))\"", field: name)
        }
        return value
    }

    /// The value of a required parameter.
    func requiredValue(in request: Request) throws -> Value {
        try requiredValue(in: request.uri.queryParameters)
    }

    /// The value of a required parameter, from the request's query parsed once.
    func requiredValue(in parameters: FlatDictionary<Substring, Substring>) throws -> Value {
        guard let value = try value(in: parameters) else { throw Problem.badRequest("the query needs \(name) (\(expected))", field: name) }
        return value
    }

    /// What the API document lists.
    var documented: DocumentedQueryParameter {
        DocumentedQueryParameter(name: name, required: required, schema: schema, description: description)
    }
}

/// A query parameter as the API document lists it.
package struct DocumentedQueryParameter: Sendable {
    package let name: String
    package let required: Bool
    package let schema: JSONSchema
    package let description: String
}

/// The query of one route, read from the request into typed values before its handler runs; the
/// route's entry in the API document lists ``parameters``, and any other parameter is refused.
protocol RouteQuery: Sendable {
    /// The parameters the route takes, as the document lists them.
    static var parameters: [DocumentedQueryParameter] { get }
    /// Reads the request's query (400 naming the parameter that is wrong).
    init(_ request: Request) throws
}

/// A route that takes no query parameters.
struct NoQuery: RouteQuery {
    static var parameters: [DocumentedQueryParameter] { [] }
    init(_ request: Request) {}
}

/// The kinds of query parameter the routes share.
extension QueryParameter {
    /// A local day (`yyyy-mm-dd`, years 0002 to 9998).
    static func day(_ name: String, required: Bool = false, _ description: String) -> QueryParameter<CivilDate> {
        QueryParameter<CivilDate>(name, required: required, .date("A local day (yyyy-mm-dd), years 0002 to 9998"), description,
                                  expected: QueryValues.day, read: QueryValues.date)
    }

    /// An RFC 3339 time with its offset, as the log's timestamps are parsed.
    static func time(_ name: String, _ description: String) -> QueryParameter<Timestamp> {
        QueryParameter<Timestamp>(name, .requestTime, description, expected: "an RFC 3339 time", read: { try? Timestamp(parsing: $0) })
    }

    /// A log position or stream version (0 to 2^63 − 1).
    static func position(_ name: String, _ description: String, expected: String = "a log position") -> QueryParameter<UInt64> {
        QueryParameter<UInt64>(name, .integer("A log position or stream version", minimum: 0, maximum: Int.max), description,
                               expected: expected, read: { QueryValues.decimalPosition($0) })
    }

    /// A page size from 1 to `maximum`.
    static func limit(maximum: Int) -> QueryParameter<Int> {
        QueryParameter<Int>("limit", .integer("A page size", minimum: 1, maximum: maximum), "Page size",
                            expected: "a number from 1 to \(maximum)", read: { QueryValues.limit($0, maximum: maximum) })
    }

    /// One of an enumeration's raw values.
    static func choice<Choice: CaseIterable & RawRepresentable & Sendable>(
        _ name: String, _ type: Choice.Type, _ schemaDescription: String, _ description: String, required: Bool = false,
        expected: String? = nil
    ) -> QueryParameter<Choice> where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        let expected = expected ?? (names.count == 2 ? "\(names[0]) or \(names[1])"
            : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? ""))
        return QueryParameter<Choice>(name, required: required, .enumeration(schemaDescription, names), description, expected: expected,
                                      read: { Choice(rawValue: $0) })
    }
}

/// Query parameters several routes take, made once (not per request: building their schemas costs
/// more than reading them).
enum SharedQueryParameters {
    /// `types`: comma-separated event types, each one the domain knows. Its schema's pattern is
    /// built from every type's name.
    static let eventTypes = QueryParameter<Set<EventType>>(
        "types", .commaSeparated("Comma-separated event types", of: EventType.allCases.map(\.rawValue)),
        "Only events of these types", expected: "comma-separated event types", read: { try QueryValues.eventTypes($0) })
}
