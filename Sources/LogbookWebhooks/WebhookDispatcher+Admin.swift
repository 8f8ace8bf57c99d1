import EventLog
import Foundation
import Logbook
import LogbookOutbound

/// The admin operations: make, list, read, pause, resume and delete webhooks, replay or discard
/// their dead letters (secrets: `WebhookDispatcher+Secrets.swift`). Changes are made by the server delivering; they
/// change the webhook in memory first, then store it through the one chain of writes.
extension WebhookDispatcher {
    /// Makes a webhook from `request` and starts delivering to it the events after `after`
    /// (default: the log's head now, so only what happens from here on).
    public func create(_ request: WebhookRequest, after: UInt64? = nil) async throws -> WebhookStatus {
        try requireDelivering()
        let term = self.term
        let head = try await logbook.log.headPosition()
        if let after, after > head.rawValue {
            throw LogbookError.invalidArgument(name: "after", reason: "is past the log's head (\(head.rawValue))")
        }
        let id = "wh-" + (0..<8).map { _ in UInt8.random(in: 0...255) }.hexDigits
        var webhook = try request.validated(
            id: id, now: logbook.configuration.clock.now(), limits: policy.limits, addresses: AddressPolicy(allowsPrivate: policy.allowPrivateAddresses))
        guard let seal = try await sealKey(creating: true) else { throw LogbookError.storage("no key was made to seal webhooks' secrets") }
        webhook.secrets = WebhookSecrets(current: try seal.seal(request.secret, owner: id))
        let record = WebhookRecord(webhook: webhook)
        try WebhookTable.checkSize(record)
        try requireTerm(term)
        guard deliveries.count < policy.limits.maxWebhooks else {
            throw LogbookError.conflict(stream: "webhooks", reason: "this store has \(policy.limits.maxWebhooks) webhooks, its limit: delete one first")
        }
        let start = after.map { Position($0) } ?? head
        // Held in memory before the writes, so a create running meanwhile writes an index that
        // holds this one too (and the limit counts it).
        deliveries.add(id, .init(record: record, signing: [request.secret], through: start, storedAt: .now))
        do {
            try await write(term: term) { table in try await table.store(record, through: start) }
            let ids = deliveries.order
            try await write(term: term) { table in try await table.storeIds(ids) }
        } catch {
            _ = deliveries.remove(id)
            throw error
        }
        if deliveries[id] != nil { startWorker(id) }
        return try await status(id)
    }

    /// Every webhook, in the order they were made (on a server standing by, as the table holds them).
    public func list() async throws -> [WebhookStatus] {
        guard state.delivering else {
            let head = try await logbook.log.headPosition().rawValue
            var statuses: [WebhookStatus] = []
            for id in try await table.ids() {
                guard let (record, through) = try await table.record(id) else { continue }
                statuses.append(status(.init(record: record, signing: nil, through: through, storedAt: .now), head: head))
            }
            return statuses
        }
        let head = try await logbook.log.headPosition().rawValue
        return deliveries.ordered.map { status($0, head: head) }
    }

    /// One webhook's status.
    public func status(_ id: String) async throws -> WebhookStatus {
        let head = try await logbook.log.headPosition().rawValue
        // Whether this server delivers is decided after the await: it may have stood down meanwhile.
        if state.delivering {
            guard let entry = deliveries[id] else { throw LogbookError.notFound(kind: "webhook", id: id) }
            return status(entry, head: head)
        }
        guard try await table.ids().contains(id), let (record, through) = try await table.record(id) else {
            throw LogbookError.notFound(kind: "webhook", id: id)
        }
        return status(.init(record: record, signing: nil, through: through, storedAt: .now), head: head)
    }

    /// `entry` as the admin routes answer it: no secret, the URL redacted (``OutboundURL/redacting(_:)``).
    func status(_ entry: WebhookDeliveries.Entry, head: UInt64) -> WebhookStatus {
        let id = entry.record.webhook.id
        let webhook = entry.record.webhook
        func time(_ micros: Int64?) -> String? { micros.map { Timestamp(microsecondsSinceEpoch: $0).rfc3339 } }
        return WebhookStatus(
            id: id, url: OutboundURL.redacting(webhook.url), eventTypes: webhook.eventTypes, users: webhook.users, paused: webhook.paused,
            pausedReason: entry.record.pausedReason, createdAt: time(webhook.createdAt)!, deliveredThrough: entry.through.rawValue,
            head: head, lagEvents: head > entry.through.rawValue ? head - entry.through.rawValue : 0,
            batchesDelivered: entry.batches, eventsDelivered: entry.events, failures: entry.failures, lastError: entry.lastError,
            lastDeliveredAt: time(entry.lastDeliveredAt), nextAttemptAt: time(entry.nextAttemptAt),
            deadLetters: entry.record.deadLetters.map(DeadLetterStatus.init), deliveredBy: state.deliveredBy,
            rotationStartedAt: time(webhook.secrets?.previous == nil ? nil : webhook.secrets?.rotatedAt))
    }

