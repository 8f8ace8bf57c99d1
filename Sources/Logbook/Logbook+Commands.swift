import EventLog
import Foundation

extension Logbook {
    /// Decides `command` against the current read models and appends its events. A rejected
    /// command throws ``LogbookError`` naming the rule and writes nothing. Commands of one user
    /// are decided one at a time; if another writer changed the stream meanwhile, the command is
    /// decided again (unless the caller pinned an expected version).
    @discardableResult
    public func execute(_ command: Command, context: CommandContext = .init()) async throws -> CommandResult {
        if case .eraseUser(let user) = command { return try await erase(user: user, context: context) }
        let results = try await execute(batch: [(command, context)])
        return try results[0].get()
    }

    /// Decides commands of different users together and appends them in one commit (the
    /// order of the batch is the order in the log). Each command gets its own result. Two
    /// commands with the same lock key (the same user, or two catalog changes) must not share a
    /// batch.
    public func execute(batch: [(Command, CommandContext)]) async throws -> [Result<CommandResult, LogbookError>] {
        let keys = batch.map(\.0.lockKey)
        if batch.contains(where: { if case .eraseUser = $0.0 { true } else { false } }) {
            throw LogbookError.invalidArgument(name: "batch", reason: "an erasure runs alone: execute(.eraseUser(user:)) or erase(user:)")
        }
        guard Set(keys).count == keys.count else {
            throw LogbookError.invalidArgument(name: "batch", reason: "two commands for the same user or the catalog in one batch")
        }
        return try await withLocks(keys.sorted()) { try await self.run(batch, keepingAnswers: true) }
    }

    /// Decides and appends one command under its lock, as a batch of its own would be (the
    /// append half of an erasure, whose keyed answer is kept only once the erasure is finished).
    func decideAndAppendAlone(_ command: Command, _ context: CommandContext) async throws -> CommandResult {
        try await withLocks([command.lockKey]) { try await self.run([(command, context)], keepingAnswers: false) }[0].get()
    }

    private func withLocks<R: Sendable>(_ keys: [String], _ body: () async throws -> R) async throws -> R {
        guard let first = keys.first else { return try await body() }
        return try await locks.withLock(first) { try await withLocks(Array(keys.dropFirst()), body) }
    }

    /// Answers repeats, decides, appends and maps the log's answers, deciding again the commands
    /// whose stream another writer moved in between. With `keepingAnswers`, the answers of keyed
    /// requests being performed are kept in the commit of their events (on a shared log).
    private func run(_ batch: [(Command, CommandContext)], keepingAnswers: Bool) async throws -> [Result<CommandResult, LogbookError>] {
        var results = [Result<CommandResult, LogbookError>?](repeating: nil, count: batch.count)
        var pending: [Int] = []
        for index in batch.indices {
            if let original = try await originalResult(of: batch[index].0, batch[index].1) {
                results[index] = original
            } else {
                pending.append(index)
            }
        }
        for attempt in 0...configuration.retriesOnConflict where !pending.isEmpty {
            // Another writer (another server) keeps winning the stream: back off a random while,
            // doubling up to 256 ms, so the two stop colliding in step (all 10 retries wait at
            // most 511.75 ms in all).
            if attempt > 0 { try await Task.sleep(for: .microseconds(Int.random(in: 0...(250 << min(attempt, 10))))) }
            var appends: [(index: Int, request: AppendRequest, workoutId: String?)] = []
            let plans = try await decide(batch, pending)
            // A shared log's keys are loaded (and new users' made, committed) before sealing.
            try await payloads.prepare(plans.lazy.flatMap(Self.subjects), creating: true)
            for (index, plan) in plans {
                switch plan {
                case .answered(let result): results[index] = .success(result)
                case .refused(let error): results[index] = .failure(error)
                case .append(var request, let workoutId):
                    // Keys are made durable here, before the events they encrypt are appended.
                    do throws(LogbookError) {
                        try payloads.seal(&request)
                        appends.append((index, request, workoutId))
                    } catch {
                        results[index] = .failure(error)
                    }
                }
            }
            pending = []
            guard !appends.isEmpty else { break }
            let outcomes = try await append(appends.map { ($0.request, batch[$0.index].0, $0.workoutId) }, keepingAnswers: keepingAnswers)
            var written: UInt64 = 0
            for (append, outcome) in zip(appends, outcomes) {
                let (command, context) = batch[append.index]
                if case .success(let result) = outcome { written = max(written, result.lastPosition.rawValue) }
                if let result = Self.result(of: outcome, command, context, workoutId: append.workoutId, mayRetry: attempt < configuration.retriesOnConflict) {
                    results[append.index] = result
                } else {
                    pending.append(append.index)
                }
            }
            // Read your writes: the answer waits (bounded) until the read models hold what it
            // wrote. A wait that runs out still answers: the write is committed, and its answer
            // carries the position a later read can name as minPosition.
            if written > 0 { _ = try? await host.waitUntilFolded(written) }
        }
        return results.map { $0 ?? .failure(.conflict(stream: "", reason: "gave up after repeated conflicts")) }
    }

