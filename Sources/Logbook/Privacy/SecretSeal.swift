import EventLog
import Foundation
import Sodium

/// Seals the secrets a store keeps for others — webhooks' signing secrets — so that they are
/// never at rest in plaintext: XChaCha20-Poly1305 (libsodium) under a key of the store's own,
/// with a random 24-byte nonce per sealing and the secret's owner (a webhook's id) authenticated
/// alongside, so a sealed secret moved to another owner does not open.
///
/// The key lives where users' payload keys do, under ``keyName`` — a name no user can have (it
/// holds a space): the embedded store's key store (`keys/`, apart from the log's `data.mdb`), or
/// a shared log's `logbook.user_keys`, so every server of the log opens what another sealed. It
/// is made on first use (the first made wins when servers race), comes with the store's backups
/// as the payload keys do, and is never erased.
package struct SecretSeal: Sendable {
    /// The key's name among the users' keys.
    package static let keyName = "logbook webhook-secrets"
    /// What a sealed secret starts with: this format, then base64 of nonce, ciphertext and tag.
    static let prefix = "xc1:"
    /// The longest sealed text opened (a secret of a few hundred bytes seals to far less).
    static let maxSealedLength = 4096

    let key: SymmetricKey

    /// `secret` sealed for `owner`: `xc1:` and base64 of the nonce, ciphertext and tag.
    package func seal(_ secret: String, owner: String) throws(LogbookError) -> String {
        do {
            let nonce = try RandomBytes.make(XChaCha20Poly1305.nonceBytes)
            let sealed = try XChaCha20Poly1305.seal(
                Array(secret.utf8).span, key: key, nonce: nonce.span, authenticating: Array(owner.utf8).span, prefixedBy: nonce.span)
            return Self.prefix + Data(sealed).base64EncodedString()
        } catch {
            throw .storage("sealing the secret of \(owner): \(error)")
        }
    }

    /// The secret `sealed` holds for `owner`; a storage error when it is not one sealed by
    /// ``seal(_:owner:)`` with this key for this owner.
    package func open(_ sealed: String, owner: String) throws(LogbookError) -> String {
        guard sealed.utf8.count <= Self.maxSealedLength, sealed.hasPrefix(Self.prefix),
              let bytes = Data(base64Encoded: String(sealed.dropFirst(Self.prefix.count))).map(Array.init),
              bytes.count >= XChaCha20Poly1305.nonceBytes + XChaCha20Poly1305.tagBytes
        else {
            throw .storage("the secret of \(owner) is not a sealed secret: the store is damaged")
        }
        let span = bytes.span
        do {
            let plaintext = try XChaCha20Poly1305.open(
                span.extracting(XChaCha20Poly1305.nonceBytes...), key: key, nonce: span.extracting(0..<XChaCha20Poly1305.nonceBytes),
                authenticating: Array(owner.utf8).span)
            guard let secret = String(validating: plaintext, as: UTF8.self) else { throw SodiumError(.authenticationFailed, "not UTF-8") }
            return secret
        } catch {
            throw .storage("the secret of \(owner) does not open with this store's key: the store or its key store is damaged, or they belong to different stores")
        }
    }
}

extension Logbook {
    /// The seal of this store's secrets (``SecretSeal``): its key read — or, with `creating`,
    /// made (durably, before this returns) when there is none yet. Nil when there is none and
    /// `creating` is false. Throws when the store keeps no keys (opened read-only without a key
    /// store, or a log that is neither embedded nor shared).
    package func secretSeal(creating: Bool) async throws -> SecretSeal? {
        let name = SecretSeal.keyName
        if let shared = log as? any SharedLog {
            var stored = try await shared.userKeys(of: [name])[name]
            if stored == nil, creating {
                stored = try await shared.makeUserKeys([name: try SymmetricKey.random().copiedBytes()])[name]
            }
            switch stored {
            case .key(let bytes)?: return SecretSeal(key: try SymmetricKey(bytes: bytes))
            case .erased?: throw Self.sealKeyDestroyed()
            case nil: return nil
            }
        }
        guard let store = payloads.store else {
            throw LogbookError.conflict(stream: "webhooks", reason: "this store keeps no key store (opened read-only, or kept elsewhere): its webhooks' secrets cannot be sealed or opened")
        }
        let entry = creating ? try store.ensureKeys(for: [name])[name] : try store.entry(for: name)
        switch entry {
        case .key(let key)?: return SecretSeal(key: key)
        case .erased?: throw Self.sealKeyDestroyed()
        case nil: return nil
        }
    }

    private static func sealKeyDestroyed() -> LogbookError {
        .storage("the key sealing this store's webhook secrets was destroyed: set each webhook a new secret")
    }
}
