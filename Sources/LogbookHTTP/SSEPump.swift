import EventLog
import Foundation
import Hummingbird
import Logbook
import ServiceLifecycle

/// Writes a log subscription to a response as Server-Sent Events until the client goes away,
/// the log closes, the caller's token expires, or the server shuts down gracefully. Sends a keep-alive comment when the log
/// has been quiet for a while (so proxies keep the connection) and never buffers more than the
/// subscription's own chunk: a slow client only falls behind.
struct SSEPump: Sendable {
    let logbook: Logbook
    let after: UInt64
    let filter: EventFilter
    let keepAlive: Duration
    /// End after this many events (nil: run until the client leaves).
    let limit: UInt64?
    /// Where the pump reports how far it has sent (for the subscription lag in `/metrics`).
    let live: LiveSubscriptions
    /// When the caller's token expires: the stream ends then (the client reconnects with a
    /// fresh token and `Last-Event-ID`). nil: never.
    let expires: Date?

    private enum Step: Sendable {
        case element(SubscriptionElement?, Handoff)
        case quiet
    }

    /// Moves the iterator into the child task that awaits its next element and back out. It is
    /// only ever used by one task at a time: the parent waits for the child (the task group
    /// ends only when every child has), and a cancelled child's copy is dropped unused.
    private struct Handoff: @unchecked Sendable {
        var iterator: EventSubscription.Iterator
    }

    func run(into writer: inout any ResponseBodyWriter) async throws {
        var iterator = Handoff(iterator: logbook.log.subscribe(after: Position(after), filter: filter).makeAsyncIterator())
        var lastId = after
        let ticket = live.register(at: after)
        defer { live.unregister(ticket) }
        var sent: UInt64 = 0
        while sent < limit ?? .max {
            var window = keepAlive
            if let expires {
                let left = expires.timeIntervalSinceNow
                guard left > 0 else {
                    try await writer.write(ByteBuffer(string: ": the token has expired; reconnect with a new one\n\n"))
                    return
                }
                window = min(window, .milliseconds(Int64((left * 1000).rounded(.up))))
            }
            let step: Step
            do {
                step = try await cancelWhenGracefulShutdown { [iterator, window] in try await Self.next(iterator, within: window) }
            } catch is CancellationError {
                return
            }
            switch step {
            case .quiet:
                if let expires, expires.timeIntervalSinceNow <= 0 { continue }
                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
            case .element(nil, _):
                return
            case .element(.event(let event)?, let advanced):
                iterator = advanced
                try await logbook.loadKeys(opening: [event])
                var frame = Array("id: \(event.position.rawValue)\nevent: \(event.type)\ndata: ".utf8)
                try WireEvent(event, of: logbook).appendJSON(to: &frame)
                frame += "\n\n".utf8
                try await writer.write(ByteBuffer(bytes: frame))
                lastId = event.position.rawValue
                live.advance(ticket, to: lastId)
                sent += 1
            case .element(.scanned(let through)?, let advanced):
                iterator = advanced
                if through.rawValue > lastId {
                    // An id-only frame: no event is dispatched, but the client's Last-Event-ID moves on.
                    try await writer.write(ByteBuffer(string: "id: \(through.rawValue)\n\n"))
                    lastId = through.rawValue
                    live.advance(ticket, to: lastId)
                }
            }
        }
    }

    /// The iterator's next element, or `.quiet` if none arrives within `window`. The iterator
    /// only awaits while it holds nothing, so abandoning a copy that was cancelled loses nothing.
    private static func next(_ handoff: Handoff, within window: Duration) async throws -> Step {
        try await withThrowingTaskGroup(of: Step.self) { group in
            group.addTask {
                var handoff = handoff
                let element = try await handoff.iterator.next()
                return .element(element, handoff)
            }
            group.addTask {
                try await Task.sleep(for: window)
                return .quiet
            }
            var outcome: Step?
            while let result = await group.nextResult() {
                switch result {
                case .success(.element(let element, let advanced)):
                    group.cancelAll()
                    return .element(element, advanced)
                case .success(.quiet):
                    group.cancelAll()
                    outcome = .quiet
                case .failure(let error):
                    if !(error is CancellationError) { throw error }
                }
            }
            try Task.checkCancellation()
            return outcome ?? .quiet
        }
    }
}