    /// Appends `appends` (each with the command it came from and its workout), keeping in the
    /// same commit the answers of the keyed requests being performed whose first event they carry.
    private func append(
        _ appends: [(request: AppendRequest, command: Command, workoutId: String?)], keepingAnswers: Bool
    ) async throws -> [Result<AppendResult, EventStoreError>] {
        let requests = appends.map(\.request)
        guard keepingAnswers, let shared = log as? any SharedLog, let keeper = keptAnswers as? SharedRequestKeys else {
            return try await log.append(batch: requests)
        }
        let calls = keyedCalls.withLock { calls in appends.map { $0.request.events.first.flatMap { calls[$0.eventId] } } }
        guard calls.contains(where: { $0?.respond != nil }) else { return try await log.append(batch: requests) }
        let cutoff = keeper.cutoff()
        let keeping: [AnswerToKeep?] = zip(appends, calls).map { append, call in
            guard let call, let respond = call.respond else { return nil }
            let (command, workoutId) = (append.command, append.workoutId)
            let types = append.request.events.map(\.type)
            return AnswerToKeep(key: call.request.storageKey, expiringBefore: cutoff) { result in
                let commandResult = Self.commandResult(result, command, workoutId: workoutId)
                guard let response = try? respond(commandResult, types), (200..<300).contains(response.status) else { return nil }
                return keeper.answer(response, for: call.request)
            }
        }
        let outcomes = try await shared.append(batch: requests, keeping: keeping)
        for (outcome, call) in zip(outcomes, calls) {
            if let call, let kept = outcome.kept { call.recordKept(SharedRequestKeys.entry(kept), byThisCall: outcome.keptByThisAppend) }
        }
        return outcomes.map(\.result)
    }

    /// The users whose events `plan` appends.
    private static func subjects(_ plan: (Int, Plan)) -> [String] {
        guard case .append(let request, _) = plan.1 else { return [] }
        return request.events.compactMap(\.subject)
    }

    /// What deciding one command came to.
    private enum Plan {
        /// Nothing to write: the answer is known (a repeated import).
        case answered(CommandResult)
        /// A rule or an argument refused the command.
        case refused(LogbookError)
        /// Events to append.
        case append(AppendRequest, workoutId: String?)
    }

