import EventLog
import Foundation
import Hummingbird
import Logbook
import DemoData
public import LogbookHTTP
import Logging

extension OpenAPIDocument {
    /// The document of this build's routes, with response schemas inferred from real answers:
    /// registers the routes on a scratch Logbook in `directory` (which must not hold one),
    /// fills it with the demo data set, and collects ``ResponseExamples``. Deterministic: the
    /// data are generated from a fixed seed, and the clock is fixed.
    public static func generate(in directory: String) async throws -> String {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .noSync
        configuration.clock = FixedClock(moment: Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000))
        let logbook = try await Logbook.open(path: directory, configuration: configuration)
        do {
            let routes = try await LogbookRoutes<LogbookRequestContext>(
                logbook: logbook, configuration: HTTPConfiguration(jwtSecret: String(repeating: "x", count: 32)),
                metrics: LogbookMetrics(), logger: Logger(label: "openapi"))
            routes.register(on: Router(context: LogbookRequestContext.self).group())
            _ = try await DemoDataGenerator(seed: 2026, users: 2).run(on: logbook)
            let document = try json(routes: routes.routes, examples: try await ResponseExamples.collect(logbook))
            await logbook.close()
            return document
        } catch {
            await logbook.close()
            throw error
        }
    }

    /// A clock that always answers the same moment.
    private struct FixedClock: LogClock {
        let moment: Timestamp
        func now() -> Timestamp { moment }
    }
}
