import Crypto
public import Foundation

/// A request a client may send more than once under one idempotency key (HTTP's
/// `Idempotency-Key`): who sent it, the key, and a fingerprint of what it asks.
///
/// The same key with the same fingerprint is a retry; the same key with another fingerprint is
/// a client bug, refused (see ``Logbook/once(_:_:)``).
public struct IdempotentRequest: Sendable, Hashable {
    /// The client's key: 1 to 255 visible ASCII characters.
    public let key: String
    /// Whose key it is (the authenticated caller): keys of different callers never meet.
    public let scope: String
    /// A SHA-256 digest of what the request asks, such as its method, path and body.
    public let fingerprint: [UInt8]

    /// Refuses a key that is empty, longer than 255 characters, or not visible ASCII.
    public static func check(key: String) throws {
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw LogbookError.invalidArgument(
                name: "Idempotency-Key", reason: "a key is 1 to 255 visible ASCII characters, not \"\(key.prefix(40))\"")
        }
    }

    /// A keyed request; refuses a key that is empty, longer than 255 characters, or not visible ASCII.
    public init(key: String, scope: String, fingerprint: [UInt8]) throws {
        try Self.check(key: key)
        guard fingerprint.count == SHA256.byteCount else {
            throw LogbookError.invalidArgument(name: "fingerprint", reason: "a SHA-256 digest of \(SHA256.byteCount) bytes")
        }
        self.key = key
        self.scope = scope
        self.fingerprint = fingerprint
    }

    /// A fingerprint of a request made of `parts` (for HTTP: method, path and body bytes); each
    /// part is length-prefixed, so no two different lists of parts share one.
    public static func fingerprint(_ parts: [[UInt8]]) -> [UInt8] {
        var hash = SHA256()
        for part in parts {
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { hash.update(bufferPointer: $0) }
            hash.update(data: part)
        }
        return Array(hash.finalize())
    }

    /// The 32 bytes the key is stored under: a digest of scope and key.
    var storageKey: [UInt8] { Self.fingerprint([Array("logbook.idempotency-key".utf8), Array(scope.utf8), Array(key.utf8)]) }

    /// The id of the first event the request writes, the same on every retry (and on every
    /// server), so even a retry the key store does not remember writes nothing: the log keeps
    /// event ids unique. A version-8 UUID made of the digest of scope, key and fingerprint, so
    /// another request under a forgotten key is a new event, not a repeat of the old one.
    public var eventId: UUID {
        var bytes = Array(Self.fingerprint([Array("logbook.idempotent-event".utf8), Array(scope.utf8), Array(key.utf8), fingerprint]).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// The answer to a keyed request, kept to answer its retries: status, entity tag and body.
public struct StoredResponse: Sendable, Hashable {
    public var status: Int
    public var entityTag: String?
    public var body: [UInt8]

    /// A response with `status`, an optional entity tag, and `body`.
    public init(status: Int, entityTag: String? = nil, body: [UInt8]) {
        self.status = status
        self.entityTag = entityTag
        self.body = body
    }
}