    /// Decides the commands at `indices` against one consistent view of the read models.
    private func decide(_ batch: [(Command, CommandContext)], _ indices: [Int]) async throws -> [(Int, Plan)] {
        let streams = indices.map { batch[$0].0.stream }
        let subjects = indices.compactMap { batch[$0].0.user }
        // Whether a user was erased, for a shared log: as its key table says when they were loaded.
        try await payloads.prepare(subjects, creating: false)
        var repeatedImports: [(index: Int, stream: String, workoutId: String?)] = []
        var plans = try await withWholeDecisionView(streams: streams, subjects: subjects) { view -> [(Int, Plan)] in
            var decider = Decider(state: view.state, now: .init(microsecondsSinceEpoch: 0))
            var plans: [(Int, Plan)] = []
            for index in indices {
                let (command, context) = batch[index]
                decider.now = now(context)
                do throws(LogbookError) {
                    if let user = command.user, try isErased(user) {
                        throw .ruleViolation(rule: .userErased, message: "user \"\(user)\" was erased: nothing more is recorded for them")
                    }
                    let decision = try decider.decide(command)
                    if let existing = decision.existingWorkout {
                        repeatedImports.append((index, "workout-\(existing)", existing))
                        continue
                    }
                    let current = view.version(of: command.stream)
                    if decision.beginsWorkout, current != nil {
                        // A workout's id is never used again, not even an erased user's; the message
                        // is the one of a workout there, so it tells no one whose id it was.
                        throw .ruleViolation(rule: .workoutExists, message: "workout \(decision.workoutId ?? "") already exists")
                    }
                    if decision.events.isEmpty {
                        // Accepted with nothing to change (a catalog import of what is there), unless
                        // the caller pinned a version the stream is not at (as an append would refuse).
                        if let expected = context.expectedVersion, expected != current {
                            throw .versionConflict(stream: command.stream, expected: expected, current: current)
                        }
                        repeatedImports.append((index, command.stream, nil))
                        continue
                    }
                    let expected: ExpectedVersion = context.expectedVersion.map { .exactly($0) } ?? current.map { .exactly($0) } ?? .noStream
                    let request = AppendRequest(
                        stream: command.stream, events: proposed(decision, command: command, context: context), expectedVersion: expected,
                        subjectCondition: view.condition(for: command.user))
                    plans.append((index, .append(request, workoutId: decision.workoutId)))
                } catch {
                    plans.append((index, .refused(error)))
                }
            }
            return plans
        }
        for (index, stream, workoutId) in repeatedImports {
            let version = try await log.streamVersion(stream) ?? 0
            plans.append((index, Plan.answered(CommandResult(
                stream: stream, firstPosition: 0, lastPosition: 0, streamVersion: version, alreadyApplied: true, workoutId: workoutId))))
        }
        return plans
    }

