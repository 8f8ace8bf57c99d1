import EventLog
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Commits an ``AppendCall`` in one transaction and reports its results only once PostgreSQL has
/// acknowledged the COMMIT (see ``Transaction`` for why a statement's own answer is no proof):
///
/// 1. BEGIN, then — when answers are to be kept — the pruning of expired answers, then the calls
///    of `logbook.append`, sent together (the calls take the head's lock);
/// 2. with their results: the answers made of them (``AnswerToKeep``) and COMMIT, sent together;
/// 3. PostgreSQL's answer to COMMIT, after which the results and the answers that stand are told.
///
/// Until COMMIT is sent, a failure or the deadline rolls everything back: nothing was written.
/// Once it is sent, a lost connection leaves the outcome in doubt, and the log is asked — after
/// waiting for the head's lock, which the transaction held until it ended: the commit was made
/// if, and only if, the first event of every request it wrote stands at the position the call
/// answered (a transaction is all or nothing; an event with that id at that position is the write
/// the answer describes, whichever transaction made it). Only when PostgreSQL cannot be asked
/// within the timeout is the append reported as unavailable with its outcome unknown.
struct AppendTransaction {
    let call: AppendCall
    let client: PostgresClient
    let timeout: Duration
    let logger: Logger

    /// What the transaction came to on its connection.
    private enum Attempt: Sendable {
        case committed([KeepingAppendResult])
        /// COMMIT was sent and its answer lost: the results the calls answered, and the answers
        /// proposed for keeping (by item), to check against the log.
        case inDoubt([Result<AppendResult, EventStoreError>], [Int: KeptAnswerRows.Keeping], cutoff: Int64, cause: String)
    }

    /// Runs the transaction: one result per item, in order.
    func run() async throws -> [KeepingAppendResult] {
        let (call, client, timeout, logger) = (self.call, self.client, self.timeout, self.logger)
        let gate = CommitGate()
        let attempt = try await withDeadline(timeout, "append", gate: gate) {
            try await client.withConnection { connection in
                try await Self.attempt(call, on: connection, gate: gate, timeout: timeout, logger: logger)
            }
        }
        switch attempt {
        case .committed(let results):
            return results
        case .inDoubt(let results, let keepings, let cutoff, let cause):
            return try await resolve(results, keepings, cutoff: cutoff, cause: cause)
        }
    }

    private static func attempt(
        _ call: AppendCall, on connection: PostgresConnection, gate: CommitGate, timeout: Duration, logger: Logger
    ) async throws -> Attempt {
        let (transaction, begun) = Transaction.begin(on: connection, logger: logger)
        let cutoff = call.items.compactMap(\.keep?.expiringBefore).min()
        // Before the calls take the head's lock, so pruning does not lengthen the log's one-at-a-time commits.
        let pruned = cutoff.map { transaction.send(KeptAnswerRows.prune(before: $0)) }
        let parts = call.parts
        let calls = parts.map { transaction.send(call.query($0)) }
        var results: [Result<AppendResult, EventStoreError>] = []
        do {
            _ = try await pruned?.get()
            for (part, answer) in zip(parts, calls) { results += try AppendCall.results(try await answer.get().rows, for: part) }
        } catch {
            await transaction.rollback()
            throw error
        }

        // The answers made of the results, kept in the same commit (one per key: the first wins).
        var keepings: [Int: KeptAnswerRows.Keeping] = [:]
        var keys = Set<[UInt8]>()
        for (index, item) in call.items.enumerated() {
            guard let keep = item.keep, case .success(let result) = results[index], let answer = keep.make(result),
                  KeptAnswerRows.problem(key: keep.key, answer: answer) == nil, keys.insert(keep.key).inserted else { continue }
            keepings[index] = KeptAnswerRows.Keeping(key: keep.key, answer: answer)
        }
        let kept = keepings.isEmpty ? nil : transaction.send(
            KeptAnswerRows.keep(keepings.keys.sorted().map { keepings[$0]! }, expiringBefore: cutoff ?? 0))

        let outcome: Transaction.CommitOutcome
        do {
            outcome = try await transaction.commit(begun: begun, gate: gate, timeout: timeout)
        } catch {
            // A refused keeping aborted the transaction: its own error says why.
            if let kept { _ = try await kept.get() }
            throw error
        }
        switch outcome {
        case .committed:
            let standing = try KeptAnswerRows.decode(try await kept?.get().rows ?? [])
            return .committed(Self.results(results, call.items, keepings, standing: standing))
        case .inDoubt(let cause):
            return .inDoubt(results, keepings, cutoff: cutoff ?? 0, cause: "\(PostgresErrors.mapped(cause))")
        }
    }

