public import FuzzSupport
import LogbookOutbound
import NIOCore
import NIOEmbedded
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fuzz targets of webhooks' outbound side: the URLs and addresses a webhook names, and the
/// answers receivers send back.
public enum WebhookFuzz {
    /// One text as a webhook's URL, as a host, and (its bytes) as raw addresses: the URL reader
    /// answers a URL or its typed error, and what it accepts holds together (a host that is an
    /// address is the one an HTTP client connects to without a lookup; any other is a plain host
    /// name, never a number in disguise; the redacted form shows no query); the legacy IPv4
    /// reader agrees with C's `inet_aton` byte for byte; addresses write back as they read; an
    /// IPv4 address and its IPv6 forms are of one kind; the default policy permits public only.
    public static let url = FuzzTarget("FuzzWebhookURL") { bytes throws(FuzzFailure) in
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let url = try OutboundURL(text)
            try FuzzCheck.expect(url.scheme == "http" || url.scheme == "https", "\(text) was read with scheme \(url.scheme)")
            try FuzzCheck.expect(!url.host.isEmpty && (1...65_535).contains(url.port), "\(text) was read with host \(url.host), port \(url.port)")
            try FuzzCheck.expect(url.literal == IPAddress(literal: url.host), "\(text): its host \(url.host) is an address in one reading only")
            if url.literal == nil {
                try FuzzCheck.expect(OutboundURL.isHostName(url.host) && !LegacyIPv4.endsInNumber(url.host), "\(text): host \(url.host) is no host name")
            }
            try expectRedacted(text, url.redacted)
        } catch {
            try expectRedacted(text, OutboundURL.redacting(text))
        }
        try compareWithInetAton(text)
        if let address = IPAddress(literal: text) {
            try FuzzCheck.expect(IPAddress(literal: address.description) == address, "\(text) writes back as \(address), which reads otherwise")
            try expectPolicy(address)
        }
        if bytes.count >= 16, let address = IPAddress(bytes: Array(bytes.prefix(16))) {
            try FuzzCheck.expect(IPAddress(literal: address.description) == address, "\(address.bytes) writes back as \(address), which reads otherwise")
            try expectPolicy(address)
        }
        if bytes.count >= 4, let ipv4 = IPAddress(bytes: Array(bytes.prefix(4))) {
            let kind = AddressKind(ipv4)
            let forms = [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF], [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0], [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]]
                .map { IPAddress(bytes: $0 + ipv4.bytes) } + [IPAddress(bytes: [0x20, 0x02] + ipv4.bytes + [UInt8](repeating: 0, count: 10))]
            for form in forms.compactMap({ $0 }) {
                try FuzzCheck.expect(AddressKind(form) == kind, "\(ipv4) is \(kind) but its form \(form) is \(AddressKind(form))")
            }
            try FuzzCheck.expect(IPAddress(literal: ipv4.description) == ipv4, "\(ipv4.bytes) writes back as \(ipv4), which reads otherwise")
        }
    }

    /// A receiver's answer, raw bytes after a POST: read by SwiftNIO's HTTP/1 response decoder (as
    /// the HTTP client reads it) and judged by ``ReceiverAnswer``. Whatever comes, the judgement
    /// is "taken" exactly for a 2xx head, the body read stops at the limit, and a failure is one
    /// of the coarse categories: no byte of the answer reaches what operators see.
    public static let answer = FuzzTarget("FuzzWebhookAnswer") { bytes throws(FuzzFailure) in
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        do {
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            try channel.writeOutbound(HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: .POST, uri: "/hook")))
            try channel.writeOutbound(HTTPClientRequestPart.end(nil))
            while try channel.readOutbound(as: IOData.self) != nil {}
        } catch {
            throw FuzzFailure("the HTTP client pipeline could not be set up: \(error)")
        }
        // Decoding errors end the exchange (the category "no answer"): what was read until then is judged.
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes))
        channel.pipeline.fireChannelInactive()
        var answer: ReceiverAnswer?
        var reading = true
        var largestPart = 0
        while let part = try? channel.readInbound(as: HTTPClientResponsePart.self) {
            switch part {
            case .head(let head) where answer == nil && head.status.code >= 200:
                answer = ReceiverAnswer(status: Int(head.status.code))
            case .body(let buffer):
                largestPart = max(largestPart, buffer.readableBytes)
                if reading, answer != nil { reading = answer?.read(buffer.readableBytes) ?? false }
            default:
                break
            }
        }
        guard let answer else { return }
        try FuzzCheck.expect((answer.failure == nil) == (200..<300).contains(answer.status), "status \(answer.status) judged \(String(describing: answer.failure))")
        try FuzzCheck.expect(answer.bodyBytes <= ReceiverAnswer.maxBodyBytes + largestPart, "read \(answer.bodyBytes) bytes of an answer's body")
        if let failure = answer.failure {
            try FuzzCheck.expect(categories.contains(failure.description), "status \(answer.status) told as \"\(failure.description)\"")
        }
    }

    /// Every text a failure of an answer may be told with.
    static let categories = Set((0...5).map { DeliveryFailure.answered(statusClass: $0).description })

    /// The redacted form is the text itself (which holds no `?`, and of a URL nothing past its
    /// host and port but a last `/`), or a prefix of it ending in `/`, `?` or `#` and then
    /// `[redacted]`, which keeps no query and of a URL nothing past its host and port.
    static func expectRedacted(_ text: String, _ redacted: String) throws(FuzzFailure) {
        // What follows `scheme://` up to (without) its last character shows no path, query or fragment.
        // Judged on UTF-8 bytes, as a reader of a log sees them: a character may join a `?` or `/`
        // into one grapheme with the one before it.
        let cuts = Set("/?#".utf8)
        func expectNoPath(_ shown: [UInt8]) throws(FuzzFailure) {
            guard let scheme = shown.indices.dropLast(2).first(where: { Array(shown[$0..<($0 + 3)]) == Array("://".utf8) }) else { return }
            try FuzzCheck.expect(!shown[(scheme + 3)...].dropLast().contains { cuts.contains($0) },
                                 "\(text) was redacted to \(redacted), which shows its path")
        }
        // A cut form may equal the text itself, when what follows the cut is "[redacted]" already.
        let marker = Array("[redacted]".utf8)
        let (textBytes, redactedBytes) = (Array(text.utf8), Array(redacted.utf8))
        let kept = Array(redactedBytes.dropLast(marker.count))
        if redactedBytes.count >= marker.count, Array(redactedBytes.suffix(marker.count)) == marker,
           textBytes.starts(with: kept), let last = kept.last, cuts.contains(last) {
            try FuzzCheck.expect(!kept.dropLast().contains(UInt8(ascii: "?")), "\(text) was redacted to \(redacted), which shows a query")
            try expectNoPath(kept)
            return
        }
        try FuzzCheck.expect(redactedBytes == textBytes, "\(text) was redacted to \(redacted)")
        try FuzzCheck.expect(!textBytes.contains(UInt8(ascii: "?")), "\(text) with a query was shown whole")
        try expectNoPath(textBytes)
    }

    /// The default policy permits an address only if it is public; opted in, only what a receiver may have.
    static func expectPolicy(_ address: IPAddress) throws(FuzzFailure) {
        let kind = AddressKind(address)
        try FuzzCheck.expect(AddressPolicy(allowsPrivate: false).permits(address) == (kind == .public), "\(address) (\(kind)) by default")
        try FuzzCheck.expect(
            AddressPolicy(allowsPrivate: true).permits(address) == ![.unspecified, .multicast, .broadcast].contains(kind), "\(address) (\(kind)) opted in")
    }

    /// ``LegacyIPv4`` and glibc's `inet_aton` read `text` alike (skipped for a text holding a NUL
    /// or white space, which `inet_aton` reads up to).
    static func compareWithInetAton(_ text: String) throws(FuzzFailure) {
        guard !text.utf8.contains(where: { $0 == 0 || $0 == 0x20 || (0x09...0x0D).contains($0) }) else { return }
        var address = in_addr()
        let accepted = inet_aton(text, &address) != 0
        let ours = LegacyIPv4.parse(text)
        let theirs = accepted ? IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) }) : nil
        try FuzzCheck.expect(ours == theirs, "\(text): inet_aton reads \(theirs.map(\.description) ?? "nothing"), LegacyIPv4 \(ours.map(\.description) ?? "nothing")")
    }
}
