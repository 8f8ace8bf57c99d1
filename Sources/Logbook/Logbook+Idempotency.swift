import EventLog
import Foundation

extension Logbook {
    /// Runs a keyed request at most once: the first time, `perform` runs with the request's
    /// ``KeyedCall`` — the event id the request's first event must carry
    /// (``IdempotentRequest/eventId``), and the way its answer is made of its command's result —
    /// and its answer is kept (when it is a success, status 200–299) for
    /// ``LogbookConfiguration/idempotencyKeyRetention``; a retry — same scope, key and
    /// fingerprint — gets the kept answer and runs nothing. The same key with another fingerprint
    /// is refused with ``LogbookError/Code/idempotencyConflict``.
    ///
    /// Answers are kept beside the read models, or in the log when several servers share it
    /// (PostgreSQL), so a retry reaching another server gets the original answer too. There, when
    /// the caller said how its answer is made (``KeyedCall/answer(with:)``), the answer is kept
    /// in the commit that appends the command's events: it exists if, and only if, they do, and
    /// it is the answer given — even if something after the commit fails. A request that appends
    /// nothing (a retry answered from the log, a repeated import, an erasure's later steps) keeps
    /// its answer after it has run, before it is given.
    ///
    /// Requests with one key run one at a time in this process, so two identical requests racing
    /// write once and answer alike; across processes the answer kept first stands and every
    /// server answers it. For a retry whose answer was not kept (a crash before a request that
    /// appended nothing kept it, or a key older than the retention), the log's unique event ids
    /// make the retry write nothing: it answers the original positions as already applied. A
    /// refused request (an error, or a status outside 200–299) keeps nothing, so its retry
    /// decides again.
    public func once(
        _ request: IdempotentRequest, _ perform: (_ call: KeyedCall) async throws -> StoredResponse
    ) async throws -> (response: StoredResponse, replayed: Bool) {
        try await locks.withLock("idempotency-key:\(request.scope)\u{0}\(request.key)") {
            if let entry = try await keptAnswers.entry(for: request) {
                return (try Self.answer(entry, to: request), true)
            }
            let call = KeyedCall(request: request)
            keyedCalls.withLock { $0[call.eventId] = call }
            defer { keyedCalls.withLock { _ = $0.removeValue(forKey: call.eventId) } }
            let response: StoredResponse
            do {
                response = try await perform(call)
            } catch {
                // The events and their answer were committed together: that is the request's answer.
                if let kept = call.kept { return (try Self.answer(kept.entry, to: request), !kept.byThisCall) }
                throw error
            }
            if let kept = call.kept { return (try Self.answer(kept.entry, to: request), !kept.byThisCall) }
            guard (200..<300).contains(response.status) else { return (response, false) }
            let standing = try await keptAnswers.remember(response, for: request)
            return (try Self.answer(standing, to: request), standing.response != response)
        }
    }

    /// The kept answer `entry` as the answer to `request`, unless it was kept for another request
    /// under the same key.
    private static func answer(_ entry: RequestKeyStore.Entry, to request: IdempotentRequest) throws -> StoredResponse {
        guard entry.fingerprint == request.fingerprint else {
            throw LogbookError.idempotencyConflict(
                key: request.key, reason: "it was used at \(entry.storedAt) for another request (method, path or body); use a new key for a new request")
        }
        return entry.response
    }

    /// Spends the one-time credential `id` (a random id of at least 16 characters, such as a
    /// sign-in code's): true the first time, false ever after, on this server and on every server
    /// sharing its log, for ``LogbookConfiguration/idempotencyKeyRetention`` (so a credential must
    /// expire sooner). The spending is kept where the answers to keyed requests are, under `scope`:
    /// beside the read models, or in the shared log, where the first server to keep it wins and
    /// each server reads back whose it is.
    public func spendOnce(_ id: String, scope: String) async throws -> Bool {
        // This spending's own mark: whoever reads it back kept it first.
        let mark = IdempotentRequest.fingerprint([Array(UUID().uuidString.utf8), Array(id.utf8)])
        let request = try IdempotentRequest(key: id, scope: "one-time:" + scope, fingerprint: mark)
        return try await locks.withLock("idempotency-key:\(request.scope)\u{0}\(request.key)") {
            if try await keptAnswers.entry(for: request) != nil { return false }
            let standing = try await keptAnswers.remember(StoredResponse(status: 204, entityTag: nil, body: []), for: request)
            return standing.fingerprint == mark
        }
    }
}
