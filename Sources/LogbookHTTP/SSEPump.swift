import EventLog
import Foundation
import Hummingbird
import Logbook
import ServiceLifecycle

/// Writes a log subscription to a response as Server-Sent Events until the client goes away,
/// the log closes, the caller's token expires, or the server shuts down gracefully. Sends a keep-alive comment when the log
/// has been quiet for a while (so proxies keep the connection) and never buffers more than the
/// subscription's own chunk: a slow client only falls behind. Events are framed and written a batch
/// at a time (what the subscription already holds, up to ``batchLimit``), so catching up from far
/// back costs one write and one turn on the query threads per batch, not per event.
struct SSEPump: Sendable {
    let logbook: Logbook
    let after: UInt64
    let filter: EventFilter
    let keepAlive: Duration
    /// End after this many events (nil: run until the client leaves).
    let limit: UInt64?
    /// End once this long passes without an event after the last one sent, or at the first
    /// keep-alive if none was sent (nil: never).
    let linger: Duration?
    /// Where the pump reports how far it has sent (for the subscription lag in `/metrics`).
    let live: LiveSubscriptions
    /// When the caller's token expires: the stream ends then (the client reconnects with a
    /// fresh token and `Last-Event-ID`). nil: never.
    let expires: Date?

    /// The caller the stream is read for: framing its events is their work, done on the query
    /// threads in their turn (see ``Logbook/work(for:admitted:_:)``).
    let caller: String
    /// At most this many elements are framed and written at once.
    static let batchLimit = 256

    private enum Step: Sendable {
        case elements([SubscriptionElement]?, Handoff)
        case quiet
    }

    /// Moves the iterator into the child task that awaits its next elements and back out. It is
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
        let clock = ContinuousClock()
        let start = clock.now
        var lastEvent = start
        while sent < limit ?? .max {
            var window = keepAlive
            if let linger {
                // A long poll ends where a stream would keep alive: `linger` after its last event, or
                // at the first keep-alive if it sent none (other users' events scanned meanwhile or not).
                let left = (sent > 0 ? lastEvent + linger : start + keepAlive) - clock.now
                guard left > .zero else { return }
                window = min(window, left)
            }
            if let expires {
                let left = expires.timeIntervalSinceNow
                guard left > 0 else {
                    try await writer.write(ByteBuffer(string: ": the token has expired; reconnect with a new one\n\n"))
                    return
                }
                window = min(window, .milliseconds(Int64((left * 1000).rounded(.up))))
            }
            let most = Int(min(UInt64(Self.batchLimit), (limit ?? .max) - sent))
            let step: Step
            do {
                step = try await cancelWhenGracefulShutdown { [iterator, window] in try await Self.next(iterator, most: most, within: window) }
            } catch is CancellationError {
                return
            }
            switch step {
            case .quiet:
                if let expires, expires.timeIntervalSinceNow <= 0 { continue }
                if linger != nil { continue }
                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
            case .elements(nil, _):
                return
            case .elements(let elements?, let advanced):
                iterator = advanced
                let events = elements.compactMap(\.event)
                if !events.isEmpty { try await logbook.loadKeys(opening: events) }
                let (frames, through) = try await frame(elements, after: lastId)
                guard through > lastId else { continue }
                try await writer.write(ByteBuffer(bytes: frames))
                lastId = through
                live.advance(ticket, to: lastId)
                sent += UInt64(events.count)
                if !events.isEmpty { lastEvent = clock.now }
            }
        }
    }

    /// The frames of `elements`, in order, and the id the last of them leaves the client at. An
    /// event is a full frame; a scan past `after` is an id-only frame (no event is dispatched, but
    /// the client's Last-Event-ID moves on). Turning events into JSON runs on the query threads.
    private func frame(_ elements: [SubscriptionElement], after: UInt64) async throws -> ([UInt8], UInt64) {
        let logbook = logbook
        return try await logbook.work(for: caller) {
            var frames: [UInt8] = []
            var lastId = after
            for element in elements {
                switch element {
                case .event(let event):
                    frames += "id: \(event.position.rawValue)\nevent: \(event.type)\ndata: ".utf8
                    try WireEvent(event, of: logbook).appendJSON(to: &frames)
                    frames += "\n\n".utf8
                    lastId = event.position.rawValue
                case .scanned(let through) where through.rawValue > lastId:
                    frames += "id: \(through.rawValue)\n\n".utf8
                    lastId = through.rawValue
                case .scanned:
                    break
                }
            }
            return (frames, lastId)
        }
    }

    /// The iterator's next elements (at least one, at most `most`, taking without waiting again
    /// what it already holds), or `.quiet` if none arrives within `window`. The iterator only
    /// awaits while it holds nothing, so abandoning a copy that was cancelled loses nothing.
    private static func next(_ handoff: Handoff, most: Int, within window: Duration) async throws -> Step {
        try await withThrowingTaskGroup(of: Step.self) { group in
            group.addTask {
                var handoff = handoff
                let elements = try await handoff.iterator.nextBatch(limit: most)
                return .elements(elements, handoff)
            }
            group.addTask {
                try await Task.sleep(for: window)
                return .quiet
            }
            var outcome: Step?
            while let result = await group.nextResult() {
                switch result {
                case .success(.elements(let elements, let advanced)):
                    group.cancelAll()
                    return .elements(elements, advanced)
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
