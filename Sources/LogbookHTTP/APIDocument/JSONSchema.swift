/// A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) built in Swift, next to the type it
/// describes: what `Schemas/openapi.json` says a request parameter or a response body is.
///
/// Objects are closed (`additionalProperties: false`): a field the code adds without describing
/// it here fails the response-conformance tests. Every property carries a one-line description.
/// A ``reference(_:_:)`` to a ``DocumentedSchema`` type becomes a `$ref` to a named component.
package struct JSONSchema: Sendable {
    /// One keyword's value.
    enum Keyword: Sendable {
        case text(String), integer(Int), number(Double), flag(Bool), texts([String])
        case schema(JSONSchema), schemas([JSONSchema]), properties([String: JSONSchema])
    }

    var keywords: [String: Keyword]
    /// For a reference: the component's name and how to build its definition.
    var component: (name: String, definition: @Sendable () -> JSONSchema)?

    init(_ keywords: [String: Keyword], component: (name: String, definition: @Sendable () -> JSONSchema)? = nil) {
        self.keywords = keywords
        self.component = component
    }


    /// This schema with `null` allowed too.
    package var orNull: JSONSchema {
        if component == nil, case .text(let type)? = keywords["type"] {
            var copy = self
            copy.keywords["type"] = .texts([type, "null"])
            return copy
        }
        return JSONSchema(["anyOf": .schemas([self, JSONSchema(["type": .text("null")])])])
    }
}

extension JSONSchema {
    /// A string, with its format, pattern and length limits when it has them.
    package static func string(
        _ description: String, format: String? = nil, pattern: String? = nil, minLength: Int? = nil, maxLength: Int? = nil
    ) -> JSONSchema {
        var keywords: [String: Keyword] = ["type": .text("string"), "description": .text(description)]
        if let format { keywords["format"] = .text(format) }
        if let pattern { keywords["pattern"] = .text(pattern) }
        if let minLength { keywords["minLength"] = .integer(minLength) }
        if let maxLength { keywords["maxLength"] = .integer(maxLength) }
        return JSONSchema(keywords)
    }

    /// A local date, `yyyy-mm-dd`.
    package static func date(_ description: String) -> JSONSchema {
        .string(description, format: "date", pattern: datePattern)
    }

    /// `yyyy-mm-dd` with a month and day in range (the same pattern as `Schemas/events`).
    static let datePattern = #"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"#

    /// An RFC 3339 time with its offset and at most microseconds, `T`, `t` or a space between
    /// day and time, as the log parses it (the same pattern as `Schemas/events`).
    static let timePattern =
        #"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,6})?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"#

    /// A time in a request as the log parses it (``timePattern``). No `format: date-time`: the
    /// log also takes a space between day and time, which that format refuses.
    static var requestTime: JSONSchema {
        .string("An RFC 3339 time with a UTC offset, at most microsecond precision ('T', 't' or a space before the time)",
                pattern: timePattern)
    }

    /// A comma-separated list of `names`, none empty and none other.
    static func commaSeparated(_ description: String, of names: [String]) -> JSONSchema {
        let alternatives = "(" + names.map { $0.replacingOccurrences(of: ".", with: "\\.") }.joined(separator: "|") + ")"
        return .string(description, pattern: "^\(alternatives)(,\(alternatives))*$")
    }

    /// An RFC 3339 time with its UTC offset, as the log writes times (at most microseconds).
    package static func dateTime(_ description: String) -> JSONSchema {
        .string(description, format: "date-time")
    }

    /// One of `values`.
    package static func enumeration(_ description: String, _ values: [String]) -> JSONSchema {
        JSONSchema(["type": .text("string"), "enum": .texts(values), "description": .text(description)])
    }

    /// One of the raw values of `type`'s cases: the list comes from the Swift enum itself.
    package static func enumeration<Values: CaseIterable & RawRepresentable>(_ description: String, _ type: Values.Type) -> JSONSchema
    where Values.RawValue == String {
        enumeration(description, type.allCases.map(\.rawValue))
    }

    /// A whole number, within `minimum`…`maximum` when given.
    package static func integer(_ description: String, minimum: Int? = nil, maximum: Int? = nil) -> JSONSchema {
        var keywords: [String: Keyword] = ["type": .text("integer"), "description": .text(description)]
        if let minimum { keywords["minimum"] = .integer(minimum) }
        if let maximum { keywords["maximum"] = .integer(maximum) }
        return JSONSchema(keywords)
    }

    /// A whole number of events, bytes, seconds…: never negative.
    package static func count(_ description: String) -> JSONSchema { .integer(description, minimum: 0) }

