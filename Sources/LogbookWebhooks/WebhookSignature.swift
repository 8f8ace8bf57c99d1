import Crypto
public import Foundation
import LogbookDomain

/// `Logbook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: how a receiver
/// knows a batch came from this Logbook, unaltered, and recently (swift-crypto's HMAC).
///
/// During a secret's rotation the header carries one `v1` per secret in use, the new one first
/// (`t=…,v1=<new>,v1=<old>`): a receiver that still holds the old secret, or already the new
/// one, finds the signature it can check.
public enum WebhookSignature {
    /// The header's value for `body` sent at `seconds` (since 1970), keyed with `secret`.
    public static func header(secret: String, seconds: Int64, body: some DataProtocol) -> String {
        header(secrets: [secret], seconds: seconds, body: body)
    }

    /// The header's value for `body` sent at `seconds` (since 1970): one `v1` per secret, in order.
    public static func header(secrets: [String], seconds: Int64, body: some DataProtocol) -> String {
        (["t=\(seconds)"] + secrets.map { "v1=" + code(secret: $0, seconds: seconds, body: body).hexDigits }).joined(separator: ",")
    }

    /// Whether `header` signs `body` with any of `secrets` (a receiver rotating its own: the new
    /// and the old), at most `tolerance` seconds from `now` (compared in constant time).
    public static func verify(header: String, secrets: [String], body: some DataProtocol, now: Int64, tolerance: Int64 = 300) -> Bool {
        secrets.contains { verify(header: header, secret: $0, body: body, now: now, tolerance: tolerance) }
    }

    /// Whether `header` signs `body` with `secret`, at most `tolerance` seconds from `now`
    /// (compared in constant time).
    public static func verify(header: String, secret: String, body: some DataProtocol, now: Int64, tolerance: Int64 = 300) -> Bool {
        var seconds: Int64?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { seconds = Int64(pair[1]) }
            if pair[0] == "v1", let bytes = bytes(hex: pair[1]) { signatures.append(bytes) }
        }
        guard let seconds, now.subtractingReportingOverflow(seconds).partialValue.magnitude <= tolerance.magnitude else { return false }
        let key = SymmetricKey(data: Data(secret.utf8))
        let message = Data("\(seconds).".utf8) + Data(body)
        return signatures.contains { HMAC<SHA256>.isValidAuthenticationCode($0, authenticating: message, using: key) }
    }

    static func code(secret: String, seconds: Int64, body: some DataProtocol) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(seconds).".utf8))
        hmac.update(data: body)
        return Array(hmac.finalize())
    }

    private static func bytes(hex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 64 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = JSONReader.hexDigit(utf8[index]), let low = JSONReader.hexDigit(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
