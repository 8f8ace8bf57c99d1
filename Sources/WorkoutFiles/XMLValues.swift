/// A pre-encoded attribute or element name for fast byte comparison.
struct XMLKey: Sendable {
    let bytes: [UInt8]
    init(_ name: String) { bytes = Array(name.utf8) }
}

/// Attribute and text access for `XMLPullReader`, decoding entities only when present.
extension XMLPullReader {
    /// Index of the un-prefixed attribute named `key` on the current start tag.
    func attributeIndex(_ key: XMLKey) -> Int? {
        let bytes = window.bytes
        let count = key.bytes.count
        return key.bytes.withUnsafeBufferPointer { name in
            for (index, attribute) in attributes.enumerated() where attribute.nameEnd - attribute.nameStart == count {
                var same = true
                for k in 0..<count where bytes[attribute.nameStart + k] != name[k] { same = false; break }
                if same { return index }
            }
            return nil
        }
    }

    /// Index of the attribute with local name `local` in namespace `uri`.
    func attributeIndex(local: String, namespace uri: String) -> Int? {
        let bytes = window.bytes
        for (index, attribute) in attributes.enumerated() {
            let localStart = attribute.colon >= 0 ? attribute.colon + 1 : attribute.nameStart
            let name = String(decoding: UnsafeBufferPointer(start: bytes + localStart, count: attribute.nameEnd - localStart), as: UTF8.self)
            guard name == local else { continue }
            let prefix = attribute.colon >= 0
                ? String(decoding: UnsafeBufferPointer(start: bytes + attribute.nameStart, count: attribute.colon - attribute.nameStart), as: UTF8.self)
                : nil
            let attributeURI = prefix.map { resolve(prefix: $0) } ?? ""
            if attributeURI == uri { return index }
        }
        return nil
    }

    /// Decoded value of an un-prefixed attribute on the current start tag.
    func attribute(_ key: XMLKey) -> String? {
        attributeIndex(key).map { value(of: attributes[$0]) }
    }

    /// Decoded value of a namespaced attribute on the current start tag.
    func attribute(local: String, namespace uri: String) -> String? {
        attributeIndex(local: local, namespace: uri).map { value(of: attributes[$0]) }
    }

    /// Runs `body` over the decoded bytes of an attribute; nil when the attribute is absent.
    func withAttribute<R>(_ key: XMLKey, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard let index = attributeIndex(key) else { return nil }
        let attribute = attributes[index]
        let raw = UnsafeBufferPointer(start: window.bytes + attribute.valueStart, count: attribute.valueEnd - attribute.valueStart)
        if !attribute.needsDecoding { return body(raw) }
        var scratch: [UInt8] = []
        Self.decodeEntities(raw, into: &scratch)
        return scratch.withUnsafeBufferPointer(body)
    }

    /// Whether an attribute's raw bytes equal `expected` exactly (no entity decoding).
    func attribute(_ key: XMLKey, equals expected: XMLKey) -> Bool {
        guard let index = attributeIndex(key) else { return false }
        let attribute = attributes[index]
        guard attribute.valueEnd - attribute.valueStart == expected.bytes.count else { return false }
        let bytes = window.bytes
        for (k, byte) in expected.bytes.enumerated() where bytes[attribute.valueStart + k] != byte { return false }
        return true
    }

    /// Number in an attribute.
    func attributeDouble(_ key: XMLKey) -> Double? {
        withAttribute(key) { TextScalars.double($0) } ?? nil
    }

    func value(of attribute: Attribute) -> String {
        let raw = UnsafeBufferPointer(start: window.bytes + attribute.valueStart, count: attribute.valueEnd - attribute.valueStart)
        if !attribute.needsDecoding { return String(decoding: raw, as: UTF8.self) }
        var scratch: [UInt8] = []
        Self.decodeEntities(raw, into: &scratch)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Appends the current text (entities decoded) to `buffer`.
    func appendText(to buffer: inout [UInt8]) {
        let raw = UnsafeBufferPointer(start: window.bytes + textStart, count: textEnd - textStart)
        if textNeedsDecoding { Self.decodeEntities(raw, into: &buffer) } else { buffer.append(contentsOf: raw) }
    }

    /// The current text, entities decoded.
    var text: String {
        var buffer: [UInt8] = []
        appendText(to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Decodes `&amp; &lt; &gt; &quot; &apos; &#N; &#xH;`; unknown named entities stay literal,
    /// invalid numeric references become U+FFFD.
    static func decodeEntities(_ raw: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var index = 0
        let count = raw.count
        out.reserveCapacity(out.count + count)
        while index < count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < count, end - index <= 12, raw[end] != UInt8(ascii: ";") { end += 1 }
            guard end < count, raw[end] == UInt8(ascii: ";") else {
                out.append(byte)
                index += 1
                continue
            }
            let name = UnsafeBufferPointer(rebasing: raw[(index + 1)..<end])
            if let replacement = predefined(name) {
                out.append(replacement)
            } else if name.first == UInt8(ascii: "#") {
                appendScalar(numericReference(name), to: &out)
            } else {
                out.append(contentsOf: raw[index...end])
            }
            index = end + 1
        }
    }

    private static func predefined(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch name.count {
        case 2:
            if name[1] == UInt8(ascii: "t") {
                if name[0] == UInt8(ascii: "l") { return UInt8(ascii: "<") }
                if name[0] == UInt8(ascii: "g") { return UInt8(ascii: ">") }
            }
        case 3:
            if name[0] == UInt8(ascii: "a"), name[1] == UInt8(ascii: "m"), name[2] == UInt8(ascii: "p") { return UInt8(ascii: "&") }
        case 4:
            let text = String(decoding: name, as: UTF8.self)
            if text == "quot" { return UInt8(ascii: "\"") }
            if text == "apos" { return UInt8(ascii: "'") }
        default:
            break
        }
        return nil
    }

    /// Code point of `#123` / `#x7B`, or nil when invalid for XML.
    private static func numericReference(_ name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard name.count >= 2 else { return nil }
        var value: UInt32 = 0
        let hex = name[1] == UInt8(ascii: "x")
        let digitsStart = hex ? 2 : 1
        guard name.count > digitsStart else { return nil }
        for byte in name[digitsStart...] {
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66 where hex: digit = UInt32(byte - 0x61 + 10)
            case 0x41...0x46 where hex: digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            value = value * (hex ? 16 : 10) + digit
            if value > 0x10FFFF { return nil }
        }
        let allowed = value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF)
            || (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF)
        return allowed ? value : nil
    }

    private static func appendScalar(_ value: UInt32?, to out: inout [UInt8]) {
        let scalar = value.flatMap(Unicode.Scalar.init) ?? Unicode.Scalar(0xFFFD)!
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
}
