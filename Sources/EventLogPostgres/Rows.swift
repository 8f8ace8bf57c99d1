import Logging
import NIOCore
import PostgresNIO

/// Queries whose rows are collected on the connection's event loop, never handed row by row to
/// a task.
///
/// PostgresNIO's row stream reads more from the socket only when its consumer asks for rows. If
/// the server closes the connection while no one has asked (PostgreSQL stopped, a backend
/// terminated), SwiftNIO delivers the rest of the input and the end of file without being asked,
/// and PostgresNIO 1.33 stops the process with a precondition failure in
/// `RowStreamStateMachine.channelReadComplete`. Two things leave a stream without a consumer that
/// asks: a task iterating the rows (it asks only when it gets to run), and a collecting consumer
/// attached one event-loop turn late — which is what happens when a query is sent from outside
/// the event loop and its first rows arrive before the collection is attached. So every query
/// of this module is sent from inside the connection's event loop, where the collection is
/// attached in the same turn, before any answer can arrive, and asks for every next batch at
/// once; the connection's end then finds it waiting for rows and fails the query with an error.
/// Every query the log sends goes through here (the benchmark's plain-`INSERT` baseline, which
/// is not the log, streams its own). The results it reads are bounded (pages, one row per
/// call), so holding them whole costs no more than streaming them.
extension PostgresConnection {
    /// Sends `query` (queued behind this connection's earlier queries, which PostgreSQL answers
    /// in order) and collects its rows and command tag. Queries sent one after another from one
    /// task reach the connection in that order: each is handed to the event loop's task queue,
    /// which runs them first in, first out.
    func send(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        eventLoop.flatSubmit { self.query(query, logger: logger) }
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
