public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// The answers of one signed-in user's queries, kept with their ETags so that a repeated read
/// costs the server a `304` instead of the answer, identical reads in flight together cost one
/// request, and a read after the user's own command sees that command.
///
/// Give each signed-in user a cache of their own (`Client(logbook:tokens:cache:)`): answers are
/// kept by path and query, and the token is not part of the key.
///
/// - A `GET` is sent with `If-None-Match` and the kept answer's ETag; a `304` is answered from the
///   cache, a `200` with an ETag replaces what was kept. The server's ETag moves exactly when the
///   answer can, so an answer from the cache is never older than the server's.
/// - A `GET` made while the same one is in flight waits for it and shares its answer.
/// - After a command answers with `X-Logbook-Position`, later reads carry that position as
///   `X-Logbook-Min-Position`: a server whose read models are behind it waits for them (or says
///   so with a `503`), so the app sees its own writes, on any server.
/// - With an ``EventFollower`` following the user's events, a kept answer no event has changed
///   since is answered from the cache without asking the server at all. Which events change which
///   answers is the server's own declaration (the API document's `x-logbook-cache`, the relation its
///   cache invalidates by). Answers that also change with data every user shares (the places
///   catalog) or with the user's today are revalidated every time, as are all answers while the
///   follower is not live or has not yet seen the user's own last command.
/// - Event streams, answers without an ETag or `Content-Length`, and answers longer than
///   ``Limits/answerBytes`` pass through, kept by nothing.
/// - At most ``Limits/entries`` answers of at most ``Limits/bytes`` in all are kept; the one
///   used longest ago goes first.
public actor QueryCache {
    /// What a cache may hold.
    public struct Limits: Sendable, Hashable {
        /// Answers kept at most.
        public var entries: Int
        /// Bytes of answers kept at most, in all.
        public var bytes: Int
        /// The longest answer kept (a longer one passes through).
        public var answerBytes: Int

        /// 256 answers, 16 MiB in all, 4 MiB each.
        public init(entries: Int = 256, bytes: Int = 16 << 20, answerBytes: Int = 4 << 20) {
            (self.entries, self.bytes, self.answerBytes) = (max(0, entries), max(0, bytes), max(0, answerBytes))
        }
    }

    /// One kept answer.
    private struct Entry {
        var response: HTTPResponse
        var body: [UInt8]
        var etag: String
        var stored: ContinuousClock.Instant
        var hits = 0
        var revalidations = 0
        /// When it was last used, by ``QueryCache/uses`` (the smallest goes first).
        var used: UInt64
        /// The operation that read it.
        var operation: String
        /// The follower's position when it was asked for (the answer holds at least that much of
        /// the log); nil: no follower was running.
        var asOf: UInt64?
        /// An event the follower saw since `asOf` can have changed it.
        var changed = false
    }

    /// An answer read whole, to keep or to share.
    private struct Answer: Sendable {
        var response: HTTPResponse
        var body: [UInt8]
    }

    /// What a read in flight left its waiting twins.
    private enum Outcome {
        case answer(Answer)
        /// Not shareable (it passed through, or failed): each twin sends its own request.
        case sendYourOwn
    }

    /// What a read does, as the cache decides it.
    private enum Turn {
        /// Sends the request, with these headers added; `asOf` is the follower's position then.
        case send(etag: String?, minimum: UInt64, asOf: UInt64?)
        /// Takes the answer of the same read just made.
        case take(Answer)
    }

    public let limits: Limits
    private var entries: [String: Entry] = [:]
    private var keptBytes = 0
    /// Reads in flight, by key, with the twins waiting for them.
    private var inFlight: [String: [CheckedContinuation<Outcome, Never>]] = [:]
    private var uses: UInt64 = 0
    /// The last position of the user's own commands (0: none yet).
    private var ownPosition: UInt64 = 0
    private var counts = QueryCacheStatus.Counts()
    /// What the user's event follower has told the cache.
    private var follower = FollowerState()

    /// An empty cache within `limits`.
    public init(limits: Limits = Limits()) { self.limits = limits }

    /// What the cache holds and has done, for a settings screen.
    public func status() -> QueryCacheStatus {
        let now = ContinuousClock.now
        let kept = entries.map { key, entry in
            QueryCacheStatus.Entry(path: key, bytes: entry.body.count, age: now - entry.stored, hits: entry.hits, revalidations: entry.revalidations)
        }
        return QueryCacheStatus(
            entries: kept.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }, bytes: keptBytes,
            readsInFlight: inFlight.count, waiting: inFlight.values.reduce(0) { $0 + $1.count }, ownPosition: ownPosition,
            followedThrough: follower.position, followerLive: follower.live, counts: counts)
    }

    /// Forgets every kept answer (signing out, or the user asked).
    public func removeAll() {
        entries = [:]
        keptBytes = 0
    }

    // MARK: The cache's side of a read

    private func turn(_ key: String) async -> Turn {
        if var entry = entries[key], isCurrent(entry) {
            counts.current += 1
            entry.hits += 1
            uses += 1
            entry.used = uses
            entries[key] = entry
            return .take(Answer(response: entry.response, body: entry.body))
        }
        while inFlight[key] != nil {
            let outcome = await withCheckedContinuation { inFlight[key]!.append($0) }
            if case .answer(let answer) = outcome {
                counts.joined += 1
                if let index = entries.index(forKey: key) { entries.values[index].hits += 1 }
                return .take(answer)
            }
        }
        inFlight[key] = []
        let asOf = follower.started ? follower.position : nil
        return .send(etag: entries[key]?.etag, minimum: max(ownPosition, asOf ?? 0), asOf: asOf)
    }

    /// Whether `entry` is answered without asking the server: no event since it was fetched can
    /// have changed it, the follower is live and has seen the user's own last command, and nothing
    /// but the user's events changes it.
    private func isCurrent(_ entry: Entry) -> Bool {
        guard follower.live, !entry.changed, entry.asOf != nil, follower.position >= ownPosition,
              let changes = Self.changes(of: entry.operation), !changes.sharedChanges, !changes.followsClock
        else { return false }
        return true
    }

    /// The event types that change an operation's answers, as the server declares them (nil: not declared).
    private static func changes(of operation: String) -> (eventTypes: Set<String>, sharedChanges: Bool, followsClock: Bool)? {
        guard let read = AnswerChanges.operations[operation], let cache = AnswerChanges.caches[read.cache] else { return nil }
        return (cache.eventTypes, cache.sharedChanges, read.followsClock)
    }

    /// Whether an event the follower saw after `asOf` can have changed an answer of `operation`.
    private func changedSince(_ asOf: UInt64?, operation: String) -> Bool {
        guard let asOf, let changes = Self.changes(of: operation) else { return true }
        guard asOf < follower.position else { return false }
        // Seen events reach back only so far: older than that, assume the answer changed.
        guard asOf >= follower.recentFloor else { return true }
        return follower.recent.contains { $0.position > asOf && changes.eventTypes.contains($0.type) }
    }

    /// Ends the read in flight under `key` with `answer` (nil: it passed through or failed),
    /// keeping it when it has an ETag; answers what the caller is given (a `304` only when the
    /// answer it confirms was dropped meanwhile: the caller asks again, and so does each twin).
    private func finish(_ key: String, _ answer: Answer?, operation: String = "", asOf: UInt64? = nil) -> Answer? {
        var given = answer
        defer {
            let shared = given.flatMap { $0.response.status == .notModified ? nil : Outcome.answer($0) } ?? .sendYourOwn
            for twin in inFlight.removeValue(forKey: key) ?? [] { twin.resume(returning: shared) }
        }
        if let answer {
            if answer.response.status == .notModified, var entry = entries[key] {
                counts.notModified += 1
                entry.hits += 1
                entry.revalidations += 1
                uses += 1
                entry.used = uses
                // The server confirmed it as of the position asked for.
                entry.asOf = asOf
                entry.changed = changedSince(asOf, operation: operation)
                entries[key] = entry
                given = Answer(response: entry.response, body: entry.body)
            } else if answer.response.status == .ok, let etag = answer.response.headerFields[.eTag] {
                counts.fetched += 1
                keep(key, Entry(response: answer.response, body: answer.body, etag: etag, stored: .now, used: uses + 1,
                                operation: operation, asOf: asOf, changed: changedSince(asOf, operation: operation)))
            } else {
                counts.passedThrough += 1
            }
        } else {
            counts.passedThrough += 1
        }
        return given
    }

    /// Keeps `entry` under `key`; a newer answer of the same read keeps the read's counts.
    private func keep(_ key: String, _ entry: Entry) {
        var entry = entry
        uses += 1
        if let old = entries.removeValue(forKey: key) {
            keptBytes -= old.body.count
            (entry.hits, entry.revalidations) = (old.hits, old.revalidations)
        }
        guard entry.body.count <= limits.bytes, limits.entries > 0 else { return }
        while entries.count >= limits.entries || keptBytes + entry.body.count > limits.bytes {
            guard let oldest = entries.min(by: { $0.value.used < $1.value.used }) else { break }
            entries[oldest.key] = nil
            keptBytes -= oldest.value.body.count
            counts.evicted += 1
        }
        entries[key] = entry
        keptBytes += entry.body.count
    }

    private func noteOwnWrite(_ position: UInt64) {
        ownPosition = max(ownPosition, position)
    }

    // MARK: The follower's side

    /// The follower starts after `position` (the user's last event when it began).
    func followStarts(after position: UInt64) {
        follower.started = true
        follower.position = max(follower.position, position)
        follower.recentFloor = max(follower.recentFloor, follower.position)
    }

    /// The follower saw `events` (the user's, in log order) and has read the log through `position`:
    /// the kept answers they can change are marked changed.
    func followed(_ events: [(position: UInt64, type: String)], through position: UInt64) {
        for event in events {
            for (key, entry) in entries where !entry.changed {
                guard let asOf = entry.asOf, event.position > asOf else { continue }
                if Self.changes(of: entry.operation)?.eventTypes.contains(event.type) ?? true {
                    entries[key]?.changed = true
                    counts.changedByEvents += 1
                }
            }
            follower.recent.append(event)
        }
        if follower.recent.count > FollowerState.remembered {
            let dropped = follower.recent.count - FollowerState.remembered
            follower.recentFloor = follower.recent[dropped - 1].position
            follower.recent.removeFirst(dropped)
        }
        follower.position = max(follower.position, position)
    }

    /// Whether the follower is live: its last poll of the user's events ended well, recently.
    func followerIsLive(_ live: Bool) {
        follower.live = live
    }
}

