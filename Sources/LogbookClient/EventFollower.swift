import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Follows one signed-in user's events on the server and tells their ``QueryCache`` which kept
/// answers each event can change, so that answers no event changed are given without asking the
/// server, and the rest are asked for again.
///
/// It reads the user's event stream (`GET /users/{user}/events/subscribe`) as a long poll: each
/// request resumes after the last position seen and ends a moment (``linger``) after the events
/// that came, or at the server's keep-alive if none did. That works on every transport, including
/// those that hand over a response only once it has ended (URLSession on Linux). While a poll
/// fails the follower is not live, and the cache revalidates every read; it tries again after
/// ``backoff``, from where it was.
public actor EventFollower {
    /// What the follower has done, for a settings screen.
    public struct Status: Sendable, Hashable {
        /// The last log position read (the user's events up to it are applied to the cache).
        public var position: UInt64
        /// Whether the last poll ended well, recently enough.
        public var live: Bool
        /// Polls that ended well, events seen, and polls that failed.
        public var polls: Int
        public var events: Int
        public var failures: Int
        /// Why the last poll failed (nil: it did not).
        public var lastFailure: String?
    }

    public let user: String
    /// How long a poll goes on after the last event it brought.
    public let linger: Duration
    /// The wait before a failed poll is tried again.
    public let backoff: Duration
    private let client: Client
    private let cache: QueryCache
    private var task: Task<Void, Never>?
    private var status = Status(position: 0, live: false, polls: 0, events: 0, failures: 0)
    private var waiters: [(position: UInt64, continuation: CheckedContinuation<Void, Never>)] = []

    /// A follower of `user`'s events through `client`, marking answers in `cache` (the cache
    /// `client` reads through).
    public init(user: String, client: Client, cache: QueryCache, linger: Duration = .milliseconds(50), backoff: Duration = .seconds(1)) {
        self.user = user
        self.client = client
        self.cache = cache
        self.linger = max(linger, .milliseconds(1))
        self.backoff = backoff
    }

    /// Starts following (from the user's last event on the server).
    public func start() {
        guard task == nil else { return }
        task = Task { [weak self] in _ = await self?.follow() }
    }

    /// Stops following; the cache revalidates every read from then on.
    public func stop() async {
        let running = task
        task = nil
        running?.cancel()
        await running?.value
        await cache.followerIsLive(false)
        status.live = false
        for waiter in waiters { waiter.continuation.resume() }
        waiters = []
    }

    public func currentStatus() -> Status { status }

    /// Returns once the follower has read the log through `position` (or has stopped).
    public func caughtUp(to position: UInt64) async {
        guard status.position < position, task != nil else { return }
        await withCheckedContinuation { waiters.append((position, $0)) }
    }

    /// ``linger`` as the server takes it: whole milliseconds, from 1 to 60,000.
    private var lingerMilliseconds: Int { min(60_000, max(1, Int(linger / .milliseconds(1)))) }

    private func follow() async {
        while !Task.isCancelled {
            do {
                let last = try await client.getUsersUserEvents(path: .init(user: user), query: .init(direction: .backward, limit: 1)).ok.body.json
                let position = UInt64(clamping: last.events.first?.position ?? 0)
                await cache.followStarts(after: position)
                advance(to: position, events: 0)
                break
            } catch {
                await failed(error)
            }
        }
        while !Task.isCancelled {
            do {
                let answer = try await client.getUsersUserEventsSubscribe(
                    path: .init(user: user), query: .init(after: Int(clamping: status.position), linger: lingerMilliseconds))
                let body = try answer.ok.body.text_event_hyphen_stream
                var frames = ServerSentEvents()
                for try await chunk in body {
                    let (events, through) = frames.read(chunk)
                    if let through {
                        await cache.followed(events, through: through)
                        advance(to: through, events: events.count)
                    }
                }
                status.polls += 1
                status.lastFailure = nil
                if !status.live {
                    status.live = true
                    await cache.followerIsLive(true)
                }
            } catch {
                await failed(error)
            }
        }
    }

    private func advance(to position: UInt64, events: Int) {
        status.position = max(status.position, position)
        status.events += events
        let reached = waiters.filter { $0.position <= status.position }
        waiters.removeAll { $0.position <= status.position }
        for waiter in reached { waiter.continuation.resume() }
    }

    private func failed(_ error: any Error) async {
        guard !Task.isCancelled else { return }
        status.failures += 1
        status.lastFailure = "\(error)"
        status.live = false
        await cache.followerIsLive(false)
        try? await Task.sleep(for: backoff)
    }
}

/// Reads Server-Sent Events frames from the chunks of a stream, as they come: each frame's `id`
/// (a log position) and `event` (an event type). A frame with an id and no event (the server
/// scanned past other users' events) moves the position only. Only `id` and `event` lines are
/// kept while they arrive; every other line (the events' data) is skipped as it streams by, so
/// memory stays bounded however long an event is.
struct ServerSentEvents {
    /// The start of the line being read, while it may still be an `id` or `event` line.
    private var line: [UInt8] = []
    /// The line being read is none of those: its bytes are dropped until its end.
    private var skipping = false
    private var id: UInt64?
    private var type: String?
    /// The longest `id` or `event` line read (longer ones are skipped).
    static let longestKeptLine = 256

    /// The events completed by `chunk`, and the last id any frame in it completed (nil: none).
    mutating func read(_ chunk: ArraySlice<UInt8>) -> (events: [(position: UInt64, type: String)], through: UInt64?) {
        var events: [(position: UInt64, type: String)] = []
        var through: UInt64?
        var rest = chunk[...]
        while !rest.isEmpty {
            guard let end = rest.firstIndex(of: UInt8(ascii: "\n")) else {
                take(rest)
                break
            }
            take(rest[..<end])
            rest = rest[(end + 1)...]
            if !skipping {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                if line.isEmpty {
                    // A blank line ends a frame.
                    if let id {
                        if let type { events.append((id, type)) }
                        through = id
                    }
                    (id, type) = (nil, nil)
                } else if line.starts(with: "id:".utf8) {
                    id = UInt64(String(decoding: line.dropFirst(3), as: UTF8.self).trimmingCharacters(in: .whitespaces))
                } else if line.starts(with: "event:".utf8) {
                    type = String(decoding: line.dropFirst(6), as: UTF8.self).trimmingCharacters(in: .whitespaces)
                }
            }
            line.removeAll(keepingCapacity: true)
            skipping = false
        }
        return (events, through)
    }

    /// Adds part of a line: kept while it can still be an `id` or `event` line of bounded length.
    private mutating func take(_ bytes: ArraySlice<UInt8>) {
        guard !skipping else { return }
        line += bytes
        let kept = line.starts(with: "id:".utf8) || line.starts(with: "event:".utf8)
            || "id:".utf8.starts(with: line) || "event:".utf8.starts(with: line) || line == [UInt8(ascii: "\r")]
        if !kept || line.count > Self.longestKeptLine {
            line.removeAll(keepingCapacity: true)
            skipping = true
        }
    }
}
