import EventLog

/// Where the answers to keyed requests are kept: ``RequestKeyStore`` beside the read models on an
/// embedded store, ``SharedRequestKeys`` in the log itself when several servers share it.
protocol RequestKeyKeeper: Sendable {
    /// The answer kept for `request`, unless there is none or it is older than the retention.
    func entry(for request: IdempotentRequest) async throws -> RequestKeyStore.Entry?
    /// Keeps `response` as the answer to `request`; returns once it is stored.
    func remember(_ response: StoredResponse, for request: IdempotentRequest) async throws
}

extension RequestKeyStore: RequestKeyKeeper {}

/// The answers to keyed requests kept in a log several servers share (``SharedLog``, PostgreSQL's
/// `logbook.request_keys`), so a retry that reaches another server — the first one killed, say —
/// gets the original answer byte for byte. The retention is the Logbook's, timed by its clock.
struct SharedRequestKeys: RequestKeyKeeper {
    let log: any SharedLog
    let retention: Duration
    let clock: any LogClock

    func entry(for request: IdempotentRequest) async throws -> RequestKeyStore.Entry? {
        guard let answer = try await log.keptAnswer(request.storageKey, keptSince: cutoff()) else { return nil }
        return RequestKeyStore.Entry(
            storedAt: Timestamp(microsecondsSinceEpoch: answer.keptAt), fingerprint: answer.fingerprint,
            response: StoredResponse(status: answer.status, entityTag: answer.entityTag, body: answer.body))
    }

    func remember(_ response: StoredResponse, for request: IdempotentRequest) async throws {
        let answer = KeptAnswer(
            keptAt: clock.now().microsecondsSinceEpoch, fingerprint: request.fingerprint, status: response.status,
            entityTag: response.entityTag, body: response.body)
        try await log.keepAnswer(answer, under: request.storageKey, expiringBefore: cutoff())
    }

    private func cutoff() -> Int64 {
        clock.now().microsecondsSinceEpoch.subtractingReportingOverflow(retention.microseconds).partialValue
    }
}
