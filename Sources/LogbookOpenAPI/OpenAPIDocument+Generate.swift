import Foundation
import Hummingbird
import Logbook
public import LogbookHTTP
import Logging

extension OpenAPIDocument {
    /// The document of this build's routes: registers them on a scratch Logbook in `directory`
    /// (which must not hold one) and describes what they registered. Response schemas come from
    /// the Swift types the routes answer with, so no data is needed.
    public static func generate(in directory: String) async throws -> String {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .noSync
        let logbook = try await Logbook.open(path: directory, configuration: configuration)
        do {
            // The routes are only described, never served: a random secret nobody holds.
            let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            let routes = try await LogbookRoutes<LogbookRequestContext>(
                logbook: logbook, configuration: HTTPConfiguration(jwtSecret: secret),
                metrics: LogbookMetrics(), logger: Logger(label: "openapi"))
            routes.register(on: Router(context: LogbookRequestContext.self).group())
            let document = try json(routes: routes.routes)
            await logbook.close()
            return document
        } catch {
            await logbook.close()
            throw error
        }
    }
}
