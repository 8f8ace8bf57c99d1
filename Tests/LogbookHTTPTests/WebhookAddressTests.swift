import LogbookOutbound
import Testing

/// Where webhooks may go, as a unit: every way of writing an address of this machine or its
/// networks — dotted, decimal, octal, hexadecimal and shortened IPv4, IPv6, IPv4-mapped and the
/// other IPv6 forms carrying IPv4 — is recognised and refused by default; names are checked after
/// resolving, the first permitted address taken; queries are redacted.
@Suite("Webhook addresses")
struct WebhookAddressTests {
    static let strict = AddressPolicy(allowsPrivate: false)
    static let optedIn = AddressPolicy(allowsPrivate: true)

    /// A resolver answering from a fixed table (names not in it have no address).
    struct TableResolver: HostResolving {
        let table: [String: [String]]
        func addresses(of host: String) async -> [IPAddress] { (table[host] ?? []).compactMap { IPAddress(literal: $0) } }
    }

    static func kind(_ literal: String) throws -> AddressKind {
        AddressKind(try #require(IPAddress(literal: literal), "\(literal) is no address"))
    }

    @Test("the tester's addresses: each refused when the webhook is made, with what it is")
    func reportedForms() throws {
        let refused: [(String, String)] = [
            ("http://127.0.0.1/hook", "127.0.0.1"), ("http://0.0.0.0/hook", "0.0.0.0"), ("http://[::1]/hook", "::1"),
            ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"), ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1"),
            ("http://[::ffff:169.254.169.254]/", "::ffff:169.254.169.254"), ("http://[::]/", "::"),
        ]
        for (text, address) in refused {
            let url = try OutboundURL(text)
            let literal = try #require(url.literal, "\(text)")
            #expect(literal.description == address)
            #expect(!Self.strict.permits(literal), "\(text)")
        }
        // Legacy IPv4 forms are addresses, never names: refused, naming the address they mean.
        for (text, address) in [("http://2130706433/", "127.0.0.1"), ("http://0x7f.1/", "127.0.0.1"), ("http://017700000001/", "127.0.0.1")] {
            #expect(throws: OutboundURLError.legacyIPv4(String(text.dropFirst(7).dropLast()), IPAddress(literal: address)!)) { try OutboundURL(text) }
        }
    }

    @Test("IPv4 in inet_aton's legacy forms reads as the address it means; dotted decimal is the only form accepted")
    func legacyIPv4() throws {
        let forms: [(String, String)] = [
            ("2130706433", "127.0.0.1"), ("0x7f000001", "127.0.0.1"), ("0X7F000001", "127.0.0.1"), ("017700000001", "127.0.0.1"),
            ("0x7f.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("127.0.1", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"),
            ("0x7f.0x0.0x0.0x1", "127.0.0.1"), ("0177.0.0.01", "127.0.0.1"), ("0xa9fea9fe", "169.254.169.254"), ("2852039166", "169.254.169.254"),
            ("0251.0376.0251.0376", "169.254.169.254"), ("0", "0.0.0.0"), ("0x0", "0.0.0.0"), ("10.1", "10.0.0.1"), ("192.168.257", "192.168.1.1"),
            ("0x0a.0", "10.0.0.0"), ("4294967295", "255.255.255.255"), ("1.2.3.4", "1.2.3.4"),
        ]
        for (text, address) in forms {
            #expect(LegacyIPv4.parse(text)?.description == address, "\(text)")
            #expect(LegacyIPv4.endsInNumber(text), "\(text)")
            if text != address {
                #expect(throws: OutboundURLError.legacyIPv4(text, IPAddress(literal: address)!)) { try OutboundURL("http://\(text)/") }
            }
        }
        for text in ["4294967296", "256.1.1.1", "1.2.3.4.5", "08", "0x", "1..2", "1.2.3.", "", "0x1g", "127.0.0.1 ", "999999999999999999999999999"] {
            #expect(LegacyIPv4.parse(text) == nil, "\(text)")
        }
        // A host whose last label is a number is an address or nothing.
        for text in ["http://1.2.3.4.5/", "http://example.08/", "http://256.0.0.1/", "http://example.0x10/"] {
            #expect(throws: OutboundURLError.self) { try OutboundURL(text) }
        }
        #expect(try OutboundURL("http://0x7f.example/").literal == nil, "a name whose last label is no number is a name")
    }

