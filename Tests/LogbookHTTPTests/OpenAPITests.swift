import LogbookOpenAPI
import Foundation
import Hummingbird
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Logging
import Testing

/// `Schemas/openapi.json` and the code agree: every route the router holds is documented with
/// its path and query parameters and statuses, and every documented operation exists.
@Suite("OpenAPI document")
struct OpenAPITests {
    static let schemasDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas")

    /// The registered routes and the router's own list of routes.
    static func registered() async throws -> ([RouteDescriptor], [String]) {
        try await withLogbook { logbook, _ in
            let router = Router(context: LogbookRequestContext.self)
            let routes = try await LogbookRoutes<LogbookRequestContext>(
                logbook: logbook, configuration: HTTPConfiguration(jwtSecret: testSecret), metrics: LogbookMetrics(), logger: Logger(label: "test"))
            routes.register(on: router.group())
            return (routes.routes, router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
        }
    }

    static func specification() throws -> [String: Any] {
        let data = try Data(contentsOf: schemasDirectory.appendingPathComponent("openapi.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("every route of the router is in the document and every documented operation is a route")
    func routesMatch() async throws {
        let (_, routerRoutes) = try await Self.registered()
        let spec = try Self.specification()
        #expect(spec["openapi"] as? String == "3.1.0")
        let paths = try #require(spec["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
        // The console's files (HTML, CSS, JavaScript for the browser) are not the API; ConsoleTests cover them.
        let consoleFiles: Set = ["GET /console", "GET /console/{file}"]
        #expect(consoleFiles.isSubset(of: Set(routerRoutes)))
        let routed = Set(routerRoutes).subtracting(consoleFiles)
        #expect(routed.subtracting(documented).isEmpty, "routes missing from openapi.json: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "documented operations with no route: \(documented.subtracting(routed).sorted())")
        #expect(routed.count >= 45)
    }

    @Test("parameters, request bodies and statuses of every operation match the code")
    func parametersAndStatusesMatch() async throws {
        let (routes, _) = try await Self.registered()
        let specification = try Self.specification()
        let paths = try #require(specification["paths"] as? [String: [String: Any]])
        let components = try #require((specification["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for route in routes {
            let name = "\(route.method) /\(route.path)"
            guard let operation = paths["/" + route.path]?[route.method.lowercased()] as? [String: Any] else {
                Issue.record("\(name) is not documented")
                continue
            }
            let parameters = operation["parameters"] as? [[String: Any]] ?? []
            func names(_ location: String) -> Set<String> {
                Set(parameters.filter { $0["in"] as? String == location }.compactMap { $0["name"] as? String })
            }
            #expect(names("path") == Set(OpenAPIDocument.pathParameters(route.path)), "\(name): path parameters")
            // A parameter the document knows nothing about falls back to its bare name: every one is described.
            for parameter in parameters {
                let described = (parameter["description"] as? String).map { $0 != parameter["name"] as? String } ?? false
                #expect(described, "\(name): parameter \(parameter["name"] ?? "?") has no description (RequestParameters)")
            }
            #expect(names("query") == Set(route.query), "\(name): query parameters")
            let statuses = Set((operation["responses"] as? [String: Any] ?? [:]).keys.compactMap(Int.init))
            #expect(statuses == Set(route.statuses), "\(name): statuses")
            let body = ((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])
                .flatMap { ($0["application/json"] as? [String: Any])?["schema"] as? [String: Any] }?["$ref"] as? String
            // A body's schema is its Schemas/ file's, bundled as a component of the document.
            #expect(body == route.requestBody.map { "#/components/schemas/" + (BundledSchemas.componentNames[$0] ?? "?") }, "\(name): request body")
            if let file = route.requestBody {
                #expect(FileManager.default.fileExists(atPath: Self.schemasDirectory.appendingPathComponent(file).path), "\(name): \(file) missing")
                #expect(BundledSchemas.componentNames[file].flatMap { components[$0] } != nil, "\(name): \(file) is not bundled")
            }
            // Every JSON success body is described by component schemas (one, or a choice of them).
            for status in route.statuses where (200..<300).contains(status) {
                let success = (operation["responses"] as? [String: Any])?[String(status)] as? [String: Any]
                guard let json = (success?["content"] as? [String: Any])?["application/json"] as? [String: Any] else { continue }
                let schema = json["schema"] as? [String: Any] ?? [:]
                let references = ((schema["oneOf"] as? [[String: Any]]) ?? [schema]).map { $0["$ref"] as? String }
                for reference in references {
                    #expect(reference?.hasPrefix("#/components/schemas/") == true, "\(name) \(status): no response schema")
                    let component = reference.map { String($0.dropFirst("#/components/schemas/".count)) }
                    #expect(component.flatMap { components[$0] } != nil, "\(name): \(reference ?? "-") is not defined")
                }
            }
        }
    }

    @Test("the document is self-contained: every reference is to one of its components, and each exists")
    func selfContained() throws {
        let specification = try Self.specification()
        let components = try #require((specification["components"] as? [String: Any])?["schemas"] as? [String: Any])
        var references: [String] = []
        func collect(_ value: Any) {
            if let array = value as? [Any] { array.forEach(collect) }
            guard let object = value as? [String: Any] else { return }
            if let reference = object["$ref"] as? String { references.append(reference) }
            object.values.forEach(collect)
        }
        collect(specification)
        #expect(references.count > 100)
        for reference in Set(references).sorted() {
            #expect(reference.hasPrefix("#/components/schemas/"), "\(reference) points outside the document")
            #expect(components[String(reference.dropFirst("#/components/schemas/".count))] != nil, "\(reference) is not defined")
        }
    }

    @Test("each golden fixture's data is valid by its bundled component as by its file, and a broken one by neither")
    func bundledSchemasAgreeWithFiles() throws {
        let specification = try Self.specification()
        var validator = SchemaValidator(directory: Self.schemasDirectory)
        let fixtures = Self.schemasDirectory.appendingPathComponent("fixtures")
        var checked = 0
        for (file, component) in BundledSchemas.componentNames.sorted(by: { $0.key < $1.key }) where file.hasPrefix("events/") && file != "events/envelope.schema.json" {
            let fixture = fixtures.appendingPathComponent(String(file.dropFirst("events/".count)).replacingOccurrences(of: ".schema.json", with: ".json"))
            guard let data = try? Data(contentsOf: fixture) else { continue }
            let value = try #require(try JSONDecoder().decode([String: JSONValue].self, from: data)["data"])
            let fileSchema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemasDirectory.appendingPathComponent(file))) as? [String: Any])
            let bundled: [String: Any] = ["$ref": "#/components/schemas/" + component]
            #expect(validator.errors(value, fileSchema, root: fileSchema) == [], "\(file)")
            #expect(validator.errors(value, bundled, root: specification) == [], "\(component)")
            let broken = JSONValue.object(["notAField": .bool(true)])
            #expect(!validator.errors(broken, bundled, root: specification).isEmpty, "\(component) accepts an unknown field")
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test("the committed document is the one this code generates (regenerate: logbook openapi > Schemas/openapi.json)")
    func committedDocumentIsCurrent() async throws {
        let generated = try await withTemporaryDirectory { try await OpenAPIDocument.generate(in: $0 + "/scratch") }
        let url = Self.schemasDirectory.appendingPathComponent("openapi.json")
        if ProcessInfo.processInfo.environment["LOGBOOK_UPDATE_FIXTURES"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == generated)
    }
}
