import EventLog
@testable import LogbookWebhooks
import Testing

/// The dispatcher's bookkeeping of its webhooks alone: worker generations, when a checkpoint is
/// stored, dead letters and the webhook pausing itself.
@Suite("Webhook deliveries")
struct WebhookDeliveriesTests {
    static func deliveries(everyBatches: Int = 3, maxDeadLetters: Int = 3) -> WebhookDeliveries {
        var policy = WebhookPolicy()
        policy.checkpointEveryBatches = everyBatches
        policy.skippedCheckpointInterval = .seconds(1)
        policy.limits.maxDeadLetters = maxDeadLetters
        return WebhookDeliveries(policy: policy)
    }

    static func entry(_ id: String, through: UInt64 = 0, paused: Bool = false, at now: ContinuousClock.Instant) -> WebhookDeliveries.Entry {
        let webhook = Webhook(id: id, url: "https://example.com/hook", eventTypes: nil, users: nil, paused: paused, createdAt: 0)
        return .init(record: WebhookRecord(webhook: webhook), signing: ["s"], through: Position(through), storedAt: now)
    }

    static func letter(_ first: UInt64, _ last: UInt64) -> DeadLetter {
        DeadLetter(first: first, last: last, events: Int(last - first + 1), attempts: 8, error: "refused", failedAt: 0)
    }

    @Test("only the current worker speaks: a newer one, a stop or a removal silences the older")
    func generations() throws {
        let now = ContinuousClock.now
        var book = Self.deliveries()
        book.add("a", Self.entry("a", at: now))
        book.add("p", Self.entry("p", paused: true, at: now))
        let answer1 = book.nextWorker(for: "p")
        #expect(answer1 == nil, "a paused webhook gets no worker")
        let answer2 = book.nextWorker(for: "missing")
        #expect(answer2 == nil)
        let answer3 = book.nextWorker(for: "a")
        let first = try #require(answer3).generation
        let answer4 = book.nextWorker(for: "a")
        let second = try #require(answer4).generation
        #expect(second > first)
        let answer5 = book.delivered("a", first, events: 5, through: Position(5), deliveredAt: 1, now: now)
        #expect(answer5 == nil)
        #expect(book["a"]?.through == Position(0), "the older worker's report changed nothing")
        let answer6 = book.delivered("a", second, events: 5, through: Position(5), deliveredAt: 1, now: now)
        #expect(answer6 == false)
        book.stopWorker("a")
        #expect(!book.isCurrent("a", second))
        let answer7 = book.skipped("a", second, through: Position(9), now: now + .seconds(5))
        #expect(answer7 == nil)
        let answer8 = book.workerFailed("a", second, error: "x", nextAttemptAt: 0)
        #expect(answer8 == nil)
        let answer9 = book.nextWorker(for: "a")
        let third = try #require(answer9)
        #expect(third.generation > second && third.from == Position(5), "a new worker starts where delivery got to")
        _ = book.remove("a")
        let answer10 = book.failed("a", third.generation, attempt: 1, error: "x", nextAttemptAt: 0)
        #expect(!answer10)
        #expect(book.ordered.map(\.record.webhook.id) == ["p"])
    }

    @Test("a delivered batch asks for a store every few batches or after the interval; passed-over events only after it")
    func storing() throws {
        let now = ContinuousClock.now
        var book = Self.deliveries(everyBatches: 3)
        book.add("a", Self.entry("a", at: now))
        let answer11 = book.nextWorker(for: "a")
        let generation = try #require(answer11).generation
        let answer12 = book.delivered("a", generation, events: 2, through: Position(2), deliveredAt: 10, now: now)
        #expect(answer12 == false)
        let answer13 = book.delivered("a", generation, events: 2, through: Position(4), deliveredAt: 11, now: now)
        #expect(answer13 == false)
        let answer14 = book.delivered("a", generation, events: 2, through: Position(6), deliveredAt: 12, now: now)
        #expect(answer14 == true)
        #expect(book["a"]?.batches == 3 && book["a"]?.events == 6 && book["a"]?.lastDeliveredAt == 12)
        #expect(book.moved("a"))
        let answer15 = book.storing("a", at: now)
        let write = try #require(answer15)
        #expect(write.through == Position(6))
        #expect(book.moved("a"), "not stored until the write succeeded")
        let answer16 = book.delivered("a", generation, events: 1, through: Position(7), deliveredAt: 13, now: now)
        #expect(answer16 == false, "the count restarted")
        book.stored("a", through: write.through)
        #expect(book["a"]?.stored == Position(6) && book.moved("a"))
        book.stored("a", through: Position(3))
        #expect(book["a"]?.stored == Position(6), "a slower, older write never moves the stored checkpoint back")
        let answer17 = book.delivered("a", generation, events: 1, through: Position(8), deliveredAt: 14, now: now + .seconds(1))
        #expect(answer17 == true, "the interval passed")

        let answer18 = book.skipped("a", generation, through: Position(20), now: now + .milliseconds(500))
        #expect(answer18 == false)
        #expect(book["a"]?.through == Position(20))
        #expect(book.unstored(at: now + .milliseconds(500)).isEmpty)
        #expect(book.unstored(at: now + .seconds(1)) == ["a"])
        let answer19 = book.skipped("a", generation, through: Position(30), now: now + .seconds(1))
        #expect(answer19 == true)
    }

