public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// The commands one signed-in user made, kept on disk until the server has answered them, so
/// that going offline, a crash or a kill of the app neither loses nor repeats one.
///
/// Give each user a journal of their own (`Client(logbook:tokens:cache:journal:)`). Every
/// command call (a method other than `GET` and `HEAD`) then goes through it:
///
/// 1. The request is written to the journal's file and flushed to the disk before anything is
///    sent, with an `Idempotency-Key` made once (or the one the call set). The bearer token is
///    not kept; it is added when the command is sent.
/// 2. One sender sends the journaled commands in order, one at a time. After a transport error,
///    a `5xx`, `401`, `408`, `425` or `429` it waits (``Backoff``, or the answer's `Retry-After`)
///    and sends the same command again under the same key: the server answers a retry of a
///    command it already applied with that command's answer and writes nothing.
/// 3. Any other `4xx` is the command's own fault: it is not sent again and the next command goes
///    on. When its call is still waiting, the call gets the answer; otherwise the journal keeps
///    the command with the server's problem (``CommandJournalStatus/refused``) until the app
///    ``discard(_:)``s it.
/// 4. A command leaves the journal only once the server has answered it.
///
/// The call waits up to ``answerWait`` for its answer and then throws ``CommandQueued``: the
/// command stays journaled and is sent when the server can be reached (``retryNow()`` skips the
/// wait between tries, for when the app learns the network is back).
///
/// The file holds at most ``Limits/commands`` commands in ``Limits/bytes``; past that a command
/// call throws ``CommandJournalError/full(commands:bytes:limits:)`` and nothing is journaled.
public actor CommandJournal {
    /// What a journal may hold.
    public struct Limits: Sendable, Hashable {
        /// Commands kept at most (waiting and refused).
        public var commands: Int
        /// Bytes of kept commands at most (the file grows to twice this before it is compacted).
        public var bytes: Int
        /// The longest command body, and the longest answer handed to a waiting call.
        public var bodyBytes: Int

        /// 1,000 commands in 4 MiB, bodies up to 1 MiB.
        public init(commands: Int = 1_000, bytes: Int = 4 << 20, bodyBytes: Int = 1 << 20) {
            (self.commands, self.bytes, self.bodyBytes) = (max(1, commands), max(1 << 12, bytes), max(1, min(bodyBytes, bytes)))
        }
    }

    /// How long the sender waits between tries of a command the server did not answer.
    public struct Backoff: Sendable, Hashable {
        /// The first wait; each next one doubles, up to ``longest``.
        public var first: Duration
        public var longest: Duration

        /// 0.2 s, doubling up to 30 s.
        public init(first: Duration = .milliseconds(200), longest: Duration = .seconds(30)) {
            (self.first, self.longest) = (max(first, .milliseconds(1)), max(first, longest))
        }
    }

    /// What a call waiting for its command's answer is given.
    private enum Delivery: Sendable {
        case answered(HTTPResponse, [UInt8])
        case stillQueued
    }

    public let limits: Limits
    public let backoff: Backoff
    /// How long a command's call waits for the answer before it throws ``CommandQueued``.
    public let answerWait: Duration

    private var file: JournalFile
    /// Commands not yet answered, and refused ones, in sequence order.
    private var kept: [JournaledCommand] = []
    /// The bytes each kept command's line takes, and their sum.
    private var keptBytes: [UInt64: Int] = [:]
    private var keptTotal = 0
    private var nextSequence: UInt64 = 1
    private var counts = CommandJournalStatus.Counts()
    private var lastFailure: String?

    private var sender: JournalSender?
    private var drain: Task<Void, Never>?
    private var wakeUp: CheckedContinuation<Void, Never>?
    private var pause: Task<Void, Never>?
    private var waiting: [UInt64: CheckedContinuation<Delivery, Never>] = [:]
    /// The timers that give up on a waiting call after ``answerWait``.
    private var timers: [UInt64: Task<Void, Never>] = [:]
    private var drainedWaiters: [CheckedContinuation<Void, Never>] = []
    private var stopped = false

    /// Opens (or creates) the journal in the file at `file`, with the commands a previous run left
    /// there: they are sent first, in their order.
    public init(file: URL, limits: Limits = Limits(), backoff: Backoff = Backoff(), answerWait: Duration = .seconds(10)) throws(CommandJournalError) {
        self.limits = limits
        self.backoff = backoff
        self.answerWait = answerWait
        let file = try JournalFile(path: file.path)
        var byNumber: [UInt64: JournaledCommand] = [:]
        var next: UInt64 = 1
        for record in try file.records() {
            switch record {
            case .command(let command):
                byNumber[command.sequence] = command
                next = max(next, command.sequence + 1)
            case .answered(let sequence), .discarded(let sequence):
                byNumber[sequence] = nil
            case .refused(let sequence, let refusal):
                byNumber[sequence]?.refusal = refusal
            case .next(let sequence):
                next = max(next, sequence)
            }
        }
        self.file = file
        nextSequence = next
        kept = byNumber.values.sorted { $0.sequence < $1.sequence }
        for command in kept { keptBytes[command.sequence] = try JournalFile.size(of: .command(command)) }
        keptTotal = keptBytes.values.reduce(0, +)
    }

    /// The commands kept and what the sender has done: the data of a settings screen.
    public func status() -> CommandJournalStatus {
        CommandJournalStatus(
            pending: kept.filter { $0.refusal == nil }, refused: kept.filter { $0.refusal != nil },
            fileBytes: file.bytes, nextSequence: nextSequence, lastFailure: lastFailure, counts: counts)
    }

    /// Forgets a refused command (the app has shown its problem to the user).
    public func discard(_ sequence: UInt64) throws(CommandJournalError) {
        guard let index = kept.firstIndex(where: { $0.sequence == sequence && $0.refusal != nil }) else { throw .noRefusedCommand(sequence) }
        try file.append([.discarded(sequence)])
        forget(at: index)
    }

    /// Sends the next command now instead of after the current wait between tries.
    public func retryNow() {
        pause?.cancel()
    }

    /// Returns once no command waits to be sent (refused ones stay).
    public func drained() async {
        guard !stopped, kept.contains(where: { $0.refusal == nil }) else { return }
        await withCheckedContinuation { drainedWaiters.append($0) }
    }

    /// Stops sending and closes the file (the commands stay journaled for the next run); the
    /// journal journals nothing more. Returns once the sender has stopped.
    public func stop() async {
        stopped = true
        let sending = drain
        drain = nil
        sending?.cancel()
        pause?.cancel()
        wakeUp?.resume()
        wakeUp = nil
        await sending?.value
        file.close()
        for (_, caller) in waiting { caller.resume(returning: .stillQueued) }
        waiting = [:]
        for (_, timer) in timers { timer.cancel() }
        timers = [:]
        for waiter in drainedWaiters { waiter.resume() }
        drainedWaiters = []
    }

    // MARK: Journaling a command

    /// Journals a command made by `operation`; answers its sequence number.
    private func journal(_ request: HTTPRequest, body: [UInt8]?, operation: String) throws(CommandJournalError) -> UInt64 {
        guard !stopped else { throw .closed(file.path) }
        let fields = request.headerFields.filter { $0.name != .authorization }
        var command = JournaledCommand(
            sequence: nextSequence, operation: operation, method: request.method.rawValue, path: request.path ?? "/",
            headers: fields.map { .init(name: $0.name.canonicalName, value: $0.value) }, body: body.map { Data($0) },
            journaled: Date().timeIntervalSince1970, refusal: nil)
        if command.idempotencyKey == nil { command.headers.append(.init(name: "Idempotency-Key", value: UUID().uuidString)) }
        let size = try JournalFile.size(of: .command(command))
        guard kept.count < limits.commands, keptTotal + size <= limits.bytes else {
            throw .full(commands: kept.count, bytes: keptTotal, limits: limits)
        }
        if file.bytes + size > 2 * limits.bytes { try compact() }
        try file.append([.command(command)])
        nextSequence += 1
        kept.append(command)
        keptBytes[command.sequence] = size
        keptTotal += size
        wakeUp?.resume()
        wakeUp = nil
        return command.sequence
    }

    /// The answer to command `sequence`, if it comes within ``answerWait``.
    private func answer(to sequence: UInt64) async -> Delivery {
        guard answerWait > .zero else { return .stillQueued }
        let wait = answerWait
        return await withCheckedContinuation { continuation in
            waiting[sequence] = continuation
            timers[sequence] = Task { [weak self] in
                guard (try? await Task.sleep(for: wait)) != nil else { return }
                await self?.giveUp(on: sequence)
            }
        }
    }

    private func giveUp(on sequence: UInt64) {
        timers[sequence] = nil
        waiting.removeValue(forKey: sequence)?.resume(returning: .stillQueued)
    }

    // MARK: Sending

    /// Sends journaled commands through `sender` from now on.
    func attach(_ sender: JournalSender) {
        self.sender = sender
        guard drain == nil, !stopped else { return }
        drain = Task { [weak self] in _ = await self?.sendAll() }
    }

    private func sendAll() async {
        var delay = backoff.first
        while !Task.isCancelled {
            guard let sender, let command = kept.first(where: { $0.refusal == nil }) else {
                await withCheckedContinuation { wakeUp = $0 }
                continue
            }
            switch await sender.send(command, answerBytes: limits.bodyBytes) {
            case .answered(let response, let body) where Self.isRetried(response.status):
                counts.retries += 1
                lastFailure = "\(command.operation) was answered \(response.status.code); sent again later"
                let asked = response.headerFields[.retryAfter].flatMap { Int($0) }.map { Duration.seconds(min($0, 3600)) }
                await wait(asked.map { min(max($0, delay), backoff.longest) } ?? delay)
                delay = min(delay * 2, backoff.longest)
                _ = body
            case .answered(let response, let body):
                delay = backoff.first
                lastFailure = nil
                finish(command, response: response, body: body)
            case .failed(let reason):
                guard !Task.isCancelled else { return }
                counts.retries += 1
                lastFailure = "\(command.operation) could not be sent: \(reason)"
                await wait(delay)
                delay = min(delay * 2, backoff.longest)
            }
        }
    }

    /// Whether a command answered `status` is sent again (the server did not decide it).
    static func isRetried(_ status: HTTPResponse.Status) -> Bool {
        status.code >= 500 || [401, 408, 425, 429].contains(status.code)
    }

    /// Records the server's decision on `command` and hands it to the call still waiting, if any.
    private func finish(_ command: JournaledCommand, response: HTTPResponse, body: [UInt8]) {
        let caller = waiting.removeValue(forKey: command.sequence)
        timers.removeValue(forKey: command.sequence)?.cancel()
        let refused = !(200..<400).contains(response.status.code)
        let refusal = JournaledCommand.Refusal(status: response.status.code, problem: String(decoding: body, as: UTF8.self))
        let record: JournalRecord = refused && caller == nil ? .refused(command.sequence, refusal) : .answered(command.sequence)
        do {
            try file.append([record])
        } catch {
            // Kept as it was: sent again later, under its key, the server answers it as before.
            lastFailure = error.description
        }
        if refused { counts.refused += 1 } else { counts.answered += 1 }
        if let index = kept.firstIndex(where: { $0.sequence == command.sequence }) {
            if case .refused = record { kept[index].refusal = refusal } else { forget(at: index) }
        }
        caller?.resume(returning: .answered(response, body))
        if !kept.contains(where: { $0.refusal == nil }) {
            for waiter in drainedWaiters { waiter.resume() }
            drainedWaiters = []
        }
        if file.bytes > limits.bytes, file.bytes > 2 * keptTotal {
            do { try compact() } catch { lastFailure = error.description }
        }
    }

    private func forget(at index: Int) {
        keptTotal -= keptBytes.removeValue(forKey: kept[index].sequence) ?? 0
        kept.remove(at: index)
    }

    /// Rewrites the file with the kept commands alone.
    private func compact() throws(CommandJournalError) {
        try file.rewrite([.next(nextSequence)] + kept.map { .command($0) })
    }

    /// Waits `delay` between tries; ``retryNow()`` and stopping cut it short.
    private func wait(_ delay: Duration) async {
        guard !Task.isCancelled, !stopped else { return }
        let pause = Task { _ = try? await Task.sleep(for: delay) }
        self.pause = pause
        await withTaskCancellationHandler { await pause.value } onCancel: { pause.cancel() }
    }
}

