import EventLog
import Foundation
import Logbook

/// Webhooks' secrets: sealed with the store's key (`SecretSeal`) in their records, opened when
/// a server takes the webhooks over, and rotated — two secrets signing while a rotation runs.
extension WebhookDispatcher {
    /// The secrets of each of `records`, opened — sealing those a record made before secrets were
    /// sealed keeps in plaintext (the record answered is the sealed one). A secret that does not
    /// open leaves its webhook unable to sign (each attempt fails saying so) until it is rotated.
    func openSecrets(_ records: [WebhookRecord]) async throws -> [(WebhookRecord, [String]?)] {
        guard !records.isEmpty else { return [] }
        let seal = try await sealKey(creating: records.contains { $0.webhook.secrets == nil })
        return records.map { record in
            var record = record
            let id = record.webhook.id
            do throws(LogbookError) {
                guard let seal else { throw .storage("no key seals this store's webhook secrets") }
                if record.webhook.secrets == nil, let plaintext = record.webhook.plaintextSecret {
                    record.webhook.secrets = WebhookSecrets(current: try seal.seal(plaintext, owner: id))
                    record.webhook.plaintextSecret = nil
                }
                guard let secrets = record.webhook.secrets else { throw .storage("the record of \(id) holds no secret") }
                var signing = [try seal.open(secrets.current, owner: id)]
                if let previous = secrets.previous { signing.append(try seal.open(previous, owner: id)) }
                return (record, signing)
            } catch {
                logger.error("a webhook's secret does not open: it cannot sign until it is rotated", metadata: ["webhook": "\(id)", "error": "\(error)"])
                return (record, nil)
            }
        }
    }

    /// The key webhooks' secrets are sealed with: read once (nil when the store has none yet and
    /// `creating` is false), made with `creating`.
    func sealKey(creating: Bool) async throws -> SecretSeal? {
        if let seal { return seal }
        let found = try await logbook.secretSeal(creating: creating)
        if seal == nil { seal = found }
        return seal ?? found
    }


    /// Rotates webhook `id`'s secret to `secret`: from the next attempt on, its batches carry two
    /// signatures, with the new secret and with the old one, until ``endRotation(_:)`` — so the
    /// receiver can move to the new secret whenever it likes. Refused (409) while a rotation
    /// runs. A webhook whose secret does not open gets the new one alone.
    public func rotateSecret(_ id: String, to secret: String) async throws -> WebhookStatus {
        let entry = try entry(id)
        let term = self.term
        try WebhookRequest.checkSecret(secret, limits: policy.limits)
        if entry.record.webhook.secrets?.previous != nil {
            throw LogbookError.conflict(stream: id, reason: "a rotation of its secret runs already (two secrets sign its batches): end it first")
        }
        guard let seal = try await sealKey(creating: true) else { throw LogbookError.storage("no key was made to seal webhooks' secrets") }
        let sealed = try seal.seal(secret, owner: id)
        try requireTerm(term)
        guard let current = deliveries.entries[id] else { throw LogbookError.notFound(kind: "webhook", id: id) }
        guard current.record.webhook.secrets?.previous == nil else {
            throw LogbookError.conflict(stream: id, reason: "a rotation of its secret runs already (two secrets sign its batches): end it first")
        }
        let old = current.signing?.first
        try await storeSecrets(
            id,
            WebhookSecrets(
                current: sealed, previous: old == nil ? nil : current.record.webhook.secrets?.current,
                rotatedAt: old == nil ? nil : logbook.configuration.clock.now().instant),
            signing: [secret] + (old.map { [$0] } ?? []))
        return try await status(id)
    }

    /// Ends the rotation of webhook `id`'s secret: only the new secret signs from the next attempt
    /// on. Refused (409) when no rotation runs.
    public func endRotation(_ id: String) async throws -> WebhookStatus {
        guard var current = try entry(id).record.webhook.secrets, current.previous != nil else {
            throw LogbookError.conflict(stream: id, reason: "no rotation of its secret runs: one secret signs its batches")
        }
        current.previous = nil
        current.rotatedAt = nil
        guard let entry = deliveries.entries[id] else { throw LogbookError.notFound(kind: "webhook", id: id) }
        try await storeSecrets(id, current, signing: entry.signing.map { Array($0.prefix(1)) })
        return try await status(id)
    }

    /// Gives webhook `id` the sealed `secrets` (and `signing`, the secrets they open to) and
    /// stores its record. A store that fails puts the secrets it had back (unless another change
    /// came meanwhile), so what this server signs with is never what its table does not hold.
    private func storeSecrets(_ id: String, _ secrets: WebhookSecrets, signing: [String]?) async throws {
        guard var entry = deliveries.entries[id] else { throw LogbookError.notFound(kind: "webhook", id: id) }
        let before = (secrets: entry.record.webhook.secrets, plaintext: entry.record.webhook.plaintextSecret, signing: entry.signing)
        entry.record.webhook.secrets = secrets
        entry.record.webhook.plaintextSecret = nil
        entry.signing = signing
        deliveries.entries[id] = entry
        do {
            try await persist(id)
        } catch {
            if deliveries.entries[id]?.record.webhook.secrets == secrets {
                deliveries.entries[id]?.record.webhook.secrets = before.secrets
                deliveries.entries[id]?.record.webhook.plaintextSecret = before.plaintext
                deliveries.entries[id]?.signing = before.signing
            }
            throw error
        }
    }
}