    /// Asks the log, until it answers or the timeout passes, whether the commit whose answer was
    /// lost was made.
    private func resolve(
        _ results: [Result<AppendResult, EventStoreError>], _ keepings: [Int: KeptAnswerRows.Keeping], cutoff: Int64, cause: String
    ) async throws -> [KeepingAppendResult] {
        // The first event of every request the call wrote, and where the call put it.
        var written: [UUID: Int64] = [:]
        for (index, result) in results.enumerated() {
            if case .success(let result) = result, !result.alreadyWritten, let first = call.items[index].request.events.first {
                written[first.eventId] = Int64(clamping: result.firstPosition.rawValue)
            }
        }
        let ids = Array(written.keys)
        let keys = keepings.values.map(\.key)
        let (client, logger) = (self.client, self.logger)
        let deadline = ContinuousClock.now + timeout
        var failure = cause
        while ContinuousClock.now < deadline {
            do {
                let (found, standing) = try await withDeadline(deadline - ContinuousClock.now, "ask whether a commit was made") {
                    try await client.withConnection { connection in
                        // The head's lock waits for the transaction to end, if its backend still runs.
                        try await connection.rows("SELECT 1 FROM logbook.head WHERE id FOR SHARE", logger: logger)
                        var found: [UUID: Int64] = [:]
                        if !ids.isEmpty {
                            let query: PostgresQuery = "SELECT event_id, position FROM logbook.events WHERE event_id = ANY(\(ids))"
                            for row in try await connection.rows(query, logger: logger) {
                                let (id, position) = try row.decode((UUID, Int64).self)
                                found[id] = position
                            }
                        }
                        let standing = keys.isEmpty ? [:] : try KeptAnswerRows.decode(
                            try await connection.rows(KeptAnswerRows.standing(keys, keptSince: cutoff), logger: logger))
                        return (found, standing)
                    }
                }
                guard written.allSatisfy({ found[$0.key] == $0.value }) else {
                    throw NotCommitted()
                }
                logger.notice("PostgreSQL went away while an append was committing; the log shows the commit was made", metadata: ["cause": "\(cause)"])
                return Self.results(results, call.items, keepings, standing: standing)
            } catch is NotCommitted {
                throw EventStoreError.unavailable("PostgreSQL went away while the append was committing, and the commit was not made: nothing was written (\(cause))")
            } catch {
                failure = "\(PostgresErrors.mapped(error))"
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        throw EventStoreError.unavailable(
            "PostgreSQL went away while the append was committing (\(cause)) and could not be asked within \(timeout) whether the commit was made "
                + "(\(failure)): the events may or may not have been written; retrying with the same event ids is safe")
    }

    /// The results told for `items`: each with the answer that stands under its key, if it kept one.
    private static func results(
        _ results: [Result<AppendResult, EventStoreError>], _ items: [AppendCall.Item], _ keepings: [Int: KeptAnswerRows.Keeping],
        standing: [[UInt8]: KeptAnswer]
    ) -> [KeepingAppendResult] {
        results.enumerated().map { index, result in
            guard let key = items[index].keep?.key, case .success = result, let answer = standing[key] else {
                return KeepingAppendResult(result: result)
            }
            return KeepingAppendResult(result: result, kept: answer, keptByThisAppend: keepings[index]?.answer == answer)
        }
    }

    /// The log shows that a commit in doubt was not made.
    private struct NotCommitted: Error {}
}
