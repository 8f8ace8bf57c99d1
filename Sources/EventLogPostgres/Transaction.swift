import EventLog
import Logging
import NIOCore
import PostgresNIO

/// One transaction on one leased connection, whose writes are reported only once PostgreSQL has
/// acknowledged its COMMIT.
///
/// A statement outside an explicit transaction commits when PostgreSQL processes the Sync that
/// follows it, after the statement's rows and its CommandComplete are produced: a client that
/// takes that completion for the commit can report a write that is never committed. A failing
/// commit reports its error after the completion, and a backend stopped in the middle of its
/// commit (`pg_ctl stop -m immediate`) sends what it had buffered — the rows and the completion —
/// before it exits, while the commit record never reaches the disk. COMMIT, a transaction
/// statement, is answered only after the commit is made (durable, with `synchronous_commit` on).
///
/// Statements are sent without waiting for the one before (PostgresNIO queues them on the
/// connection and PostgreSQL answers them in order), so BEGIN costs no wait of its own.
struct Transaction {
    let connection: PostgresConnection
    let logger: Logger

    /// What became of a COMMIT that was sent.
    enum CommitOutcome {
        case committed
        /// The connection was lost (or PostgreSQL shut down, or fell silent) after the COMMIT
        /// was sent: it may or may not have been committed.
        case inDoubt(any Error)
    }

    /// Begins a transaction on `connection`: BEGIN is sent, not waited for.
    static func begin(on connection: PostgresConnection, logger: Logger) -> (Transaction, begun: EventLoopFuture<PostgresQueryResult>) {
        (Transaction(connection: connection, logger: logger), connection.send("BEGIN", logger: logger))
    }

    /// Sends `query` now, behind the statements sent before it.
    func send(_ query: PostgresQuery) -> EventLoopFuture<PostgresQueryResult> {
        connection.send(query, logger: logger)
    }

    /// The rows of `query`, sent now.
    @discardableResult
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await send(query).get().rows
    }

    /// Sends COMMIT, unless `gate` says the work was abandoned (then rolls back and throws), and
    /// waits up to `timeout` for PostgreSQL's answer. A refused commit throws (nothing was
    /// committed); a lost connection, a shutdown or silence is ``CommitOutcome/inDoubt(_:)``.
    /// `begun` is BEGIN's answer: if BEGIN failed, the statements did not run in one transaction.
    func commit(begun: EventLoopFuture<PostgresQueryResult>, gate: CommitGate?, timeout: Duration) async throws -> CommitOutcome {
        do {
            _ = try await begun.get()
        } catch {
            await rollback()
            throw EventStoreError.unavailable("PostgreSQL did not begin the transaction: \(PostgresErrors.mapped(error))")
        }
        guard gate?.enterCommit() ?? true else {
            await rollback()
            throw EventStoreError.unavailable("the write was abandoned at its deadline and rolled back")
        }
        let committing = send("COMMIT")
        do {
            let answer = try await withDeadline(timeout, "commit") { try await committing.get() }
            // COMMIT of a transaction a failed statement aborted answers ROLLBACK.
            guard answer.metadata.command == "COMMIT" else {
                throw EventStoreError.storage("PostgreSQL rolled the transaction back instead of committing it")
            }
            return .committed
        } catch let error as PSQLError where error.code == .server && !Self.mayHaveCommitted(error) {
            throw PostgresErrors.mapped(error)
        } catch let error as EventStoreError where error.code == .storage {
            throw error
        } catch {
            // The answer may never come: the connection must not go back to the pool with COMMIT pending.
            if let deadline = error as? EventStoreError, deadline.code == .unavailable { try? await connection.close() }
            return .inDoubt(error)
        }
    }

    /// Ends the transaction without committing; closes the connection if PostgreSQL does not
    /// answer, so it never goes back to the pool inside a transaction.
    func rollback() async {
        do {
            _ = try await send("ROLLBACK").get()
        } catch {
            try? await connection.close()
        }
    }

    /// A server error on COMMIT that does not prove the commit failed: a shutdown's or a crash's
    /// message (57P01–57P03, 08xxx) can arrive after the commit was made and before its answer.
    private static func mayHaveCommitted(_ error: PSQLError) -> Bool {
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("57P") || state.hasPrefix("08")
    }
}

extension PostgresEventStore {
    /// Runs `body`'s statements in one transaction and returns its value once PostgreSQL has
    /// acknowledged the COMMIT. The whole write is bounded by the operation timeout until COMMIT is
    /// sent; after that it waits up to the timeout again for the answer. A commit whose answer is
    /// lost is reported as ``EventStoreError/Code/unavailable``, saying it may have been made
    /// (every write through here is idempotent: doing it again is safe).
    func write<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Transaction) async throws -> T) async throws -> T {
        guard !isClosed else { throw EventStoreError.closed }
        let (client, logger, timeout) = (self.client, configuration.logger, configuration.operationTimeout)
        let gate = CommitGate()
        do {
            return try await withDeadline(timeout, what, gate: gate) {
                try await client.withConnection { connection in
                    let (transaction, begun) = Transaction.begin(on: connection, logger: logger)
                    let value: T
                    do {
                        value = try await body(transaction)
                    } catch {
                        await transaction.rollback()
                        throw error
                    }
                    switch try await transaction.commit(begun: begun, gate: gate, timeout: timeout) {
                    case .committed:
                        return value
                    case .inDoubt(let error):
                        throw EventStoreError.unavailable(
                            "PostgreSQL went away while committing (\(what)); it may or may not have been committed: \(PostgresErrors.mapped(error))")
                    }
                }
            }
        } catch {
            throw PostgresErrors.mapped(error)
        }
    }
}