    @Test("failures are counted until a delivery; a dead letter replaces its batch's earlier one, and a full set pauses the webhook")
    func deadLetters() throws {
        let now = ContinuousClock.now
        var book = Self.deliveries(maxDeadLetters: 3)
        book.add("a", Self.entry("a", at: now))
        let answer20 = book.nextWorker(for: "a")
        let generation = try #require(answer20).generation
        let answer21 = book.failed("a", generation, attempt: 2, error: "timeout", nextAttemptAt: 99)
        #expect(answer21)
        #expect(book["a"]?.failures == 2 && book["a"]?.lastError == "timeout" && book["a"]?.nextAttemptAt == 99)
        let answer22 = book.workerFailed("a", generation, error: "log closed", nextAttemptAt: 100)
        #expect(answer22 == Position(0))
        let answer23 = book.deadLettered("a", generation, letter: Self.letter(1, 4), through: Position(4))
        #expect(answer23 == true)
        #expect(book["a"]?.failures == 0 && book["a"]?.nextAttemptAt == nil && book["a"]?.through == Position(4))
        let answer24 = book.deadLettered("a", generation, letter: Self.letter(1, 4), through: Position(4))
        #expect(answer24 == true)
        #expect(book["a"]?.record.deadLetters.count == 1, "the same batch again replaces its letter")
        let answer25 = book.deadLettered("a", generation, letter: Self.letter(5, 6), through: Position(6))
        #expect(answer25 == true)
        let answer26 = book.deadLettered("a", generation, letter: Self.letter(7, 7), through: Position(7))
        #expect(answer26 == false)
        let entry = try #require(book["a"])
        #expect(entry.record.webhook.paused && entry.record.pausedReason?.hasPrefix("3 dead letters") == true)
        #expect(!book.isCurrent("a", generation), "the paused webhook's worker is retired")
        let answer27 = book.nextWorker(for: "a")
        #expect(answer27 == nil)
        let answer28 = book.deadLettered("a", generation, letter: Self.letter(8, 8), through: Position(8))
        #expect(answer28 == nil)
    }

    @Test("stopping: workers are cancelled yet still current until retired, and the unstored are named in the order made")
    func stopping() async throws {
        let now = ContinuousClock.now
        var book = Self.deliveries()
        for id in ["c", "a", "b"] { book.add(id, Self.entry(id, at: now)) }
        var generations: [String: Int] = [:]
        for id in ["c", "a", "b"] {
            let answer29 = book.nextWorker(for: id)
            let next = try #require(answer29)
            generations[id] = next.generation
            book.attach(Task { try? await Task.sleep(for: .seconds(3600)) }, to: id, generation: next.generation)
        }
        for id in ["c", "b"] { _ = book.skipped(id, generations[id]!, through: Position(3), now: now) }
        #expect(book.unstored(at: now + .seconds(2)) == ["c", "b"])
        let workers = book.cancelWorkers()
        #expect(workers.count == 3 && workers.allSatisfy(\.isCancelled))
        for worker in workers { await worker.value }
        #expect(book.isCurrent("a", generations["a"]!), "a batch taken while stopping still counts")
        book.retireWorkers()
        #expect(["a", "b", "c"].allSatisfy { !book.isCurrent($0, generations[$0]!) })
        let stale = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
        book.attach(stale, to: "a", generation: generations["a"]!)
        #expect(stale.isCancelled && book["a"]?.worker == nil, "a worker of an old generation is not kept")
    }
}