    /// The host's decision view, once the read models the rules read are whole in it: while a
    /// rebuild in place owns one of them it holds part of the log, and a command judged on it
    /// could be refused for a registration not folded yet, or accepted against a rule the rest of
    /// the history breaks. Such a command waits for the rebuild to end, as long as a decision
    /// waits for read models that follow a log, then is refused as not caught up; at once if no
    /// rebuild is running for them (one failed or was cancelled: until they are rebuilt again,
    /// or the store reopens and resumes it).
    private func withWholeDecisionView<R>(
        streams: [String], subjects: [String], _ body: (inout DecisionView) throws -> R
    ) async throws -> R {
        let deadline = ContinuousClock.now + configuration.readYourWritesTimeout
        while true {
            // Asked of memory first: a shared log's view costs reads of the log.
            if control.snapshot.rebuilding.isDisjoint(with: ReadModelState.kinds),
               let decided: R = try await host.withDecisionView(streams: streams, subjects: subjects, { view in
                   view.whole ? try body(&view) : nil
               }) {
                return decided
            }
            let state = control.snapshot
            let partial = state.rebuilding.intersection(ReadModelState.kinds)
            let abandoned = partial.subtracting(state.running)
            if !abandoned.isEmpty {
                throw LogbookError.notCaughtUp(
                    position: try await log.headPosition().rawValue,
                    reason: "read models \(abandoned.sorted().map(\.rawValue)) that commands are judged against hold part of the log: "
                        + "their rebuild did not finish; rebuild them, or reopen the store to resume it")
            }
            guard ContinuousClock.now < deadline else {
                throw LogbookError.notCaughtUp(
                    position: try await log.headPosition().rawValue,
                    reason: partial.isEmpty
                        ? "the read models commands are judged against are catching up after a rebuild; try again"
                        : "a rebuild owns read models \(partial.sorted().map(\.rawValue)) that commands are judged against; try again when it has finished")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The command's result from the log's answer, or nil to decide it again (another writer
    /// moved its stream between the decision and the append, and the caller pinned no version).
    private static func result(
        of outcome: Result<AppendResult, EventStoreError>, _ command: Command, _ context: CommandContext, workoutId: String?,
        mayRetry: Bool
    ) -> Result<CommandResult, LogbookError>? {
        switch outcome {
        case .success(let result):
            return .success(commandResult(result, command, workoutId: workoutId))
        case .failure(let error) where error.code == .subjectMoved:
            // Another server wrote for the same user after the decision read its state: decide again.
            if mayRetry { return nil }
            return .failure(.conflict(stream: command.stream, reason: "the user's history kept moving while the command was decided"))
        case .failure(let error) where error.code == .wrongExpectedVersion:
            if let pinned = context.expectedVersion {
                return .failure(.versionConflict(stream: command.stream, expected: pinned, current: error.actualVersion))
            }
            if mayRetry { return nil }
            return .failure(.conflict(
                stream: command.stream,
                reason: "expected version \(error.expectedVersion.map(String.init(describing:)) ?? "?"), the stream is at \(error.actualVersion.map(String.init) ?? "no stream")"))
        case .failure(let error):
            return .failure(.log(error))
        }
    }

    /// The result of `command` whose append answered `result`.
    private static func commandResult(_ result: AppendResult, _ command: Command, workoutId: String?) -> CommandResult {
        CommandResult(
            stream: command.stream, firstPosition: result.firstPosition.rawValue, lastPosition: result.lastPosition.rawValue,
            streamVersion: result.streamVersion, alreadyApplied: result.alreadyWritten, workoutId: workoutId)
    }

    /// If the caller's event id is already in the log, the command was applied before: its
    /// original result, without deciding again, however much was written since. An id used by an
    /// event of another stream is refused, naming where it lives.
    private func originalResult(of command: Command, _ context: CommandContext) async throws -> Result<CommandResult, LogbookError>? {
        guard let eventId = context.eventId, let original = try await log.location(ofEvent: eventId) else { return nil }
        guard original.stream == command.stream else {
            return .failure(.log(.eventIdInUse(
                eventId, stream: original.stream, position: original.position,
                reason: "the command's event id names an event of another stream")))
        }
        // A command's events are appended together (consecutive positions and versions). How many
        // there are is a function of the command, or, for a generated plan, of the state it was
        // decided in: then the stream says, each following event's id derived from the first.
        let more: UInt64
        if let count = command.eventCount {
            more = UInt64(count - 1)
        } else {
            var following: UInt64 = 0
            while true {
                let page = try await log.readStream(original.stream, from: original.streamVersion + following + 1, direction: .forward, limit: 4096)
                let derived = page.enumerated().prefix {
                    $0.element.eventId == DerivedIds.following(eventId, index: Int(following) + $0.offset + 1)
                }.count
                following += UInt64(derived)
                if derived < 4096 { break }
            }
            more = following
        }
        return .success(CommandResult(
            stream: command.stream, firstPosition: original.position.rawValue, lastPosition: original.position.rawValue + more,
            streamVersion: original.streamVersion + more, alreadyApplied: true, workoutId: command.workoutId))
    }

    private func proposed(_ decision: Decision, command: Command, context: CommandContext) -> [ProposedEvent] {
        let recordedAt = context.recordAtNow ? now(context).utc : nil
        return decision.events.enumerated().map { index, item in
            var event = ProposedEvent(
                eventId: index == 0 ? (context.eventId ?? .timeOrdered()) : context.eventId.map { DerivedIds.following($0, index: index) } ?? .timeOrdered(),
                type: item.0.type.rawValue,
                schemaVersion: item.0.type.currentSchemaVersion, subject: command.user, occurredAt: item.occurredAt,
                recordedAt: recordedAt, correlationId: context.correlationId, causationId: context.causationId,
                payload: BinaryEventCodec.encode(item.0))
            event.decoded = item.0
            return event
        }
    }
}

extension Logbook {
    /// True if `user` was erased (typed: a damaged key store is a storage error).
    func isErased(_ user: String) throws(LogbookError) -> Bool {
        do {
            return try payloads.isErased(user)
        } catch let error as LogbookError {
            throw error
        } catch {
            throw .storage("the key store: \(error)")
        }
    }
}

extension Command {
    /// How many events the command writes when it is accepted (a track adds one per part); nil
    /// when that depends on the state it is decided in (a generated plan).
    var eventCount: Int? {
        switch self {
        case .importWorkout(_, _, let track?): 1 + WorkoutTrackRecorded.partCount(points: track.points)
        case .recordTrack(_, _, let track): WorkoutTrackRecorded.partCount(points: track.points)
        case .generatePlan, .importPlaces: nil
        default: 1
        }
    }

    /// The workout a workout command concerns.
    var workoutId: String? {
        switch self {
        case .pauseWorkout(_, let id, _), .resumeWorkout(_, let id, _), .recordTrack(_, let id, _): id
        case .importWorkout(_, let e, _): e.workoutId
        case .record(_, let event): event.workoutId
        case .importPlaces, .eraseUser, .changePlannedWorkout, .generatePlan: nil
        }
    }
}

extension Timestamp {
    /// The same instant written in UTC.
    var utc: Timestamp { Timestamp(microsecondsSinceEpoch: microsecondsSinceEpoch) }
}