extension QueryCache: ClientMiddleware {
    nonisolated public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get, !(request.headerFields[.accept] ?? "").contains("text/event-stream") else {
            let answer = try await next(request, body, baseURL)
            if request.method != .get, answer.0.status.kind == .successful,
               let position = answer.0.headerFields[Self.position].flatMap({ UInt64($0) }) {
                await noteOwnWrite(position)
            }
            return answer
        }
        let key = "\(baseURL.absoluteString)|\(request.path ?? "")"
        switch await turn(key) {
        case .take(let answer):
            return (answer.response, HTTPBody(answer.body))
        case .send(let etag, let minimum, let asOf):
            var request = request
            if let etag { request.headerFields[.ifNoneMatch] = etag }
            if minimum > 0 { request.headerFields[Self.minimumPosition] = "\(minimum)" }
            let response: HTTPResponse
            let body: HTTPBody?
            do {
                (response, body) = try await next(request, nil, baseURL)
            } catch {
                _ = await finish(key, nil)
                throw error
            }
            // Kept only whole and within bounds: a longer or unsized answer passes through as it came.
            let length = response.headerFields[.contentLength].flatMap { Int($0) }
            guard response.status == .notModified || (response.status == .ok && response.headerFields[.eTag] != nil
                  && length.map { $0 <= limits.answerBytes } == true)
            else {
                _ = await finish(key, nil)
                return (response, body)
            }
            var bytes: [UInt8] = []
            do {
                if let body { bytes = try await [UInt8](collecting: body, upTo: limits.answerBytes) }
            } catch {
                _ = await finish(key, nil)
                throw error
            }
            guard let given = await finish(key, Answer(response: response, body: bytes), operation: operationID, asOf: asOf) else {
                return (response, HTTPBody(bytes))
            }
            // A 304 for an answer dropped meanwhile: asked again, unconditionally.
            if given.response.status == .notModified {
                request.headerFields[.ifNoneMatch] = nil
                return try await next(request, nil, baseURL)
            }
            return (given.response, HTTPBody(given.body))
        }
    }

    private static let position = HTTPField.Name("X-Logbook-Position")!
    private static let minimumPosition = HTTPField.Name("X-Logbook-Min-Position")!
}

