import Foundation

/// The JOSE header of a bearer token, judged before its signature is: a server with one HS256
/// secret accepts exactly `{"alg":"HS256"}`, with `"typ":"JWT"` allowed. Any other algorithm
/// (`HS512`, `none`, `RS256`…), a key id (`kid`: the server has one key and names none), a
/// critical extension (`crit`) or a key carried in the header (`jwk`, `jku`, `x5u`, `x5c`…) is
/// refused, so what a token says of itself never chooses how it is verified.
enum TokenHeader {
    /// The longest header read (base64url characters).
    static let maxLength = 1_024

    /// The only algorithm a token may name.
    static let algorithm = "HS256"

    /// Why the header of `token` is refused, or nil if it names HS256 and nothing else.
    static func refusal(_ token: String) -> String? {
        guard let end = token.utf8.firstIndex(of: UInt8(ascii: ".")) else { return "the token is malformed: it is not three dot-separated parts" }
        let encoded = token.utf8[..<end]
        guard encoded.count <= maxLength else { return "the token's header is longer than \(maxLength) characters" }
        guard let bytes = base64URLDecoded(encoded),
              let header = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        else { return "the token is malformed: its header is not base64url-encoded JSON" }
        guard let algorithm = header["alg"] as? String else { return "the token's header names no algorithm (alg)" }
        guard algorithm.utf8.elementsEqual(Self.algorithm.utf8) else {
            return "the token's header names the algorithm \"\(algorithm.prefix(32))\"; this server signs and accepts \(Self.algorithm) only"
        }
        if header["kid"] != nil { return "the token's header names a key id (kid); this server has one key and names none" }
        if let type = header["typ"], !((type as? String)?.utf8.elementsEqual("JWT".utf8) ?? false) {
            return "the token's header gives the type (typ) \"\((type as? String)?.prefix(32) ?? "?")\"; only JWT is accepted"
        }
        if let other = header.keys.filter({ $0 != "alg" && $0 != "typ" }).sorted().first {
            return "the token's header carries \"\(other.prefix(32))\", which this server does not accept"
        }
        return nil
    }

    /// The bytes of base64url text without padding (RFC 7515), nil if it is not that.
    static func base64URLDecoded(_ text: Substring.UTF8View) -> [UInt8]? {
        var standard = [UInt8]()
        standard.reserveCapacity(text.count + 2)
        for byte in text {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map { Array($0) }
    }
}
