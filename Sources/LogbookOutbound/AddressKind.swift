/// What an address reaches, as far as the outbound policy cares: the public internet, or a
/// network of the machine's own (the IANA special-purpose registries, RFC 6890 and successors).
package enum AddressKind: String, Sendable, Hashable, CaseIterable {
    /// Anywhere on the internet.
    case `public`
    /// This machine: `127.0.0.0/8`, `::1`.
    case loopback
    /// A private network: `10/8`, `172.16/12`, `192.168/16`, shared address space `100.64/10`,
    /// local-use NAT64 `64:ff9b:1::/48`, deprecated site-local `fec0::/10`.
    case `private`
    /// The local link: `169.254/16` (cloud metadata services answer there), `fe80::/10`.
    case linkLocal = "link-local"
    /// IPv6's private networks: `fc00::/7`.
    case uniqueLocal = "unique-local"
    /// No address: `0.0.0.0/8` ("this network"; on Linux it reaches this machine), `::`.
    case unspecified
    /// A group, not a receiver: `224/4`, `ff00::/8`.
    case multicast
    /// `255.255.255.255`.
    case broadcast
    /// Set aside, never routed on the internet: documentation, benchmarking, protocol
    /// assignments, `240/4`, Teredo, ORCHID, discard-only, IPv4-compatible IPv6, and every IPv6
    /// address outside global unicast `2000::/3`.
    case reserved

    /// The kind of `address`. An IPv6 address that carries an IPv4 address reached as such
    /// (``IPAddress/embeddedIPv4``: mapped, translated, NAT64, 6to4) is of its IPv4 address's kind.
    package init(_ address: IPAddress) {
        if let inner = address.embeddedIPv4 {
            self = Self.ipv4(inner.bytes)
        } else if address.isIPv4 {
            self = Self.ipv4(address.bytes)
        } else {
            self = Self.ipv6(address.bytes)
        }
    }

    /// True when `bytes` start with the `length` leading bits of `prefix`.
    private static func matches(_ bytes: [UInt8], _ prefix: [UInt8], _ length: Int) -> Bool {
        for bit in stride(from: 0, to: length, by: 8) {
            let index = bit / 8
            let bits = min(8, length - bit)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != prefix[index] & mask { return false }
        }
        return true
    }

    /// IPv4's special-purpose blocks, most specific first where they nest.
    private static let ipv4Blocks: [([UInt8], Int, AddressKind)] = [
        ([255, 255, 255, 255], 32, .broadcast),
        ([0, 0, 0, 0], 8, .unspecified),
        ([10, 0, 0, 0], 8, .private),
        ([100, 64, 0, 0], 10, .private),
        ([127, 0, 0, 0], 8, .loopback),
        ([169, 254, 0, 0], 16, .linkLocal),
        ([172, 16, 0, 0], 12, .private),
        ([192, 0, 0, 0], 24, .reserved),
        ([192, 0, 2, 0], 24, .reserved),
        ([192, 88, 99, 0], 24, .reserved),
        ([192, 168, 0, 0], 16, .private),
        ([198, 18, 0, 0], 15, .reserved),
        ([198, 51, 100, 0], 24, .reserved),
        ([203, 0, 113, 0], 24, .reserved),
        ([224, 0, 0, 0], 4, .multicast),
        ([240, 0, 0, 0], 4, .reserved),
    ]

    private static func ipv4(_ bytes: [UInt8]) -> AddressKind {
        ipv4Blocks.first { matches(bytes, $0.0, $0.1) }?.2 ?? .public
    }

    /// IPv6's special-purpose blocks (those carrying an IPv4 address are read before these).
    private static let ipv6Blocks: [([UInt8], Int, AddressKind)] = [
        (bytes16([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01]), 48, .private),
        (bytes16([0x01, 0x00]), 64, .reserved),
        (bytes16([0x20, 0x01, 0x00, 0x00]), 32, .reserved),
        (bytes16([0x20, 0x01, 0x00, 0x02, 0x00, 0x00]), 48, .reserved),
        (bytes16([0x20, 0x01, 0x00, 0x10]), 28, .reserved),
        (bytes16([0x20, 0x01, 0x00, 0x20]), 28, .reserved),
        (bytes16([0x20, 0x01, 0x0D, 0xB8]), 32, .reserved),
        (bytes16([0x3F, 0xFF]), 20, .reserved),
        (bytes16([0x5F, 0x00]), 16, .reserved),
        (bytes16([0xFC]), 7, .uniqueLocal),
        (bytes16([0xFE, 0x80]), 10, .linkLocal),
        (bytes16([0xFE, 0xC0]), 10, .private),
        (bytes16([0xFF]), 8, .multicast),
    ]

    private static func bytes16(_ leading: [UInt8]) -> [UInt8] { leading + [UInt8](repeating: 0, count: 16 - leading.count) }

    private static func ipv6(_ bytes: [UInt8]) -> AddressKind {
        if bytes[0..<15].allSatisfy({ $0 == 0 }) {
            switch bytes[15] {
            case 0: return .unspecified
            case 1: return .loopback
            default: return .reserved
            }
        }
        // The rest of ::/96 is IPv4-compatible IPv6, deprecated and never routed.
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return .reserved }
        if let kind = ipv6Blocks.first(where: { matches(bytes, $0.0, $0.1) })?.2 { return kind }
        // Global unicast is 2000::/3; nothing else is handed out.
        return bytes[0] & 0xE0 == 0x20 ? .public : .reserved
    }
}

/// Which addresses outbound calls may reach: public ones always; those of the machine's own
/// networks (loopback, private, link-local, unique-local, reserved) only when the operator opts
/// in; an unspecified, multicast or broadcast address never, as no receiver has one.
package struct AddressPolicy: Sendable, Hashable {
    /// Whether the operator opted in to receivers on this machine and its networks.
    package var allowsPrivate: Bool

    /// A policy; `allowsPrivate` opts in to the machine's own networks.
    package init(allowsPrivate: Bool) { self.allowsPrivate = allowsPrivate }

    /// Whether a call may go to `address`.
    package func permits(_ address: IPAddress) -> Bool { permits(AddressKind(address)) }

    /// Whether a call may go to an address of `kind`.
    package func permits(_ kind: AddressKind) -> Bool {
        switch kind {
        case .public: true
        case .loopback, .private, .linkLocal, .uniqueLocal, .reserved: allowsPrivate
        case .unspecified, .multicast, .broadcast: false
        }
    }
}