    @Test("every special-purpose block has its kind; an IPv4 address's IPv6 forms share it")
    func kinds() throws {
        let table: [(String, AddressKind)] = [
            ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback),
            ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
            ("10.0.0.1", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("192.168.1.1", .private), ("100.64.0.1", .private),
            ("100.127.255.255", .private), ("fec0::1", .private), ("64:ff9b:1::1", .private),
            ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
            ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
            ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("ff02::1", .multicast), ("ff05::2", .multicast),
            ("255.255.255.255", .broadcast),
            ("192.0.2.1", .reserved), ("198.51.100.7", .reserved), ("203.0.113.9", .reserved), ("198.18.0.1", .reserved), ("240.0.0.1", .reserved),
            ("192.0.0.8", .reserved), ("2001:db8::1", .reserved), ("2001::1", .reserved), ("100::1", .reserved), ("::1.2.3.4", .reserved),
            ("::2", .reserved), ("4000::1", .reserved), ("3fff::1", .reserved),
            ("8.8.8.8", .public), ("1.1.1.1", .public), ("172.32.0.1", .public), ("172.15.255.255", .public), ("100.128.0.1", .public),
            ("169.253.255.255", .public), ("11.0.0.1", .public), ("2606:4700:4700::1111", .public), ("2a00:1450:4001::200e", .public),
        ]
        for (literal, kind) in table { #expect(try Self.kind(literal) == kind, "\(literal)") }
        for (ipv4, kind) in table where !ipv4.contains(":") {
            let bytes = try #require(IPAddress(literal: ipv4)).bytes
            let hex = [String(UInt16(bytes[0]) << 8 | UInt16(bytes[1]), radix: 16), String(UInt16(bytes[2]) << 8 | UInt16(bytes[3]), radix: 16)]
            for form in ["::ffff:\(ipv4)", "::ffff:\(hex[0]):\(hex[1])", "::ffff:0:\(ipv4)", "64:ff9b::\(ipv4)", "2002:\(hex[0]):\(hex[1])::1"] {
                #expect(try Self.kind(form) == kind, "\(form) carries \(ipv4)")
            }
        }
    }

    @Test("by default only public addresses are permitted; opted in, any a receiver may have; never unspecified, multicast or broadcast")
    func policy() {
        for kind in AddressKind.allCases {
            #expect(Self.strict.permits(kind) == (kind == .public), "\(kind)")
            #expect(Self.optedIn.permits(kind) == ![.unspecified, .multicast, .broadcast].contains(kind), "\(kind)")
        }
    }

    @Test("URLs: the host as the client reads it, addresses written as the client takes them, names of letters, digits, - and _")
    func urls() throws {
        let ipv6 = try OutboundURL("https://[2606:4700:4700::1111]:8443/x?a=b")
        #expect(ipv6.host == "2606:4700:4700::1111" && ipv6.port == 8443 && ipv6.literal != nil && ipv6.scheme == "https")
        let name = try OutboundURL("HTTP://Push.Example.com/hook")
        #expect(name.scheme == "http" && name.host.lowercased() == "push.example.com" && name.port == 80 && name.literal == nil)
        #expect(try OutboundURL("http://xn--bcher-kva.example/").literal == nil)
        let refused: [(String, OutboundURLError)] = [
            ("ftp://example.com/", .scheme), ("http://user:pw@example.com/", .credentials), ("http://example.com/#x", .fragment),
            ("not a url", .unreadable), ("http://exa mple.com/", .unreadable), ("http://bücher.example/", .unreadable),
            ("http://example.com:0/", .port), ("http:///path", .noHost),
        ]
        for (text, error) in refused { #expect(throws: error) { try OutboundURL(text) } }
        for text in ["http://exa%2Fmple.com/", "http://-example.com/", "http://[example.com]/", "http://[127.0.0.1]/", "http://a..b/"] {
            #expect(throws: OutboundURLError.self, "\(text)") { try OutboundURL(text) }
        }
    }

    @Test("a URL's path and query are redacted wherever it is shown")
    func redaction() throws {
        #expect(try OutboundURL("https://push.example/hook?token=s3cr3t&x=1").redacted == "https://push.example/[redacted]")
        #expect(OutboundURL.redacting("https://push.example/T0s3cr3t") == "https://push.example/[redacted]")
        #expect(OutboundURL.redacting("https://push.example/") == "https://push.example/")
        #expect(OutboundURL.redacting("https://push.example?") == "https://push.example?[redacted]")
        #expect(OutboundURL.redacting("https://push.example/?") == "https://push.example/[redacted]")
        #expect(OutboundURL.redacting("https://push.example?t=1") == "https://push.example?[redacted]")
        #expect(OutboundURL.redacting("https://push.example") == "https://push.example")
        #expect(try OutboundURL("https://hooks.example:8443/services/T0/B0/s3cr3t").redacted == "https://hooks.example:8443/[redacted]")
        #expect(OutboundURL.redacting("https://push.example/api/webhooks/1/s3cr3t?x=1") == "https://push.example/[redacted]")
        #expect(OutboundURL.redacting("not a url ?s3cr3t") == "not a url ?[redacted]")
        // U+0603, a prepended mark, joins the next character into one grapheme: the cut is found
        // in the bytes all the same.
        #expect(OutboundURL.redacting("\u{603}?s3cr3t") == "\u{603}?[redacted]")
        #expect(OutboundURL.redacting("https://push.example\u{603}/s3cr3t") == "https://push.example\u{603}/[redacted]")
        #expect(OutboundURL.redacting("https://push.example\u{603}?token=s3cr3t") == "https://push.example\u{603}?[redacted]")
    }

    @Test("a name is resolved once: the first permitted address is the one connected to; none permitted is a refusal")
    func resolvedNames() async throws {
        let resolver = TableResolver(table: [
            "inside.test": ["10.0.0.7", "fd00::7"], "mixed.test": ["127.0.0.1", "93.184.216.34"], "public.test": ["2606:4700::1", "1.1.1.1"],
            "mapped.test": ["::ffff:127.0.0.1"], "metadata.test": ["169.254.169.254"],
        ])
        func check(_ host: String, _ policy: AddressPolicy) async throws(DeliveryFailure) -> CheckedTarget {
            try await CheckedTarget.check(try! OutboundURL("http://\(host)/"), policy: policy, resolver: resolver, limit: .seconds(5))
        }
        for host in ["inside.test", "mapped.test", "metadata.test"] {
            await #expect(throws: DeliveryFailure.addressRefused, "\(host)") { try await check(host, Self.strict) }
        }
        #expect(try await check("mixed.test", Self.strict).address.description == "93.184.216.34")
        #expect(try await check("mixed.test", Self.optedIn).address.description == "127.0.0.1")
        #expect(try await check("public.test", Self.strict).address.description == "2606:4700::1")
        #expect(try await check("inside.test", Self.optedIn).pinsName)
        await #expect(throws: DeliveryFailure.noAnswer(within: .seconds(5))) { try await check("nowhere.test", Self.strict) }
        // An address needs no resolver.
        #expect(try await CheckedTarget.check(try OutboundURL("http://8.8.8.8/"), policy: Self.strict, resolver: resolver, limit: .seconds(5)).pinsName == false)
    }

    @Test("the system resolver: localhost resolves to loopback, which the default policy refuses")
    func localhost() async throws {
        let addresses = await SystemResolver().addresses(of: "localhost")
        #expect(addresses.contains(IPAddress(literal: "127.0.0.1")!) || addresses.contains(IPAddress(literal: "::1")!), "\(addresses)")
        #expect(addresses.allSatisfy { AddressKind($0) == .loopback })
        await #expect(throws: DeliveryFailure.addressRefused) {
            try await CheckedTarget.check(try OutboundURL("http://localhost:9/"), policy: Self.strict, resolver: SystemResolver(), limit: .seconds(5))
        }
    }

    @Test("a receiver's answer: any 2xx takes the batch; others fail by class only; the body is read up to 64 KiB")
    func answers() {
        for status in [200, 201, 204, 299] { #expect(ReceiverAnswer(status: status).failure == nil) }
        #expect(ReceiverAnswer(status: 418).failure?.description == "the receiver answered 4xx")
        #expect(ReceiverAnswer(status: 503).failure?.description == "the receiver answered 5xx")
        #expect(ReceiverAnswer(status: 302).failure?.description.contains("redirects are not followed") == true)
        #expect(ReceiverAnswer(status: 999).failure == .answered(statusClass: 0))
        var answer = ReceiverAnswer(status: 200)
        let whole = answer.read(64 << 10), past = answer.read(1), huge = answer.read(.max)
        #expect(whole && !past && !huge, "read up to the limit, no overflow")
    }
}
