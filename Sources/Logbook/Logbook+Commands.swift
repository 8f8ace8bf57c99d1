import EventLog
import Foundation
import LMDB

extension Logbook {
    /// Decides `command` against the current read models and appends its events. A rejected
    /// command throws ``LogbookError`` naming the rule and writes nothing. Commands of one user
    /// are decided one at a time; if another writer changed the stream meanwhile, the command is
    /// decided again (unless the caller pinned an expected version).
    @discardableResult
    public func execute(_ command: Command, context: CommandContext = .init()) async throws -> CommandResult {
        let results = try await execute(batch: [(command, context)])
        return try results[0].get()
    }

    /// Decides commands of different users together and appends them in one commit (the
    /// order of the batch is the order in the log). Each command gets its own result. Two
    /// commands with the same lock key (the same user, or two catalog changes) must not share a
    /// batch.
    public func execute(batch: [(Command, CommandContext)]) async throws -> [Result<CommandResult, LogbookError>] {
        let keys = batch.map(\.0.lockKey)
        guard Set(keys).count == keys.count else {
            throw LogbookError.invalidArgument(name: "batch", reason: "two commands for the same user or the catalog in one batch")
        }
        return try await withLocks(keys.sorted()) { try await self.decideAndAppend(batch) }
    }

    private func withLocks<R: Sendable>(_ keys: [String], _ body: () async throws -> R) async throws -> R {
        guard let first = keys.first else { return try await body() }
        return try await locks.withLock(first) { try await withLocks(Array(keys.dropFirst()), body) }
    }

    private func decideAndAppend(_ batch: [(Command, CommandContext)]) async throws -> [Result<CommandResult, LogbookError>] {
        var results = [Result<CommandResult, LogbookError>?](repeating: nil, count: batch.count)
        var pending = Array(batch.indices)
        for attempt in 0...configuration.retriesOnConflict {
            var requests: [AppendRequest] = []
            var slots: [(index: Int, workoutId: String?)] = []
            try log.withSnapshot { snapshot in
                var decider = Decider(projections: readModels.projectionSet(), txn: snapshot.transaction, now: .init(microsecondsSinceEpoch: 0))
                for index in pending {
                    let (command, context) = batch[index]
                    decider.now = now(context)
                    do {
                        if let repeated = try repeatedCommand(command, context, snapshot) {
                            results[index] = .success(repeated)
                            continue
                        }
                        let decision = try decider.decide(command)
                        if let existing = decision.existingWorkout {
                            let version = try snapshot.streamVersion("workout-\(existing)") ?? 0
                            results[index] = .success(CommandResult(
                                stream: "workout-\(existing)", firstPosition: 0, lastPosition: 0, streamVersion: version,
                                alreadyApplied: true, workoutId: existing))
                            continue
                        }
                        let current = try snapshot.streamVersion(command.stream)
                        let expected: ExpectedVersion = context.expectedVersion.map { .exactly($0) } ?? current.map { .exactly($0) } ?? .noStream
                        requests.append(AppendRequest(
                            stream: command.stream, events: proposed(decision, command: command, context: context), expectedVersion: expected))
                        slots.append((index, decision.workoutId))
                    } catch let error as LogbookError {
                        results[index] = .failure(error)
                    }
                }
            }
            guard !requests.isEmpty else { break }
            let appended = try await log.append(batch: requests)
            pending = []
            for (slot, outcome) in zip(slots, appended) {
                switch outcome {
                case .success(let result):
                    results[slot.index] = .success(CommandResult(
                        stream: batch[slot.index].0.stream, firstPosition: result.firstPosition.rawValue,
                        lastPosition: result.lastPosition.rawValue, streamVersion: result.streamVersion,
                        alreadyApplied: result.alreadyWritten, workoutId: slot.workoutId))
                case .failure(.wrongExpectedVersion) where batch[slot.index].1.expectedVersion == nil && attempt < configuration.retriesOnConflict:
                    // Another writer moved the stream between decision and append: decide again.
                    pending.append(slot.index)
                case .failure(.wrongExpectedVersion(let stream, let expected, let actual)):
                    if let pinned = batch[slot.index].1.expectedVersion {
                        results[slot.index] = .failure(.versionConflict(stream: stream, expected: pinned, current: actual))
                    } else {
                        results[slot.index] = .failure(.conflict(
                            stream: stream, reason: "expected version \(expected), the stream is at \(actual.map(String.init) ?? "no stream")"))
                    }
                case .failure(let error):
                    results[slot.index] = .failure(.log(error))
                }
            }
            if pending.isEmpty { break }
        }
        return results.map { $0 ?? .failure(.conflict(stream: "", reason: "gave up after repeated conflicts")) }
    }

    /// If the caller's event id is already in the command's stream, the command was applied
    /// before: answer its original result instead of deciding again.
    private func repeatedCommand(_ command: Command, _ context: CommandContext, _ snapshot: borrowing LogSnapshot) throws -> CommandResult? {
        guard let eventId = context.eventId,
              let original = try snapshot.recentEvent(eventId, in: command.stream, window: 8) else { return nil }
        // Every command writes one event, so the event found is the whole original result.
        return CommandResult(
            stream: command.stream, firstPosition: original.position.rawValue, lastPosition: original.position.rawValue,
            streamVersion: original.streamVersion, alreadyApplied: true, workoutId: command.workoutId)
    }

    private func proposed(_ decision: Decision, command: Command, context: CommandContext) -> [ProposedEvent] {
        let recordedAt = context.recordAtNow ? now(context).utc : nil
        return decision.events.enumerated().map { index, item in
            var event = ProposedEvent(
                eventId: index == 0 ? (context.eventId ?? UUID()) : UUID(), type: item.0.type.rawValue,
                schemaVersion: item.0.type.currentSchemaVersion, subject: command.user, occurredAt: item.occurredAt,
                recordedAt: recordedAt, correlationId: context.correlationId, causationId: context.causationId,
                payload: BinaryEventCodec.encode(item.0))
            event.decoded = item.0
            return event
        }
    }
}

extension Command {
    /// The workout a workout command concerns.
    var workoutId: String? {
        switch self {
        case .startWorkout(_, let e): e.workoutId
        case .pauseWorkout(_, let id, _), .resumeWorkout(_, let id, _), .discardWorkout(_, let id), .deleteWorkout(_, let id): id
        case .finishWorkout(_, let e): e.workoutId
        case .importWorkout(_, let e): e.workoutId
        case .editWorkout(_, let e): e.workoutId
        default: nil
        }
    }
}

extension Timestamp {
    /// The same instant written in UTC.
    var utc: Timestamp { Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch) }
}