    /// A number (a Double), within `minimum`…`maximum` when given.
    package static func number(_ description: String, minimum: Double? = nil, maximum: Double? = nil) -> JSONSchema {
        var keywords: [String: Keyword] = ["type": .text("number"), "description": .text(description)]
        if let minimum { keywords["minimum"] = .number(minimum) }
        if let maximum { keywords["maximum"] = .number(maximum) }
        return JSONSchema(keywords)
    }

    /// true or false.
    package static func boolean(_ description: String) -> JSONSchema {
        JSONSchema(["type": .text("boolean"), "description": .text(description)])
    }

    /// An array of `items`, at most `maxItems` long when given.
    package static func array(_ description: String, of items: JSONSchema, maxItems: Int? = nil) -> JSONSchema {
        var keywords: [String: Keyword] = ["type": .text("array"), "items": .schema(items), "description": .text(description)]
        if let maxItems { keywords["maxItems"] = .integer(maxItems) }
        return JSONSchema(keywords)
    }

    /// A closed object: `required` properties always present, `optional` ones left out when the
    /// value has none (Swift's `nil`), nothing else.
    package static func object(_ description: String, required: [String: JSONSchema], optional: [String: JSONSchema] = [:]) -> JSONSchema {
        var keywords: [String: Keyword] = [
            "type": .text("object"), "description": .text(description), "additionalProperties": .flag(false),
            "properties": .properties(required.merging(optional) { first, _ in first }),
        ]
        if !required.isEmpty { keywords["required"] = .texts(required.keys.sorted()) }
        return JSONSchema(keywords)
    }



    /// Exactly one of `choices`.
    package static func oneOf(_ description: String, _ choices: [JSONSchema]) -> JSONSchema {
        JSONSchema(["oneOf": .schemas(choices), "description": .text(description)])
    }

    /// The named component of `type` (`#/components/schemas/<name>`), with a description of
    /// this use of it.
    package static func reference<Documented: DocumentedSchema>(_ type: Documented.Type, _ description: String? = nil) -> JSONSchema {
        var keywords: [String: Keyword] = [:]
        if let description { keywords["description"] = .text(description) }
        return JSONSchema(keywords, component: (type.schemaName, { type.schema }))
    }

    /// A named component defined here rather than by a Swift type (answers written without one,
    /// such as the log's pages).
    package static func component(_ name: String, _ definition: @escaping @Sendable () -> JSONSchema) -> JSONSchema {
        JSONSchema([:], component: (name, definition))
    }

    /// A schema kept in a file of `Schemas/` (the wire form's event schemas), by its relative path.
    package static func file(_ path: String) -> JSONSchema { JSONSchema(["$ref": .text(path)]) }
}

/// A type whose JSON form is described by a ``JSONSchema``: response bodies name their type when
/// the route is registered, and the OpenAPI document takes the schema from here.
package protocol DocumentedSchema: SendableMetatype {
    /// The component's name in the document (default: the type's name).
    static var schemaName: String { get }
    /// The schema of the type's JSON form.
    static var schema: JSONSchema { get }
}

extension DocumentedSchema {
    package static var schemaName: String { String(describing: Self.self) }
}

extension Array: DocumentedSchema where Element: DocumentedSchema {
    package static var schemaName: String { Element.schemaName + "List" }
    package static var schema: JSONSchema { .array("\(Element.schemaName) values", of: .reference(Element.self)) }
}

extension JSONSchema {
    /// The schema as JSON (`[String: Any]` for JSONSerialization), adding every component it
    /// references (and they reference) to `components`.
    func jsonObject(components: inout [String: Any]) -> [String: Any] {
        if let component {
            if components[component.name] == nil {
                components[component.name] = [String: Any]()  // placeholder: a recursive reference ends here
                components[component.name] = component.definition().jsonObject(components: &components)
            }
            var object: [String: Any] = ["$ref": "#/components/schemas/\(component.name)"]
            for (name, keyword) in keywords { object[name] = keyword.jsonValue(components: &components) }
            return object
        }
        var object: [String: Any] = [:]
        for (name, keyword) in keywords { object[name] = keyword.jsonValue(components: &components) }
        return object
    }
}

extension JSONSchema.Keyword {
    func jsonValue(components: inout [String: Any]) -> Any {
        switch self {
        case .text(let value): return value
        case .integer(let value): return value
        case .number(let value): return value
        case .flag(let value): return value
        case .texts(let values): return values
        case .schema(let schema): return schema.jsonObject(components: &components)
        case .schemas(let schemas): return schemas.map { $0.jsonObject(components: &components) }
        case .properties(let properties): return properties.mapValues { $0.jsonObject(components: &components) }
        }
    }
}
