import Logging
import NIOCore
import PostgresNIO

/// Queries whose rows are collected on the connection's event loop, never handed row by row to
/// a task.
///
/// PostgresNIO's row sequence hands rows to a consuming task and reads more from the socket only
/// when that task asks for them. If the server closes the connection in between (PostgreSQL
/// stopped, a backend terminated), SwiftNIO delivers the rest of the input and the end of file
/// without being asked, and PostgresNIO 1.33 stops the process with a precondition failure in
/// `RowStreamStateMachine.channelReadComplete`. Collected on the event loop, every batch of rows
/// asks for the next one at once, so the connection's end finds the stream waiting for rows and
/// fails the query with an error. Every query of this module goes through here; the results it
/// reads are bounded (pages, one row per call), so holding them whole costs no more than before.
extension PostgresConnection {
    /// Sends `query` now (queued behind this connection's earlier queries, which PostgreSQL
    /// answers in order) and collects its rows and command tag.
    func send(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        self.query(query, logger: logger)
    }

    /// The rows of `query`, collected on the event loop.
    @discardableResult
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await send(query, logger: logger).get().rows
    }
}

extension PostgresClient {
    /// The rows of `query` on a connection of the pool, collected on its event loop: for reads
    /// (a write waits for its commit in a ``Transaction``).
    @discardableResult
    func rows(_ query: PostgresQuery, logger: Logger = quietLogger) async throws -> [PostgresRow] {
        try await withConnection { connection in try await connection.rows(query, logger: logger) }
    }
}

/// A logger for queries that log nothing (as PostgresNIO's client does when given none).
let quietLogger = Logger(label: "logbook.postgres.queries", factory: { _ in SwiftLogNoOpLogHandler() })