extension CommandJournal: ClientMiddleware {
    nonisolated public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method != .get, request.method != .head else { return try await next(request, body, baseURL) }
        var bytes: [UInt8]?
        if let body {
            if case .known(let length) = body.length, length > limits.bodyBytes {
                throw CommandJournalError.commandTooLarge(operation: operationID, bytes: Int(clamping: length), limit: limits.bodyBytes)
            }
            do {
                bytes = try await [UInt8](collecting: body, upTo: limits.bodyBytes)
            } catch {
                throw CommandJournalError.commandTooLarge(operation: operationID, bytes: limits.bodyBytes + 1, limit: limits.bodyBytes)
            }
        }
        let sequence = try await journal(request, body: bytes, operation: operationID)
        switch await answer(to: sequence) {
        case .answered(let response, let body):
            return (response, HTTPBody(body))
        case .stillQueued:
            throw CommandQueued(sequence: sequence, operation: operationID)
        }
    }
}

/// What a ``CommandJournal`` holds and has done.
public struct CommandJournalStatus: Sendable, Hashable {
    /// What the sender has done since the journal was opened.
    public struct Counts: Sendable, Hashable {
        /// Commands the server applied (or answered as applied before).
        public var answered = 0
        /// Commands the server refused as their own fault.
        public var refused = 0
        /// Tries that got no decision (a transport error, `5xx`, `401`, `408`, `425`, `429`).
        public var retries = 0
    }

    /// Commands waiting to be sent, in the order they will be.
    public var pending: [JournaledCommand]
    /// Commands the server refused whose answer no call took, with the server's problem.
    public var refused: [JournaledCommand]
    /// The journal file's length.
    public var fileBytes: Int
    /// The sequence number the next command gets.
    public var nextSequence: UInt64
    /// Why the last try got no decision (nil: it did, or there was none).
    public var lastFailure: String?
    public var counts: Counts
}
