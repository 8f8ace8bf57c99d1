import EventLog
public import Foundation

extension Logbook {
    /// Runs a keyed request at most once: the first time, `perform` runs with the event id the
    /// request's first event must carry (``IdempotentRequest/eventId``) and its answer is kept
    /// (when it is a success, status 200–299) for ``LogbookConfiguration/idempotencyKeyRetention``;
    /// a retry — same scope, key and fingerprint — gets the kept answer and runs nothing. The same
    /// key with another fingerprint is refused with ``LogbookError/Code/idempotencyConflict``.
    ///
    /// Answers are kept beside the read models, or in the log when several servers share it
    /// (PostgreSQL), so a retry reaching another server gets the original answer too.
    ///
    /// Requests with one key run one at a time in this process, so two identical requests racing
    /// write once and answer alike. Across processes, and for a retry whose answer was not kept (a
    /// crash between the append and the keeping, or a key older than the retention), the log's
    /// unique event ids make the retry write nothing: it answers the original positions as
    /// already applied. A refused request (an error, or a status outside 200–299) keeps nothing,
    /// so its retry decides again.
    public func once(
        _ request: IdempotentRequest, _ perform: (_ eventId: UUID) async throws -> StoredResponse
    ) async throws -> (response: StoredResponse, replayed: Bool) {
        try await locks.withLock("idempotency-key:\(request.scope)\u{0}\(request.key)") {
            if let entry = try await keptAnswers.entry(for: request) {
                guard entry.fingerprint == request.fingerprint else {
                    throw LogbookError.idempotencyConflict(
                        key: request.key, reason: "it was used at \(entry.storedAt) for another request (method, path or body); use a new key for a new request")
                }
                return (entry.response, true)
            }
            let response = try await perform(request.eventId)
            if (200..<300).contains(response.status) { try await keptAnswers.remember(response, for: request) }
            return (response, false)
        }
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
            try await keptAnswers.remember(StoredResponse(status: 204, entityTag: nil, body: []), for: request)
            return try await keptAnswers.entry(for: request)?.fingerprint == mark
        }
    }
}
