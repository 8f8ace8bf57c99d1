import EventLog
import EventLogPostgres
import Foundation
import Logbook
import LogbookTestSupport

/// A store connected to a fresh database of the test cluster, closed after `body`.
func withPostgresStore<R>(
    _ configure: (inout PostgresLogConfiguration) -> Void = { _ in },
    _ body: (PostgresEventStore, String) async throws -> R
) async throws -> R {
    let url = try await TestPostgres.freshDatabase()
    let store = try await connect(url, configure)
    do {
        let result = try await body(store, url)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}

/// A store on the database at `url` (another server of the same log).
func connect(_ url: String, _ configure: (inout PostgresLogConfiguration) -> Void = { _ in }) async throws -> PostgresEventStore {
    var configuration = PostgresLogConfiguration()
    // The whole suite runs in parallel on a small machine: give PostgreSQL time (the restart
    // test sets its own short timeout).
    configuration.operationTimeout = .seconds(60)
    configure(&configuration)
    return try await PostgresEventStore.connect(try PostgresURL(url), configuration: configuration)
}

/// Two servers of the log at `url`, read models in `root/a` and `root/b`, closed after `body`.
func withServers<R>(
    _ url: String, _ root: String, configuration: LogbookConfiguration, _ body: (Logbook, Logbook) async throws -> R
) async throws -> R {
    let a = try await Logbook.open(following: try await connect(url), readModelsAt: root + "/a", configuration: configuration)
    let b: Logbook
    do {
        b = try await Logbook.open(following: try await connect(url), readModelsAt: root + "/b", configuration: configuration)
    } catch {
        await a.close()
        throw error
    }
    do {
        let result = try await body(a, b)
        await a.close()
        await b.close()
        return result
    } catch {
        await a.close()
        await b.close()
        throw error
    }
}
