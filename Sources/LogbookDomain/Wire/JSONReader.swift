import Foundation

/// Why a wire-form read stopped: the field (a path such as `data.samples[2].count`, built as the
/// error unwinds through objects and arrays), the reason, and the 1-based byte column of the
/// input where the reader was. `syntax` errors are text that is not JSON at all.
struct JSONReadError: Error, Sendable {
    var field: String
    var reason: String
    var column: Int
    var syntax: Bool

    /// The error seen from the enclosing object's member `key`.
    func under(_ key: String) -> JSONReadError {
        var copy = self
        copy.field = field.isEmpty ? key : (field.first == "[" ? key + field : key + "." + field)
        return copy
    }

    /// The error seen from element `index` of the enclosing array.
    func at(_ index: Int) -> JSONReadError {
        var copy = self
        copy.field = field.isEmpty ? "[\(index)]" : (field.first == "[" ? "[\(index)]" + field : "[\(index)]." + field)
        return copy
    }

    /// The reason with where it happened, e.g. `expected an integer (column 42)`.
    var reasonWithColumn: String { "\(reason) (column \(column))" }
}

/// A strict pull reader over the UTF-8 bytes of one JSON text (RFC 8259): values are read in the
/// order they come, straight into the caller's types, with no intermediate tree. Strings must be
/// valid UTF-8 without lone surrogates, numbers follow the JSON grammar, objects may not repeat a
/// key (the decoders check that), nesting is limited, and nothing may follow the value.
package struct JSONReader {
    /// How deep arrays and objects may nest in values the reader skips or copies (metadata).
    static let maxDepth = 64

    private let bytes: [UInt8]
    private(set) var index: Int
    private let end: Int
    /// The index of the text's first byte: columns count from it.
    private let origin: Int
    /// Where the member name being read began (errors about the member point at its name).
    private var keyStart = 0
    /// Whether values must lie in the ranges the event schemas state (`minimum`, `maximum`,
    /// `minItems`, `maxItems`): on for stored facts in the wire form (import), off for command
    /// bodies, whose quantities the domain rules judge and name (a 422 with the rule).
    var checksSchemaRanges = false

    /// A reader of `range` of `bytes` (default all); columns count from `origin` (default the
    /// range's start: a value read on its own inside a longer line keeps the line's columns).
    init(_ bytes: [UInt8], in range: Range<Int>? = nil, origin: Int? = nil) {
        self.bytes = bytes
        let range = range ?? 0..<bytes.count
        index = range.lowerBound
        end = range.upperBound
        self.origin = origin ?? range.lowerBound
    }

    // MARK: errors

    /// A syntax error at the current byte.
    func syntax(_ reason: String) -> JSONReadError {
        JSONReadError(field: "", reason: reason, column: index - origin + 1, syntax: true)
    }

    /// A value error (right JSON, wrong value) at the current byte, or at `position`.
    func invalid(_ reason: String, at position: Int? = nil) -> JSONReadError {
        JSONReadError(field: "", reason: reason, column: (position ?? index) - origin + 1, syntax: false)
    }

    /// A value error about the member whose name was read last (unknown, repeated), at its name.
    func invalidMember(_ reason: String) -> JSONReadError {
        JSONReadError(field: "", reason: reason, column: keyStart - origin + 1, syntax: false)
    }

    // MARK: structure

    mutating func skipSpace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next byte that is not white space, without consuming it (nil at the end).
    mutating func peek() -> UInt8? {
        skipSpace()
        return index < end ? bytes[index] : nil
    }

    /// Consumes `byte`, or fails naming what was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONReadError) {
        guard peek() == byte else { throw syntax(index < end ? "expected \(what)" : "unexpected end of input, expected \(what)") }
        index += 1
    }

    /// Fails unless only white space is left.
    mutating func expectEnd() throws(JSONReadError) {
        guard peek() == nil else { throw syntax("unexpected text after the JSON value") }
    }

    /// Consumes a `null` if one comes next.
    mutating func consumeNull() throws(JSONReadError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: String) throws(JSONReadError) {
        guard literalAhead(word) else {
            throw end - index < word.utf8.count ? syntax("unexpected end of input in a literal") : syntax("not a JSON value")
        }
        index += word.utf8.count
    }

    private func literalAhead(_ word: String) -> Bool {
        guard end - index >= word.utf8.count else { return false }
        var offset = index
        for byte in word.utf8 {
            guard bytes[offset] == byte else { return false }
            offset += 1
        }
        return true
    }

    /// Reads an object, calling `member` with each key; the reader is then at the member's value,
    /// which `member` must read. Errors from `member` are named under the key.
    mutating func readObject(_ member: (inout JSONReader, String) throws(JSONReadError) -> Void) throws(JSONReadError) {
        guard peek() == UInt8(ascii: "{") else { throw mismatch("an object") }
        index += 1
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw syntax(index < end ? "expected a member name in quotes" : "unexpected end of input in an object") }
            keyStart = index
            let key = try readStringValue()
            try expect(UInt8(ascii: ":"), "':' after a member name")
            do { try member(&self, key) } catch { throw error.under(key) }
            guard let next = peek() else { throw syntax("unexpected end of input in an object") }
            index += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { index -= 1; throw syntax("expected ',' or '}' in an object") }
        }
    }

    /// Reads an array, calling `element` with each index; errors from it are named with the index.
    mutating func readArray(_ element: (inout JSONReader, Int) throws(JSONReadError) -> Void) throws(JSONReadError) {
        guard peek() == UInt8(ascii: "[") else { throw mismatch("an array") }
        index += 1
        if peek() == UInt8(ascii: "]") { index += 1; return }
        var count = 0
        while true {
            do { try element(&self, count) } catch { throw error.at(count) }
            count += 1
            guard let next = peek() else { throw syntax("unexpected end of input in an array") }
            index += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { index -= 1; throw syntax("expected ',' or ']' in an array") }
        }
    }

    private func isValueStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), 0x30...0x39,
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): true
        default: false
        }
    }

    /// Fails with a value error if the next value is not of the expected kind, or a syntax error
    /// if it is not a value at all.
    private mutating func mismatch(_ expected: String) -> JSONReadError {
        guard let byte = peek() else { return syntax("unexpected end of input, expected a value") }
        guard isValueStart(byte) else { return syntax("not a JSON value") }
        // Text that is not JSON at all is a syntax error, whatever was expected.
        var probe = self
        do { try probe.skipValue() } catch where error.syntax { return error } catch {}
        return literalAhead("null") ? invalid("must not be null") : invalid("expected \(expected)")
    }

    // MARK: strings

    /// Reads a string. Escapes are decoded; the bytes must be valid UTF-8; control characters
    /// must be escaped; `\u` escapes of surrogates must come in pairs.
    mutating func readString() throws(JSONReadError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return try readStringValue()
    }

    /// Reads a string and gives its UTF-8 bytes' range when it has no escapes (no copy), else nil
    /// and the decoded text through `readString`.
    mutating func readRawString() throws(JSONReadError) -> Range<Int>? {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch("a string") }
        let start = index + 1
        let all = bytes  // a local to borrow, so `index` can change while the span lives
        let text = all.span
        var i = start
        while i < end {
            let byte = text[i]
            if byte == UInt8(ascii: "\"") { index = i + 1; return start..<i }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            i += 1
        }
        return nil
    }

    /// The bytes in `range` (from ``readRawString()``).
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    private mutating func readStringValue() throws(JSONReadError) -> String {
        index += 1  // the opening quote
        let start = index
        var ascii = true
        let all = bytes  // a local to borrow, so `index` can change while the span lives
        let text = all.span
        while index < end {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") {
                let text = bytes[start..<index]
                index += 1
                if ascii { return String(decoding: text, as: UTF8.self) }
                guard let valid = String(validating: text, as: UTF8.self) else {
                    index = start
                    throw syntax("a string is not valid UTF-8")
                }
                return valid
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if byte < 0x20 { throw syntax("a control character in a string must be escaped") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw syntax("unexpected end of input in a string")
    }

    private mutating func readEscapedString(from start: Int) throws(JSONReadError) -> String {
        var out = Array(bytes[start..<index])
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                guard let valid = String(validating: out, as: UTF8.self) else {
                    index = start
                    throw syntax("a string is not valid UTF-8")
                }
                return valid
            }
            if byte < 0x20 { throw syntax("a control character in a string must be escaped") }
            guard byte == UInt8(ascii: "\\") else { out.append(byte); index += 1; continue }
            guard index + 1 < end else { throw syntax("unexpected end of input in a string") }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw syntax("a lone surrogate in a \\u escape")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw syntax("a lone surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw syntax("a lone surrogate in a \\u escape")
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                index -= 1
                throw syntax("an unknown escape in a string")
            }
        }
        throw syntax("unexpected end of input in a string")
    }

    private mutating func hex4() throws(JSONReadError) -> UInt32 {
        guard end - index >= 4 else { throw syntax("unexpected end of input in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigit(bytes[index]) else { throw syntax("a \\u escape needs four hexadecimal digits") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The value of a hexadecimal digit (either case), nil for any other byte.
    package static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    // MARK: numbers and literals

    /// Reads a JSON number that is an integer (no fraction, no exponent) within Int's range.
    mutating func readInt() throws(JSONReadError) -> Int {
        guard let first = peek(), first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else { throw mismatch("an integer") }
        let start = index
        let negative = first == UInt8(ascii: "-")
        if negative { index += 1 }
        let magnitude = try integerDigits(from: start, expected: "an integer")
        guard let magnitude, magnitude <= (negative ? UInt64(Int.max) + 1 : UInt64(Int.max)) else {
            index = start
            throw invalid("integer out of range")
        }
        return negative ? Int(truncatingIfNeeded: 0 &- magnitude) : Int(magnitude)
    }

    /// Reads a JSON number as a non-negative integer.
    mutating func readUInt64() throws(JSONReadError) -> UInt64 {
        guard peek() != UInt8(ascii: "-") else { throw invalid("expected a non-negative integer") }
        guard let first = peek(), (0x30...0x39).contains(first) else { throw mismatch("a non-negative integer") }
        let start = index
        guard let value = try integerDigits(from: start, expected: "a non-negative integer") else {
            index = start
            throw invalid("integer out of range")
        }
        return value
    }

    /// Reads the digits of an integer whose number began at `start` (its sign already read): their
    /// value, or nil beyond 64 bits. A number with a fraction or an exponent is refused as not the
    /// `expected` integer, once it is known to be a well-formed number.
    private mutating func integerDigits(from start: Int, expected: String) throws(JSONReadError) -> UInt64? {
        guard index < end, (0x30...0x39).contains(bytes[index]) else { throw syntax("a number needs digits") }
        if bytes[index] == 0x30, index + 1 < end, (0x30...0x39).contains(bytes[index + 1]) {
            throw syntax("a number may not have leading zeros")
        }
        var value: UInt64 = 0
        var overflow = false
        while index < end, case let byte = bytes[index], byte >= 0x30, byte <= 0x39 {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            overflow = overflow || o1 || o2
            value = sum
            index += 1
        }
        if index < end, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = start
            try skipNumber()
            index = start
            throw invalid("expected \(expected) (no fraction or exponent)")
        }
        return overflow ? nil : value
    }

    /// Reads a JSON number as a finite Double.
    mutating func readDouble() throws(JSONReadError) -> Double {
        guard let first = peek(), first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else { throw mismatch("a number") }
        let start = index
        try skipNumber()
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            index = start
            throw invalid("number out of range")
        }
        return value
    }

    /// Reads `true` or `false`.
    mutating func readBool() throws(JSONReadError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw mismatch("true or false")
        }
    }

    /// Steps over a number checking the JSON grammar: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func skipNumber() throws(JSONReadError) {
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end, (0x30...0x39).contains(bytes[index]) else { throw syntax("a number needs digits") }
        if bytes[index] == 0x30 {
            index += 1
            if index < end, (0x30...0x39).contains(bytes[index]) { throw syntax("a number may not have leading zeros") }
        } else {
            while index < end, (0x30...0x39).contains(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, (0x30...0x39).contains(bytes[index]) else { throw syntax("a fraction needs digits") }
            while index < end, (0x30...0x39).contains(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < end, (0x30...0x39).contains(bytes[index]) else { throw syntax("an exponent needs digits") }
            while index < end, (0x30...0x39).contains(bytes[index]) { index += 1 }
        }
    }

    // MARK: whole values

    /// Steps over any value, checking it is well-formed JSON (and not nested too deeply); returns
    /// the range of its bytes.
    @discardableResult
    mutating func skipValue(depth: Int = 0) throws(JSONReadError) -> Range<Int> {
        guard let byte = peek() else { throw syntax("unexpected end of input, expected a value") }
        let start = index
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw syntax("nested more than \(Self.maxDepth) levels deep") }
            if byte == UInt8(ascii: "{") {
                var keys: Set<String> = []
                try readObject { (reader, key) throws(JSONReadError) in
                    guard keys.insert(key).inserted else { throw reader.invalidMember("duplicate field") }
                    try reader.skipValue(depth: depth + 1)
                }
            } else {
                try readArray { (reader, _) throws(JSONReadError) in try reader.skipValue(depth: depth + 1) }
            }
        case UInt8(ascii: "\""): _ = try readStringValue()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), 0x30...0x39: try skipNumber()
        default: throw syntax("not a JSON value")
        }
        return start..<index
    }

    /// Copies the next value to `out` in canonical form: objects with their keys sorted, no
    /// insignificant white space, strings re-escaped by ``JSONWriter``, numbers as written.
    mutating func copyCanonical(to out: inout JSONWriter, depth: Int = 0) throws(JSONReadError) {
        guard let byte = peek() else { throw syntax("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw syntax("nested more than \(Self.maxDepth) levels deep") }
            var members: [(key: String, value: JSONWriter)] = []
            var keys: Set<String> = []
            try readObject { (reader, key) throws(JSONReadError) in
                guard keys.insert(key).inserted else { throw reader.invalidMember("duplicate field") }
                var value = JSONWriter()
                try reader.copyCanonical(to: &value, depth: depth + 1)
                members.append((key, value))
            }
            // The order Foundation's JSONSerialization gave metadata before (`.sortedKeys`), so
            // metadata stored by earlier imports exports to the same bytes.
            members.sort {
                $0.key.compare($1.key, options: [.numeric, .caseInsensitive, .forcedOrdering], range: $0.key.startIndex..<$0.key.endIndex,
                               locale: Locale(identifier: "")) == .orderedAscending
            }
            out.raw(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { out.raw(UInt8(ascii: ",")) }
                out.string(member.key)
                out.raw(UInt8(ascii: ":"))
                out.raw(member.value.bytes)
            }
            out.raw(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw syntax("nested more than \(Self.maxDepth) levels deep") }
            out.raw(UInt8(ascii: "["))
            try readArray { (reader, position) throws(JSONReadError) in
                if position > 0 { out.raw(UInt8(ascii: ",")) }
                try reader.copyCanonical(to: &out, depth: depth + 1)
            }
            out.raw(UInt8(ascii: "]"))
        case UInt8(ascii: "\""): out.string(try readStringValue())
        default:
            let range = try skipValue(depth: depth)
            out.raw(bytes[range])
        }
    }
}
