package import NIOCore

/// An IPv4 or IPv6 address as its bytes (4 or 16, network order), without port or scope: what
/// an outbound call is checked against (``AddressKind``) and connected to.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address's bytes, in network order: 4 for IPv4, 16 for IPv6.
    package let bytes: [UInt8]

    /// The address of these 4 or 16 bytes; nil for any other count.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The IPv4 address `a.b.c.d` of `value` (`a` in the high byte).
    package init(ipv4 value: UInt32) {
        bytes = [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// The address a socket address holds (its port and IPv6 scope left out); nil for a Unix socket.
    package init?(_ socketAddress: SocketAddress) {
        switch socketAddress {
        case .v4(let v4):
            var address = v4.address.sin_addr
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        case .v6(let v6):
            var address = v6.address.sin6_addr
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        case .unixDomainSocket:
            return nil
        }
    }

    /// The address an HTTP client connects to, without looking anything up, when a URL's host is
    /// `literal`: an IPv4 address in dotted-decimal form or an IPv6 address (a scope after `%`
    /// allowed), as `inet_pton` reads them — exactly the test AsyncHTTPClient makes before it
    /// resolves a host (`SocketAddress(ipAddress:port:)`), so what is checked here is what it
    /// connects to. Nil for anything else (a name, or a legacy IPv4 form such as `0x7f.1`).
    package init?(literal: String) {
        // inet_pton reads up to a NUL; a host holding one is no literal (and no name either).
        guard !literal.isEmpty, !literal.utf8.contains(0), let socketAddress = try? SocketAddress(ipAddress: literal, port: 0) else { return nil }
        self.init(socketAddress)
    }

    /// True for an IPv4 address.
    package var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address inside this IPv6 address where one is carried whole and reached as such:
    /// IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64's well-known
    /// prefix (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`). Nil otherwise, and for IPv4.
    package var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let zeros10 = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeros10, bytes[10] == 0xFF, bytes[11] == 0xFF { return IPAddress(bytes: Array(bytes[12..<16])) }
        if bytes[0..<8].allSatisfy({ $0 == 0 }), bytes[8] == 0xFF, bytes[9] == 0xFF, bytes[10] == 0, bytes[11] == 0 {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0] == 0x00, bytes[1] == 0x64, bytes[2] == 0xFF, bytes[3] == 0x9B, bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return IPAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }

    /// The usual text: `a.b.c.d`, or IPv6 in RFC 5952's form (lower case, the longest run of
    /// two or more zero groups as `::`, the first of equal runs; an IPv4-mapped address as
    /// `::ffff:a.b.c.d`). No brackets.
    package var description: String {
        guard bytes.count == 16 else { return bytes.map(String.init).joined(separator: ".") }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return "::ffff:" + bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else { index += 1; continue }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > best.length { best = (index, end - index) }
            index = end
        }
        func hex(_ range: Range<Int>) -> String { range.map { String(groups[$0], radix: 16) }.joined(separator: ":") }
        guard best.length >= 2 else { return hex(0..<8) }
        return hex(0..<best.start) + "::" + hex((best.start + best.length)..<8)
    }
}
