import EventLog
import LMDB

/// The writer thread's own state and the commit of one batch.
final class WriterLoop {
    let environment: Environment
    let databases: LogDatabases
    /// Moved into each transaction's session and back after it; left dirty if it failed.
    var state: WriterState
    let clock: any LogClock
    let watcher: HeadWatcher
    let statistics: WriterStatistics
    let observerSlot: ObserverSlot
    let journal: IdJournal

    init(
        environment: Environment, databases: LogDatabases, configuration: LogConfiguration, watcher: HeadWatcher,
        statistics: WriterStatistics, observer: ObserverSlot, journal: IdJournal
    ) {
        self.observerSlot = observer
        self.journal = journal
        self.environment = environment
        self.databases = databases
        self.state = WriterState(capacity: configuration.writerCacheCapacity)
        self.clock = configuration.clock
        self.watcher = watcher
        self.statistics = statistics
    }

    /// Commits `jobs` in one transaction (one `fsync` in durable mode) and answers every caller:
    /// each append its own result, or every one of them the storage failure that aborted it.
    func commit(_ jobs: [WriteJob]) {
        let recordedAt = clock.now()
        let observer = observerSlot.current
        let started = ContinuousClock.now
        do {
            let outcome = try environment.write { txn in try write(jobs, recordedAt: recordedAt, observer: observer, in: txn) }
            state.committed()
            if outcome.folded {
                journal.folded(through: state.headPosition)
            } else if !outcome.journalEntries.isEmpty {
                journal.record(outcome.journalEntries, through: state.headPosition)
            }
            if outcome.events > 0 { observer?.logDidCommit() }
            watcher.publish(state.headPosition)
            statistics.record(events: outcome.events, appends: outcome.appends, rejected: outcome.rejected, duration: ContinuousClock.now - started)
            for (job, result) in zip(jobs, outcome.results) { job.continuation.resume(returning: result) }
        } catch {
            observer?.logDidAbort()
            for job in jobs { job.continuation.resume(throwing: error) }
        }
    }

    /// What one transaction did, for the callers and the statistics.
    private struct Outcome {
        var results: [WriteJob.Results] = []
        var events = 0
        var appends = 0
        var rejected = 0
        /// The transaction's journal entries, and whether it folded the journal.
        var journalEntries: [(UUIDKey, UInt64)] = []
        var folded = false
    }

    /// One attempt at the transaction; it runs again from the committed state if the map grew.
    private func write(
        _ jobs: [WriteJob], recordedAt: Timestamp, observer: (any LogCommitObserver)?, in txn: WriteTransaction
    ) throws -> Outcome {
        try txn.withCursor(databases.events) { events in
          try txn.withCursor(databases.orderedIds) { orderedIds in
          try txn.withCursor(databases.idJournal) { idJournal in
            // Move the state in; if this attempt throws, a fresh (dirty) state takes its place.
            let taken = state
            state = WriterState(capacity: taken.capacity)
            var session = try AppendSession(
                txn: txn, events: events, databases: databases, state: taken, recordedAt: recordedAt,
                recordsEvents: observer != nil, journal: journal, orderedIds: orderedIds, idJournal: idJournal)
            // Most ids of a batch join the transaction's run of time-ordered ids: room for them
            // all at once instead of a dozen copies of a growing list.
            session.runIds.reserveCapacity(jobs.reduce(0) { $0 + $1.eventCount })
            var outcome = Outcome()
            outcome.results.reserveCapacity(jobs.count)
            for job in jobs { outcome.results.append(try apply(job, to: &session, counting: &outcome)) }
            try session.finish()
            if let observer, session.eventsWritten > 0 {
                try observer.logWillCommit(CommittedBatch(events: session.written), in: txn)
            }
            state = session.state
            outcome.events = session.eventsWritten
            outcome.journalEntries = session.journalEntries
            outcome.folded = session.folded
            return outcome
          }
          }
        }
    }

    /// Applies one caller's appends, and its checkpoints if none of them was refused.
    private func apply(_ job: WriteJob, to session: inout AppendSession, counting outcome: inout Outcome) throws -> WriteJob.Results {
        var results: WriteJob.Results = []
        results.reserveCapacity(job.batch.appends.count)
        for append in job.batch.appends { results.append(try session.apply(append, of: job.batch)) }
        let rejected = results.count { if case .failure = $0 { true } else { false } }
        if rejected == 0 {
            for checkpoint in job.checkpoints { try session.store(checkpoint) }
        }
        outcome.appends += results.count
        outcome.rejected += rejected
        return results
    }
}
