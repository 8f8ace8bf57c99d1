package import EventLog
package import Foundation
import Sodium

/// Where a Logbook's payloads are sealed on the way into the log and opened on the way out: with
/// each user's own key (``UserKeyStore``) in a store that encrypts, as they are in one that keeps
/// plaintext. Events without a subject (the catalog) are never encrypted. Every reader of
/// payloads — folds, the timeline, the wire form — opens them here, so an erased user's events
/// read as erased everywhere at once.
///
/// Payloads are sealed in the store's own format: AES-256-GCM with nonces from one
/// ``AESGCMPayloadCipher/NonceSequence`` per open (``PayloadFormat/perUserAESGCM``), or
/// XChaCha20-Poly1305 with a salt drawn when these keys are opened
/// (``PayloadFormat/perUserXChaChaPoly``, see ``PayloadCipher``); a store of the first format is
/// read, and refuses to seal anything new until `logbook encrypt-existing` has moved it.
package final class PayloadKeys: Sendable {
    let store: UserKeyStore?
    /// The keys of a log several servers share, when they are kept there instead.
    let shared: SharedUserKeys?
    /// What makes each sealing's nonce unique (nil: nothing is sealed here).
    private let sealing: Sealing?

    /// Where the nonces of the payloads sealed through these keys come from, by format.
    private enum Sealing: Sendable {
        case xchacha(PayloadCipher.Salt)
        case aesGCM(AESGCMPayloadCipher.NonceSequence)
    }

    /// A store's keys; nil: payloads are plaintext and no user can be erased.
    init(store: UserKeyStore?) throws {
        self.store = store
        shared = nil
        sealing = try Self.sealing(store?.format ?? .plaintext)
    }

    /// Keys kept in a log several servers share (``SharedUserKeys``).
    init(shared: SharedUserKeys) throws {
        store = nil
        self.shared = shared
        sealing = try Self.sealing(shared.format)
    }

    /// How payloads of `format` are sealed from here; throws for AES-256-GCM on a CPU that cannot run it.
    private static func sealing(_ format: PayloadFormat) throws -> Sealing? {
        switch format {
        case .plaintext, .perUserChaChaPoly: return nil
        case .perUserXChaChaPoly: return .xchacha(try PayloadCipher.Salt.random())
        case .perUserAESGCM:
            guard AES256GCM.isAvailable else {
                throw LogbookError.storage(
                    "this store keeps payloads as \(format.rawValue), which needs a CPU with AES-NI and CLMUL, and this one lacks them: "
                        + "open it on a machine whose CPU has them")
            }
            return .aesGCM(try AESGCMPayloadCipher.NonceSequence())
        }
    }

    private init() {
        store = nil
        shared = nil
        sealing = nil
    }

    /// Payloads kept in plaintext (a shared log written before it kept keys).
    static let plaintext = PayloadKeys()

    /// Keys in a key store of their own in `directory` (created in `format` unless it exists,
    /// flushed lazily): the benchmarks', to seal and open payloads exactly as a Logbook does.
    package convenience init(encryptingWithKeysIn directory: String, format: PayloadFormat = .current) throws {
        try self.init(store: try UserKeyStore(directory: directory, creatingWith: format, readOnly: false, durability: .noSync))
    }

    package func close() { store?.close() }

    /// How this store keeps payloads.
    package var format: PayloadFormat { store?.format ?? shared?.format ?? .plaintext }
    var encrypts: Bool { format.isEncrypted }

    /// True if `user` was erased (their key destroyed).
    package func isErased(_ user: String) throws -> Bool {
        var memo: KeyMemo? = nil
        return try isErased(user, remembering: &memo)
    }

    /// The same for a reader that asks of many events in turn: their users' keys are looked up
    /// through `memo` (when it is not nil), once per user.
    func isErased(_ user: String, remembering memo: inout KeyMemo?) throws -> Bool {
        guard encrypts else { return false }
        return try entry(for: user, remembering: &memo)?.isErased == true
    }

    /// A memo for a reader about to open `events` payloads (`Int.max`: as many as it holds), or
    /// nil where payloads are plaintext and there are no keys to remember.
    func keyMemo(events: Int) -> KeyMemo? { encrypts ? KeyMemo(events: events) : nil }

    /// The user's key or tombstone: from the store of its own, or — for a shared log — as loaded
    /// by ``prepare(_:creating:)``.
    private func entry(for user: String) throws -> UserKeyStore.Entry? {
        if let shared { return shared.entry(for: user) }
        return try store?.entry(for: user)
    }

    /// The same through `memo` when there is one.
    private func entry(for user: String, remembering memo: inout KeyMemo?) throws -> UserKeyStore.Entry? {
        guard memo != nil else { return try entry(for: user) }
        return try memo!.entry(for: user) { try self.entry(for: $0) }
    }

    /// Loads (for a shared log) the keys of `users` before their payloads are sealed or opened,
    /// making those they lack with `creating`; nothing for a store with keys of its own, which
    /// reads them as it goes.
    package func prepare(_ users: some Sequence<String>, creating: Bool) async throws {
        guard encrypts, let shared else { return }
        try await shared.load(users, creating: creating)
    }

    /// ``prepare(_:creating:)`` for the subjects of `envelopes`.
    func prepare(opening envelopes: some Sequence<EventEnvelope>) async throws {
        guard encrypts, shared != nil else { return }
        try await prepare(envelopes.lazy.compactMap(\.subject), creating: false)
    }

    /// Calls `body` with the plaintext of a stored payload, or with nil if its user was erased.
    /// A payload that does not open (a missing key for a user who was not erased, a changed
    /// byte) is a storage error naming the position: never garbage, never silence.
    ///
    /// ``withOpened(_:_:_:)`` does the work; a caller in another module that opens many payloads
    /// calls it directly, as this generic function, not specialized there, looks up the metadata
    /// of `R?` for every payload.
    package func open<R>(_ envelope: EventEnvelope, _ payload: Span<UInt8>, _ body: (Span<UInt8>?) throws(LogbookError) -> R) throws(LogbookError) -> R {
        var result: R?
        try withOpened(envelope, payload) { (plaintext) throws(LogbookError) in result = try body(plaintext) }
        // withOpened returns only after calling the body, which set it.
        return result!
    }

    /// ``open(_:_:_:)`` without a result: the one place payloads are opened.
    package func withOpened(_ envelope: EventEnvelope, _ payload: Span<UInt8>, _ body: (Span<UInt8>?) throws(LogbookError) -> Void) throws(LogbookError) {
        var memo: KeyMemo? = nil
        try withOpened(envelope, payload, remembering: &memo, body)
    }

    /// ``withOpened(_:_:_:)`` for a reader that opens many payloads in turn: their users' keys
    /// are looked up through `memo` (when it is not nil), once per user.
    func withOpened(
        _ envelope: EventEnvelope, _ payload: Span<UInt8>, remembering memo: inout KeyMemo?, _ body: (Span<UInt8>?) throws(LogbookError) -> Void
    ) throws(LogbookError) {
        // Fields are read through `header`, not the envelope's dynamic members, which copy it.
        let header = envelope.header
        guard encrypts, let user = header.subject else { return try body(payload) }
        let entry: UserKeyStore.Entry?
        do {
            entry = try self.entry(for: user, remembering: &memo)
        } catch {
            throw Self.storageError(error)
        }
        switch entry {
        case .erased?:
            return try body(nil)
        case .key(let key)?:
            do {
                if format == .perUserAESGCM {
                    // Opened into memory of the call's own; the body's own errors pass through untouched.
                    return try AESGCMPayloadCipher.withOpened(
                        payload, key: key, eventId: header.eventId, type: header.type, schemaVersion: header.schemaVersion) { try body($0) }
                }
                let plaintext = format == .perUserChaChaPoly
                    ? try LegacyPayloadCipher.open(payload, key: key, eventId: header.eventId, type: header.type)
                    : try PayloadCipher.open(payload, key: key, eventId: header.eventId, type: header.type, schemaVersion: header.schemaVersion)
                return try body(plaintext.span)
            } catch let error as LogbookError {
                throw error
            } catch {
                throw .storage("the payload at position \(envelope.position) (\(envelope.type) of \(user)) does not open with its user's key: the log or the key store is damaged")
            }
        case nil:
            throw .storage("no key for user \"\(user)\", who was not erased, to open the payload at position \(envelope.position): the key store is missing or damaged")
        }
    }

    /// Encrypts the payloads of `request`'s events that have a subject, creating (durably, before
    /// anything is appended) the keys of users who have none. Events of an erased user are
    /// refused; `tombstones` (events imported as erased) are left as they are. A store of the first
    /// format seals nothing new: an event with a subject is refused (``firstFormatSealsNothing()``).
    package func seal(_ request: inout AppendRequest, tombstones: Set<UUID> = []) throws(LogbookError) {
        guard encrypts else { return }
        guard let sealing else {
            if request.events.contains(where: { $0.subject != nil && !tombstones.contains($0.eventId) }) { throw Self.firstFormatSealsNothing() }
            return
        }
        // One block of nonces for the whole request (one lock), used only as far as events are sealed.
        var nonces: AESGCMPayloadCipher.Block?
        if case .aesGCM(let sequence) = sealing {
            do {
                nonces = try sequence.reserve(request.events.count)
            } catch {
                throw .storage("drawing a new nonce salt: \(error)")
            }
        }
        // The request's last user and their entry: a request's events are often one user's (a
        // stream restored or imported), and then every event after the first is sealed without a
        // look-up, all under the entry the first one found.
        var last: (user: String, entry: UserKeyStore.Entry?)?
        // Fields are read through `header`, not the event's dynamic members: a key path applied to
        // an element of the array copies the whole event.
        for index in request.events.indices {
            guard let user = request.events[index].header.subject,
                  tombstones.isEmpty || !tombstones.contains(request.events[index].header.eventId) else { continue }
            // The cache answers once a user has a key; a new user's key is made (durably) first
            // (for a shared log, by ``prepare(_:creating:)``).
            let entry: UserKeyStore.Entry?
            if let last, last.user.hasSameBytes(as: user) {
                entry = last.entry
            } else {
                do {
                    if let shared {
                        guard let loaded = shared.entry(for: user) else {
                            throw LogbookError.storage("the key of user \"\(user)\" was not loaded from the shared log before sealing")
                        }
                        entry = loaded
                    } else {
                        entry = try store?.cachedEntry(for: user) ?? store?.ensureKeys(for: [user])[user]
                    }
                } catch {
                    throw Self.storageError(error)
                }
                last = (user, entry)
            }
            guard case .key(let key) = entry else {
                throw .ruleViolation(rule: .userErased, message: "user \"\(user)\" was erased: nothing more is recorded for them")
            }
            // The fields sealing reads, not the whole event: copying a ProposedEvent retains each of its fields.
            let (eventId, type, schemaVersion) = (
                request.events[index].header.eventId, request.events[index].header.type, request.events[index].header.schemaVersion)
            let plaintext = request.events[index].payload
            do {
                switch sealing {
                case .aesGCM:
                    // Reserved above for exactly this request's events: never nil, never out of range.
                    request.events[index].payload = try nonces!.withNonce(index) { nonce in
                        try AESGCMPayloadCipher.seal(plaintext.span, key: key, nonce: nonce, eventId: eventId, type: type, schemaVersion: schemaVersion)
                    }
                case .xchacha(let salt):
                    request.events[index].payload = try PayloadCipher.seal(
                        plaintext.span, key: key, salt: salt, eventId: eventId, type: type, schemaVersion: schemaVersion)
                }
            } catch {
                throw .storage("sealing the payload of event \(eventId.uuidString.lowercased()) (\(type) of \(user)): \(error)")
            }
        }
    }

    /// Why a store of the first encrypted format appends no event of a user: its 12-byte nonces,
    /// folded from the event ids, can repeat under one key; sealing more that way would add to the
    /// risk, and a store must not mix formats. Reading, exporting and backing it up work as before.
    static func firstFormatSealsNothing() -> LogbookError {
        .conflict(stream: "payloads", reason: "this store keeps payloads as \(PayloadFormat.perUserChaChaPoly.rawValue), which seals nothing new: "
            + "move it to \(PayloadFormat.current.rawValue) with `logbook encrypt-existing --path OLD --to NEW` first")
    }

    /// Destroys `user`'s key (a tombstone takes its place and the key store is rewritten
    /// compacted); false if it was destroyed already.
    @discardableResult
    func destroyKey(of user: String) throws(LogbookError) -> Bool {
        guard let store, encrypts else { throw Self.plaintextStore(user) }
        guard format.seals else { throw Self.firstFormatSealsNothing() }
        do {
            return try store.erase(user)
        } catch {
            throw Self.storageError(error)
        }
    }

    static func plaintextStore(_ user: String) -> LogbookError {
        .conflict(stream: "user-\(user)", reason: "this store keeps payloads in plaintext, so no one can be erased from it: "
            + "rewrite it with `logbook encrypt-existing` first")
    }

    /// True when every one of `users` has a key here already (so sealing their events makes
    /// nothing); false when a user has none yet or was erased. Always true for plaintext.
    func haveKeys(_ users: Set<String>) throws(LogbookError) -> Bool {
        guard encrypts else { return true }
        do {
            for user in users {
                guard case .key? = try entry(for: user) else { return false }
            }
        } catch {
            throw Self.storageError(error)
        }
        return true
    }

    /// Makes (durably, in one commit) the keys of `users` that have none, before a restore seals
    /// events of many users request by request.
    func prepareKeys(for users: Set<String>) async throws(LogbookError) {
        guard encrypts, !users.isEmpty else { return }
        guard format.seals else { throw Self.firstFormatSealsNothing() }
        do {
            if let shared {
                try await shared.load(users, creating: true)
            } else {
                _ = try store?.ensureKeys(for: users)
            }
        } catch {
            throw Self.storageError(error)
        }
    }

    /// Records `users` as erased without a key ever being made (a restore of tombstones). A user
    /// who has a key here is a conflict: their events here are not erased.
    func markErased(_ users: Set<String>) async throws(LogbookError) {
        guard encrypts else {
            guard users.isEmpty else {
                throw .invalidArgument(name: "erased", reason: "this store keeps payloads in plaintext and cannot hold erased users' events")
            }
            return
        }
        guard format.seals || users.isEmpty else { throw Self.firstFormatSealsNothing() }
        do {
            if let shared { try await shared.load(users, creating: false) }
            for user in users.sorted() {
                switch try entry(for: user) {
                case .erased?: continue
                case .key?: throw LogbookError.conflict(stream: "user-\(user)", reason: "erased events of \(user), who is not erased here")
                case nil:
                    if let shared {
                        guard let log = shared.log else { throw LogbookError.storage("a backup's fixed keys erase no one") }
                        try await log.destroyUserKey(user)
                        shared.markErased(user)
                    } else {
                        try store?.erase(user)
                    }
                }
            }
        } catch let error as LogbookError {
            throw error
        } catch {
            throw Self.storageError(error)
        }
    }

    private static func storageError(_ error: any Error) -> LogbookError {
        (error as? LogbookError) ?? .storage("the key store: \(error)")
    }
}
