import EventLog
import Foundation

/// Writes canonical JSON as UTF-8 bytes: no insignificant white space; strings escaped as
/// Foundation's `JSONEncoder` escapes them (`\"`, `\\`, `\b \f \n \r \t`, other control
/// characters as `\u00xx`, nothing else); integers in decimal; doubles in their shortest
/// round-trip form without a trailing `.0`. Members are written in the order the caller gives,
/// which for payloads is sorted key order, so the bytes match what the `Codable` form wrote.
struct JSONWriter: Sendable {
    /// The bytes written so far.
    private(set) var bytes: [UInt8]

    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A writer that appends to `bytes`.
    init(adopting bytes: [UInt8]) { self.bytes = bytes }

    /// Appends bytes as they are (already JSON).
    mutating func raw(_ byte: UInt8) { bytes.append(byte) }
    mutating func raw(_ more: some Sequence<UInt8>) { bytes.append(contentsOf: more) }
    mutating func raw(_ text: String) {
        let utf8 = text.utf8.span
        bytes.append(addingCapacity: utf8.count) { out in Self.copy(utf8, to: &out) }
    }

    /// Copies `source` into room already made: one block of output, not an `Array.append` (and
    /// its uniqueness check) per byte, nor the generic sequence copy `append(contentsOf:)` takes
    /// for a `String`'s UTF-8 view.
    @inline(__always)
    private static func copy(_ source: Span<UInt8>, to out: inout OutputSpan<UInt8>) {
        for index in source.indices { out.append(source[index]) }
    }

    /// Empties the writer, keeping its capacity.
    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// A string value.
    mutating func string(_ value: String) {
        let span = value.utf8.span
        var plain = true
        for index in span.indices where Self.needsEscape(span[index]) {
            plain = false
            break
        }
        if plain {
            // The common case: nothing to escape, so the bytes go out as they are, in one block.
            bytes.append(addingCapacity: span.count + 2) { out in
                out.append(UInt8(ascii: "\""))
                Self.copy(span, to: &out)
                out.append(UInt8(ascii: "\""))
            }
            return
        }
        bytes.append(UInt8(ascii: "\""))
        var plainFrom: String.UTF8View.Index? = nil
        let utf8 = value.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if !Self.needsEscape(byte) {
                if plainFrom == nil { plainFrom = index }
            } else {
                if let from = plainFrom { bytes.append(contentsOf: utf8[from..<index]); plainFrom = nil }
                escape(byte)
            }
            index = utf8.index(after: index)
        }
        if let from = plainFrom { bytes.append(contentsOf: utf8[from..<utf8.endIndex]) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether `byte` is written escaped: a control character, `"` or `\`.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(0x30)
            bytes.append(0x30)
            hex(byte)
        }
    }

    /// An integer in decimal.
    mutating func int(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            uint(value.magnitude)
        } else {
            uint(UInt(value))
        }
    }

    /// A non-negative integer in decimal.
    mutating func uint(_ value: UInt) {
        if value < 10 { bytes.append(0x30 + UInt8(value)); return }
        // The highest power of ten not above the value, then one digit per power, appended only.
        var divisor: UInt = 1
        while value / divisor >= 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(0x30 + UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// A finite double in its shortest round-trip form (`52.5244`, `1e-07`, `100`).
    mutating func double(_ value: Double) {
        let text = value.description
        if text.hasSuffix(".0") { bytes.append(contentsOf: text.utf8.dropLast(2)) } else { bytes.append(contentsOf: text.utf8) }
    }

    /// `true` or `false`.
    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    /// `null`.
    mutating func null() { raw("null") }

    /// A timestamp as its canonical RFC 3339 string.
    mutating func timestamp(_ value: Timestamp) {
        bytes.append(UInt8(ascii: "\""))
        value.appendRFC3339(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A date as its `yyyy-mm-dd` string.
    mutating func date(_ value: CivilDate) {
        bytes.append(UInt8(ascii: "\""))
        value.appendText(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A UUID as its lowercase string.
    mutating func uuid(_ value: UUID) {
        let u = value.uuid
        bytes.append(UInt8(ascii: "\""))
        hex(u.0); hex(u.1); hex(u.2); hex(u.3); bytes.append(UInt8(ascii: "-"))
        hex(u.4); hex(u.5); bytes.append(UInt8(ascii: "-"))
        hex(u.6); hex(u.7); bytes.append(UInt8(ascii: "-"))
        hex(u.8); hex(u.9); bytes.append(UInt8(ascii: "-"))
        hex(u.10); hex(u.11); hex(u.12); hex(u.13); hex(u.14); hex(u.15)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Two lowercase hexadecimal digits.
    private mutating func hex(_ byte: UInt8) {
        bytes.append(Self.hexDigit(byte >> 4))
        bytes.append(Self.hexDigit(byte & 0x0F))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10 }

    // MARK: objects

    /// Opens an object.
    mutating func beginObject() { bytes.append(UInt8(ascii: "{")) }
    /// Closes an object.
    mutating func endObject() { bytes.append(UInt8(ascii: "}")) }

    /// Writes a member name (ASCII, needing no escapes) and its colon, with a comma before it
    /// unless it is the object's first.
    mutating func key(_ name: String) {
        let comma = if let last = bytes.last, last != UInt8(ascii: "{") && last != UInt8(ascii: "[") { true } else { false }
        let utf8 = name.utf8.span
        bytes.append(addingCapacity: utf8.count + 4) { out in
            if comma { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            Self.copy(utf8, to: &out)
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }
    }

    /// An array of integers and nulls (a track column).
    mutating func nullableInts(_ values: [Int?]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if let value { int(value) } else { null() }
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An array of the elements `write` writes, one call per element.
    mutating func array<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
