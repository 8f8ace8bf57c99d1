import Foundation

/// An `http` or `https` URL an outbound call may be made to, read the way AsyncHTTPClient reads
/// it (Foundation's `URL`, its `host` with IPv6 brackets trimmed), so the host checked here is the
/// host it would connect to: either an IP address written as one (``literal``) or a host name
/// (letters, digits, `-` and `_` in dot-separated labels; resolved at each call, and the address
/// found checked then). Anything else is refused, naming why (``OutboundURLError``): credentials,
/// a fragment, a host that is neither (a legacy IPv4 form such as `0x7f.1` or `2130706433`, a
/// name with other characters — write an internationalised name in its `xn--` form).
package struct OutboundURL: Sendable, Hashable {
    /// The text as given.
    package let text: String
    /// `http` or `https`.
    package let scheme: String
    /// The host as the HTTP client reads it (no brackets): an address's text or a name.
    package let host: String
    /// The port connected to (the scheme's own when the URL names none).
    package let port: Int
    /// The address the host is written as, when it is one (the client connects there without a lookup).
    package let literal: IPAddress?

    /// The most characters (Unicode scalars) of a URL read; longer ones are refused unread.
    package static let maxLength = 8192

    /// `text` read and checked; throws the first thing wrong with it.
    package init(_ text: String) throws(OutboundURLError) {
        guard text.unicodeScalars.count <= Self.maxLength else { throw .unreadable }
        // Foundation reads some of these leniently; none belongs in a URL given whole.
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.value > 0x7E }) else {
            throw .unreadable
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { throw .unreadable }
        guard scheme == "http" || scheme == "https" else { throw .scheme }
        guard url.user == nil, url.password == nil else { throw .credentials }
        guard url.fragment == nil, !text.contains("#") else { throw .fragment }
        guard let rawHost = url.host, !rawHost.isEmpty else { throw .noHost }
        // Foundation may hand an IPv6 host over with its brackets or without: ask the text.
        let bracketed = Self.authority(of: text).contains("[")
        let host = Self.trimmingBrackets(rawHost)
        guard !host.isEmpty else { throw .noHost }
        self.text = text
        self.scheme = scheme
        self.host = host
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65_535).contains(port) else { throw .port }
        self.port = port
        if let address = IPAddress(literal: host) {
            // An IPv6 address is written in brackets, an IPv4 address without.
            guard bracketed == !address.isIPv4 else { throw .host(host) }
            literal = address
            return
        }
        literal = nil
        if bracketed { throw .host(host) }
        if LegacyIPv4.endsInNumber(host) {
            let number = host.hasSuffix(".") ? host.dropLast() : host[...]
            if let address = LegacyIPv4.parse(number) { throw .legacyIPv4(host, address) }
            throw .host(host)
        }
        guard Self.isHostName(host) else { throw .host(host) }
    }

    /// The URL as listings and logs show it: its scheme, host and port, with its path and query
    /// (where receivers' tokens are passed: `/services/T0/B0/XXXX`, `/T0secret`, `?token=…`)
    /// replaced by `[redacted]` (see ``redacting(_:)``).
    package var redacted: String { Self.redacting(text) }

    /// `text` as it is shown: `scheme://host:port` kept, then the character that ends it (`/`,
    /// `?` or `#`) and `[redacted]` in place of whatever follows (nothing when nothing, or only a
    /// last `/`, does). Any text: one that is not a URL is cut at its first `?` the same way.
    ///
    /// The cut is found in the text's UTF-8 bytes, not its characters: a character that joins the
    /// one after it into one grapheme (U+0600–U+0605, a prepended mark) would otherwise hide a `?`
    /// or `/` inside it, and the query with it.
    package static func redacting(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let (slash, question, hash, colon) = (UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: ":"))
        let query = bytes.firstIndex(of: question)
        let scheme = bytes.indices.dropLast(2).first { bytes[$0] == colon && bytes[$0 + 1] == slash && bytes[$0 + 2] == slash }
        // Every cut falls right after an ASCII byte, so the kept bytes are whole UTF-8.
        func cut(after index: Int) -> String { String(decoding: bytes[...index], as: UTF8.self) + "[redacted]" }
        if let scheme, query.map({ scheme < $0 }) ?? true {
            guard let end = bytes[(scheme + 3)...].firstIndex(where: { $0 == slash || $0 == question || $0 == hash }) else { return text }
            if bytes[end] == slash, end == bytes.count - 1 { return text }
            return cut(after: end)
        }
        guard let query else { return text }
        return cut(after: query)
    }

    /// True for a DNS name of letters, digits, `-` and `_`: labels of 1 to 63 characters, none
    /// starting or ending with `-`, at most 253 characters (a trailing dot allowed).
    package static func isHostName(_ host: String) -> Bool {
        var utf8 = host.utf8[...]
        if utf8.last == UInt8(ascii: ".") { utf8 = utf8.dropLast() }
        guard !utf8.isEmpty, utf8.count <= 253 else { return false }
        for label in utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            for byte in label {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "-"), UInt8(ascii: "_"):
                    continue
                default:
                    return false
                }
            }
        }
        return true
    }

    /// What follows `scheme://` up to the path, query or end.
    private static func authority(of text: String) -> Substring {
        guard let start = text.range(of: "://")?.upperBound else { return "" }
        let rest = text[start...]
        return rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
    }

    /// The host without the brackets of an IPv6 literal, as AsyncHTTPClient trims them.
    private static func trimmingBrackets(_ host: String) -> String {
        var utf8 = host.utf8[...]
        if utf8.first == UInt8(ascii: "[") { utf8 = utf8.dropFirst() }
        if utf8.last == UInt8(ascii: "]") { utf8 = utf8.dropLast() }
        return String(Substring(utf8))
    }
}

/// Why a URL cannot be called: a sentence for the operator that names the part that is wrong.
package enum OutboundURLError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable
    case scheme
    case credentials
    case fragment
    case noHost
    case port
    /// The host is neither an IP address nor a host name.
    case host(String)
    /// The host is an IPv4 address in a legacy form (not dotted decimal).
    case legacyIPv4(String, IPAddress)

    package var description: String {
        switch self {
        case .unreadable: "is not a URL (it must be printable ASCII without spaces: percent-encode the rest)"
        case .scheme: "must be an http or https URL"
        case .credentials: "must not hold credentials (user:password@): sign with the webhook's secret instead"
        case .fragment: "must not have a fragment (#…)"
        case .noHost: "must name a host"
        case .port: "must name a port from 1 to 65535"
        case .host(let host): "names the host \"\(Self.shown(host))\", which is neither a host name (letters, digits, - and _; an internationalised name in its xn-- form) nor an IP address (IPv6 in brackets)"
        case .legacyIPv4(let host, let address): "names the host \"\(Self.shown(host))\", the address \(address) in a legacy form: write IPv4 addresses in dotted decimal"
        }
    }

    /// At most 100 characters of a host, for a message.
    private static func shown(_ host: String) -> String {
        host.unicodeScalars.count <= 100 ? host : String(String.UnicodeScalarView(host.unicodeScalars.prefix(100))) + "…"
    }
}
