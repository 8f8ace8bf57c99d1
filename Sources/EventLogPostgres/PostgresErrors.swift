import EventLog
import PostgresNIO

/// PostgresNIO's errors as the log's own: the server's refusals carry its SQLSTATE and message;
/// a database that cannot be reached is ``EventStoreError/Code/unavailable`` (retry later).
enum PostgresErrors {
    static func mapped(_ error: any Error) -> any Error {
        if error is EventStoreError || error is CancellationError { return error }
        if let transaction = error as? PostgresTransactionError,
           let cause = transaction.closureError ?? transaction.beginError ?? transaction.commitError {
            return mapped(cause)
        }
        if let psql = error as? PSQLError {
            switch psql.code {
            case .server:
                let state = psql.serverInfo?[.sqlState] ?? "?"
                let message = psql.serverInfo?[.message] ?? "no message"
                // 08: connection exceptions; 57P0x: the server is shutting down or starting; 53300: too many connections.
                if state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" {
                    return EventStoreError.unavailable("PostgreSQL \(state): \(message)")
                }
                return EventStoreError.storage("PostgreSQL \(state): \(message)")
            case .poolClosed:
                return EventStoreError.closed
            default:
                let cause = psql.underlying.map { ": \($0)" } ?? ""
                return EventStoreError.unavailable("PostgreSQL connection failed (\(psql.code))\(cause)")
            }
        }
        if let decoding = error as? PostgresDecodingError {
            return EventStoreError.storage("a column of an unexpected type: \(String(reflecting: decoding))")
        }
        return EventStoreError.unavailable("PostgreSQL: \(error)")
    }
}
