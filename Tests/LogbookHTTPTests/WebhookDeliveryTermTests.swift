import Logbook
@testable import LogbookWebhooks
import Testing

/// The dispatcher's lease and term state machine alone: who delivers, when a lease lapses, and
/// which operations each term fences out.
@Suite("Webhook delivery terms")
struct WebhookDeliveryTermTests {
    static func policy(duration: Duration = .seconds(10), renew: Duration = .seconds(2)) -> WebhookPolicy {
        var policy = WebhookPolicy()
        policy.leaseDuration = duration
        policy.leaseRenewInterval = renew
        return policy
    }

    static func conflict(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as LogbookError where error.code == .conflict {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("a store one process opens: one start, one take-over, a term per change, writes fenced by it")
    func local() throws {
        var state = WebhookDeliveryTerm(server: "a", shared: false, policy: Self.policy())
        #expect(Self.conflict { try state.requireDelivering() } == "the webhook dispatcher is not running")
        let answer1 = try state.beginStart()
        #expect(answer1)
        let answer2 = try state.beginStart()
        #expect(!answer2, "a second start while the first runs does nothing")
        #expect(Self.conflict { try state.requireDelivering() } == "the webhook dispatcher is starting")
        let answer3 = state.beginTakeOver()
        #expect(answer3)
        let answer4 = state.beginTakeOver()
        #expect(!answer4, "one take-over at a time")
        let answer5 = state.tookOver()
        #expect(answer5)
        state.endTakeOver()
        state.endStart(failed: false)
        #expect(state.delivering && state.term == 1 && state.deliveredBy == nil)
        let answer6 = state.beginTakeOver()
        #expect(!answer6, "no take-over while delivering")
        try state.requireDelivering()
        try state.require(term: 1)
        #expect(Self.conflict { try state.require(term: 0) }?.contains("stopped delivering webhooks meanwhile") == true)
        let answer7 = try state.beginStart()
        #expect(!answer7, "started already")
    }

    @Test("a start whose lease times cannot work is refused and leaves it stopped; a failed start can be tried again")
    func refusedStart() throws {
        var bad = WebhookDeliveryTerm(server: "a", shared: true, policy: Self.policy(duration: .seconds(2), renew: .seconds(2)))
        #expect(throws: LogbookError.self) { try bad.beginStart() }
        #expect(bad.phase == .stopped)
        var state = WebhookDeliveryTerm(server: "a", shared: false, policy: Self.policy())
        let answer8 = try state.beginStart()
        #expect(answer8)
        state.endStart(failed: true)
        #expect(state.phase == .stopped && !state.delivering)
        let answer9 = try state.beginStart()
        #expect(answer9)
    }

    @Test("a shared log: the lease's holder delivers until another holds it or its renewals lapse")
    func lease() throws {
        var state = WebhookDeliveryTerm(server: "a", shared: true, policy: Self.policy())
        let asked = ContinuousClock.now
        let answer10 = state.leaseClaimed(holder: "a", remainingMicroseconds: 10_000_000, asked: asked)
        #expect(answer10 == .keep, "not started: nothing")
        #expect(state.holder == nil)
        let answer11 = try state.beginStart()
        #expect(answer11)
        let answer12 = state.leaseClaimed(holder: "b", remainingMicroseconds: 5_000_000, asked: asked)
        #expect(answer12 == .standBy(holder: "b"))
        #expect(state.deliveredBy == "b")
        #expect(Self.conflict { try state.requireDelivering() }?.contains("delivered and changed by server b; this server (a) stands by") == true)
        let answer13 = state.leaseClaimed(holder: "b", remainingMicroseconds: 0, asked: asked)
        #expect(answer13 == .standBy(holder: "b"))
        #expect(state.holder == nil, "an expired lease has no holder")
        #expect(Self.conflict { try state.requireDelivering() }?.contains("no server yet") == true)

        let answer14 = state.leaseClaimed(holder: "a", remainingMicroseconds: 10_000_000, asked: asked)
        #expect(answer14 == .takeOver)
        let began = state.beginTakeOver(), took = state.tookOver()
        #expect(began && took)
        state.endTakeOver()
        #expect(state.deliveredBy == "a" && state.term == 1)
        let answer15 = state.leaseClaimed(holder: "a", remainingMicroseconds: 10_000_000, asked: asked)
        #expect(answer15 == .keep)
        // Valid a renewal interval short of the lease: 10 s − 2 s after it was asked for.
        #expect(!state.leaseLapsed(at: asked + .seconds(7)))
        #expect(state.leaseLapsed(at: asked + .seconds(8)))
        // A later renewal moves it on.
        let answer16 = state.leaseClaimed(holder: "a", remainingMicroseconds: 10_000_000, asked: asked + .seconds(2))
        #expect(answer16 == .keep)
        #expect(!state.leaseLapsed(at: asked + .seconds(8)))

        let answer17 = state.leaseClaimed(holder: "b", remainingMicroseconds: 10_000_000, asked: asked)
        #expect(answer17 == .standBy(holder: "b"))
        let answer18 = state.standDown()
        #expect(answer18)
        let answer19 = state.standDown()
        #expect(!answer19, "standing down twice changes nothing")
        #expect(!state.delivering && state.term == 2 && state.validUntil == nil)
        #expect(!state.leaseLapsed(at: asked + .seconds(60)), "a server standing by has no lease to lapse")
        #expect(Self.conflict { try state.require(term: 1) } != nil, "an operation of the last term writes nothing")
    }

    @Test("a shutdown still writes what its workers delivered in its term, takes nothing over, then ends the term")
    func shutdown() throws {
        var state = WebhookDeliveryTerm(server: "a", shared: true, policy: Self.policy())
        let answer20 = try state.beginStart()
        #expect(answer20)
        _ = state.leaseClaimed(holder: "a", remainingMicroseconds: 10_000_000, asked: .now)
        let began = state.beginTakeOver(), took = state.tookOver()
        #expect(began && took)
        state.endTakeOver()
        #expect(state.storesInBackground)
        let answer21 = state.beginShutdown()
        #expect(answer21)
        let answer22 = state.beginShutdown()
        #expect(!answer22)
        #expect(!state.storesInBackground && state.renewsLease)
        try state.require(term: 1)
        #expect(Self.conflict { try state.requireDelivering() } == "the webhook dispatcher is not running", "no changes while stopping")
        let answer23 = state.leaseClaimed(holder: "a", remainingMicroseconds: 10_000_000, asked: .now)
        #expect(answer23 == .keep)
        let answer24 = state.beginTakeOver()
        #expect(!answer24)
        state.endShutdown()
        #expect(state.phase == .stopped && !state.delivering && state.term == 2 && !state.renewsLease)
        #expect(Self.conflict { try state.require(term: 1) } == "the webhook dispatcher is not running")
    }
}