    /// Stops and forgets webhook `id`.
    public func delete(_ id: String) async throws {
        let entry = try entry(id)
        let term = self.term
        // Gone from memory at once: nothing started, paused or replayed from here on writes it back.
        _ = deliveries.remove(id)
        forgetStoreBehind(id)
        if let worker = entry.worker {
            worker.cancel()
            await worker.value
        }
        try requireTerm(term)
        let ids = deliveries.order
        try await write(term: term) { table in try await table.storeIds(ids) }
        try await write(term: term) { table in try await table.remove(id) }
    }

    /// Pauses (delivering nothing, the checkpoint kept) or resumes webhook `id`. A webhook that
    /// paused itself for its dead letters resumes only once there is room for more.
    public func setPaused(_ id: String, _ paused: Bool) async throws -> WebhookStatus {
        let entry = try entry(id)
        if !paused, entry.record.deadLetters.count >= policy.limits.maxDeadLetters {
            throw LogbookError.conflict(
                stream: id, reason: "it holds \(entry.record.deadLetters.count) dead letters, its limit: replay or discard some first")
        }
        deliveries.entries[id]?.record.webhook.paused = paused
        deliveries.entries[id]?.record.pausedReason = nil
        if paused {
            stopWorker(id)
        } else if deliveries.entries[id]?.worker == nil {
            startWorker(id)
        }
        try await persist(id)
        return try await status(id)
    }

    /// Sends dead letter `letter` of webhook `id` again, once, now: on the receiver's 2xx it is
    /// gone; otherwise it stays, with the new failure, and this throws ``WebhookReplayError``.
    public func replay(_ id: String, deadLetter letter: String) async throws -> WebhookStatus {
        let entry = try entry(id)
        let term = self.term
        guard let dead = entry.record.deadLetters.first(where: { $0.id == letter }) else {
            throw LogbookError.notFound(kind: "dead letter", id: letter)
        }
        let webhook = entry.record.webhook
        let subjects = webhook.subjects
        var events: [RecordedEvent] = []
        var from = Position(dead.first)
        while from.rawValue <= dead.last {
            let page = try await logbook.log.readAll(from: from, direction: .forward, limit: policy.limits.maxBatchEvents, filter: webhook.logFilter)
            events += page.events.filter { $0.position.rawValue <= dead.last && subjects.wants($0.envelope.subject) }
            guard let scanned = page.scannedThrough, !page.reachedEnd else { break }
            from = scanned.next
        }
        guard !events.isEmpty else { return try await discard(id, deadLetter: letter) }
        try await logbook.loadKeys(opening: events)
        let failure: String?
        switch WebhookBatch.make(webhookId: id, events: events[...], maxBytes: .max, of: logbook) {
        case .batch(let batch, _): failure = await send(batch, to: webhook)?.description
        case .unencodable(_, let reason): failure = "an event has no wire form: \(reason)"
        }
        try requireTerm(term)
        guard deliveries.entries[id]?.record.deadLetters.contains(where: { $0.id == letter }) == true else { return try await status(id) }
        if let failure {
            let now = logbook.configuration.clock.now().instant
            let letters = deliveries.entries[id]?.record.deadLetters ?? []
            deliveries.entries[id]?.record.deadLetters = letters.map { dead in
                guard dead.id == letter else { return dead }
                var tried = dead
                tried.attempts += 1
                tried.error = DeadLetter.shortened(failure)
                tried.failedAt = now
                return tried
            }
            try await persist(id)
            throw WebhookReplayError(deadLetter: letter, reason: failure)
        }
        deliveries.entries[id]?.record.deadLetters.removeAll { $0.id == letter }
        try await persist(id)
        return try await status(id)
    }

    /// Drops dead letter `letter` of webhook `id` unsent.
    public func discard(_ id: String, deadLetter letter: String) async throws -> WebhookStatus {
        let entry = try entry(id)
        guard entry.record.deadLetters.contains(where: { $0.id == letter }) else {
            throw LogbookError.notFound(kind: "dead letter", id: letter)
        }
        deliveries.entries[id]?.record.deadLetters.removeAll { $0.id == letter }
        try await persist(id)
        return try await status(id)
    }
}
