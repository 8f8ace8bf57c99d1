import ArgumentParser
import Foundation
import Hummingbird
import Logbook
import LogbookHTTP
import Logging

/// `logbook openapi`: prints the OpenAPI 3.1 document of the routes this build registers
/// (what `Schemas/openapi.json` holds).
struct OpenAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi", abstract: "Print the OpenAPI 3.1 document of the HTTP API (Schemas/openapi.json).")

    func run() async throws {
        // The routes are recorded as they are registered, which needs a Logbook: use a scratch one.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-openapi-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let logbook = try await Logbook.open(path: scratch)
        let routes = try await LogbookRoutes<LogbookRequestContext>(
            logbook: logbook, configuration: HTTPConfiguration(jwtSecret: String(repeating: "x", count: 32)),
            metrics: LogbookMetrics(), logger: Logger(label: "openapi"))
        routes.register(on: Router(context: LogbookRequestContext.self).group())
        await logbook.close()
        print(OpenAPIDocument.json(routes: routes.routes), terminator: "")
    }
}
