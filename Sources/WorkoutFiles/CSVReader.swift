import Foundation

/// A streaming RFC 4180 CSV reader: comma-separated fields, optional double-quoted fields
/// with doubled quotes and embedded commas or line breaks, CRLF or LF row ends, a UTF-8 BOM.
///
/// Bounded: a field may hold at most `maxFieldBytes`, a row 16 × that and at most `maxFields` fields.
/// A quote left open at the end of input, or text right after a closing quote, is
/// `malformedCSV` with the line and column where it was found.
final class CSVReader {
    private let window: ByteWindow
    private let fileName: String
    private let maxFieldBytes: Int
    private let maxFields: Int
    /// 1-based line of the read position.
    @exclusivity(unchecked) private(set) var line = 1
    /// Absolute offset where the current line starts.
    @exclusivity(unchecked) private var lineStart: Int64 = 0
    @exclusivity(unchecked) private var started = false
    /// Bytes of the row being read, all fields back to back.
    @exclusivity(unchecked) private var field: [UInt8] = []
    @exclusivity(unchecked) private var fieldStart = 0
    /// 1-based line where the row returned last started.
    @exclusivity(unchecked) private(set) var rowLine = 1

    init(source: any ByteSource, fileName: String, maxFieldBytes: Int = 1 << 20, maxFields: Int = 10_000) {
        window = ByteWindow(source: source, chunkSize: 256 << 10, maxCapacity: 1 << 20)
        self.fileName = fileName
        self.maxFieldBytes = maxFieldBytes
        self.maxFields = maxFields
    }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline: UInt8 = 0x0A, cr: UInt8 = 0x0D

    @inline(__always) private func peek() throws -> UInt8? {
        if window.available == 0, try window.fill(atLeast: 1) == 0 { return nil }
        return window.bytes[window.start]
    }

    private func fail(_ message: String) -> WorkoutFileError {
        WorkoutFileError(code: .malformedCSV, fileName: fileName, byteOffset: window.offset, line: line,
                         column: Int(window.offset - lineStart) + 1, message: message)
    }

    /// Consumes one byte that is known to be present.
    @inline(__always) private func consume(_ byte: UInt8) {
        if byte == Self.newline {
            line += 1
            lineStart = window.offset + 1
        }
        window.start += 1
    }

    /// Appends the window bytes `[window.start, end)` to the field, counting line breaks.
    private func take(upTo end: Int) throws {
        let count = end - window.start
        guard count > 0 else { return }
        let base = UnsafeRawPointer(window.bytes + window.start)
        var offset = 0
        while offset < count, let hit = memchr(base + offset, 0x0A, count - offset) {
            let index = base.distance(to: UnsafeRawPointer(hit))
            line += 1
            lineStart = window.offset + Int64(index) + 1
            offset = index + 1
        }
        field.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count))
        window.start = end
        if field.count - fieldStart > maxFieldBytes { throw fail("a field is longer than \(maxFieldBytes) bytes") }
        if field.count > 16 * maxFieldBytes { throw fail("a row is longer than \(16 * maxFieldBytes) bytes") }
    }

    /// The next row as Strings, or nil at the end of input.
    func nextRow() throws -> [String]? {
        try nextRawRow().map { row in (0..<row.count).map { row[$0] } }
    }

    /// The next row with fields decoded on demand, or nil at the end of input.
    func nextRawRow() throws -> CSVRow? {
        if !started {
            started = true
            if try window.fill(atLeast: 3) >= 3, window.bytes[window.start] == 0xEF,
               window.bytes[window.start + 1] == 0xBB, window.bytes[window.start + 2] == 0xBF {
                window.start += 3
                lineStart = 3
            }
        }
        guard try peek() != nil else { return nil }
        rowLine = line
        var ends: [Int] = []
        field.removeAll(keepingCapacity: true)
        while true {
            fieldStart = field.count
            var next = try peek()
            if next == Self.quote {
                consume(Self.quote)
                while true {
                    guard try peek() != nil else { throw fail("a quoted field is never closed") }
                    let bytes = window.bytes, end = window.end
                    var index = window.start
                    while index < end, bytes[index] != Self.quote { index += 1 }
                    try take(upTo: index)
                    guard index < end else { continue }
                    consume(Self.quote)
                    if try peek() == Self.quote {
                        consume(Self.quote)
                        field.append(Self.quote)
                        continue
                    }
                    break
                }
                next = try peek()
                guard next == nil || next == Self.comma || next == Self.newline || next == Self.cr else {
                    throw fail("text follows a closing quote")
                }
            } else {
                while let byte = next, byte != Self.comma, byte != Self.newline, byte != Self.cr {
                    let bytes = window.bytes, end = window.end
                    var index = window.start
                    while index < end {
                        let b = bytes[index]
                        if b == Self.comma || b == Self.newline || b == Self.cr { break }
                        index += 1
                    }
                    try take(upTo: index)
                    next = try peek()
                }
            }
            ends.append(field.count)
            if ends.count > maxFields { throw fail("a row has more than \(maxFields) fields") }
            guard let separator = next else { return CSVRow(bytes: field, ends: ends) }
            consume(separator)
            if separator == Self.comma { continue }
            if separator == Self.cr, try peek() == Self.newline { consume(Self.newline) }
            return CSVRow(bytes: field, ends: ends)
        }
    }
}

/// One CSV row: the field bytes back to back plus where each field ends.
struct CSVRow {
    let bytes: [UInt8]
    let ends: [Int]

    /// Number of fields.
    var count: Int { ends.count }

    private func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

    /// Field `index` as a String ("" past the end).
    subscript(index: Int) -> String {
        guard index < ends.count else { return "" }
        return String(decoding: bytes[range(index)], as: UTF8.self)
    }

    /// Whether field `index` is empty or missing.
    func isEmpty(_ index: Int) -> Bool { index >= ends.count || range(index).isEmpty }

    /// Whether every field is empty.
    var isBlank: Bool { ends.last.map { $0 == 0 } ?? true }

    /// Runs `body` over the bytes of field `index` (empty past the end).
    func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard index < ends.count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        let r = range(index)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[r])) }
    }
}
