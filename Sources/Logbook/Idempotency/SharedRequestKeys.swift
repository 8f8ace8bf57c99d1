import EventLog

/// Where the answers to keyed requests are kept: ``RequestKeyStore`` beside the read models on an
/// embedded store, ``SharedRequestKeys`` in the log itself when several servers share it.
protocol RequestKeyKeeper: Sendable {
    /// The answer kept for `request`, unless there is none or it is older than the retention.
    func entry(for request: IdempotentRequest) async throws -> RequestKeyStore.Entry?
    /// Keeps `response` as the answer to `request`, unless an answer kept since the retention
    /// began stands under its key already (the first kept wins); returns, once the keeping is
    /// committed, the entry that stands.
    func remember(_ response: StoredResponse, for request: IdempotentRequest) async throws -> RequestKeyStore.Entry
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
        return Self.entry(answer)
    }

    func remember(_ response: StoredResponse, for request: IdempotentRequest) async throws -> RequestKeyStore.Entry {
        Self.entry(try await log.keepAnswer(answer(response, for: request), under: request.storageKey, expiringBefore: cutoff()))
    }

    /// What keeping `response` for `request` now stores.
    func answer(_ response: StoredResponse, for request: IdempotentRequest) -> KeptAnswer {
        KeptAnswer(
            keptAt: clock.now().microsecondsSinceEpoch, fingerprint: request.fingerprint, status: response.status,
            entityTag: response.entityTag, body: response.body)
    }

    /// Answers kept before this (microseconds since 1970) have expired.
    func cutoff() -> Int64 {
        clock.now().microsecondsSinceEpoch.subtractingReportingOverflow(retention.microseconds).partialValue
    }

    /// A kept answer as an entry.
    static func entry(_ answer: KeptAnswer) -> RequestKeyStore.Entry {
        RequestKeyStore.Entry(
            storedAt: Timestamp(microsecondsSinceEpoch: answer.keptAt), fingerprint: answer.fingerprint,
            response: StoredResponse(status: answer.status, entityTag: answer.entityTag, body: answer.body))
    }
}