/// What a ``QueryCache`` holds and has done: the data of a cache settings screen.
public struct QueryCacheStatus: Sendable, Hashable {
    /// One kept answer.
    public struct Entry: Sendable, Hashable {
        /// The read's server, path and query.
        public var path: String
        /// The answer's length.
        public var bytes: Int
        /// How long ago it was fetched (revalidating does not renew it: the server confirmed it).
        public var age: Duration
        /// Reads it answered after the first, revalidated or shared (over the read's answers, newest kept).
        public var hits: Int
        /// Reads the server confirmed with a `304` (over the read's answers).
        public var revalidations: Int
    }

    /// What the cache has done since it was made.
    public struct Counts: Sendable, Hashable {
        /// Answers fetched whole and kept.
        public var fetched = 0
        /// Reads the server answered `304`, answered from the cache.
        public var notModified = 0
        /// Reads that shared the answer of the same read in flight.
        public var joined = 0
        /// Reads not kept (no ETag or length, too long, not 200, or failed).
        public var passedThrough = 0
        /// Answers dropped to stay within the limits.
        public var evicted = 0
        /// Reads answered from the cache without asking the server (no event had changed them).
        public var current = 0
        /// Kept answers the follower marked changed by one of the user's events.
        public var changedByEvents = 0
    }

    /// The kept answers, by path.
    public var entries: [Entry]
    /// Their bytes in all.
    public var bytes: Int
    /// Reads in flight now.
    public var readsInFlight: Int
    /// Reads waiting for one of them.
    public var waiting: Int
    /// The last position of the user's own commands, sent with every read since (0: none yet).
    public var ownPosition: UInt64
    /// How far the user's ``EventFollower`` has read the log (0: none follows).
    public var followedThrough: UInt64
    /// Whether the follower is live (kept answers no event changed are answered without the server).
    public var followerLive: Bool
    public var counts: Counts
}

/// What a ``QueryCache`` knows of its ``EventFollower``.
struct FollowerState {
    /// The user's events seen, at most this many of the latest, to judge answers fetched meanwhile.
    static let remembered = 1_024
    var started = false
    var live = false
    var position: UInt64 = 0
    var recent: [(position: UInt64, type: String)] = []
    /// Events at or before this position are no longer in `recent`.
    var recentFloor: UInt64 = 0
}
