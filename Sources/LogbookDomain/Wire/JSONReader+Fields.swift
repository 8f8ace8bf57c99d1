import EventLog
import Foundation

/// Typed reads of object members into optional slots: a slot already filled means the key came
/// twice, which is refused (RFC 8259 leaves duplicates undefined; a strict codec names them).
extension JSONReader {
    /// The error for a member the schema does not know.
    func unknownField() -> JSONReadError { invalidMember("unknown field") }

    /// The error for a required member that never came; `name` is its key.
    func missing(_ name: String) -> JSONReadError {
        var error = invalid("required field is missing")
        error.field = name
        return error
    }

    /// `value`, or the missing-field error for `name`.
    func required<T>(_ value: T?, _ name: String) throws(JSONReadError) -> T {
        guard let value else { throw missing(name) }
        return value
    }

    /// Fails if the slot is already filled (the key came twice).
    func once<T>(_ slot: T?) throws(JSONReadError) {
        guard slot == nil else { throw invalidMember("duplicate field") }
    }

    mutating func read(_ slot: inout String?) throws(JSONReadError) {
        try once(slot)
        slot = try readString()
    }

    /// An id (user, workout, place): when schema ranges are checked (imports, request bodies),
    /// it must satisfy ``IdRule`` — in particular be in NFC, since ids are compared as bytes.
    mutating func readId(_ slot: inout String?) throws(JSONReadError) {
        try once(slot)
        skipSpace()
        let at = index
        let value = try readString()
        if checksSchemaRanges, let reason = IdRule.violation(value) { throw invalid(reason, at: at) }
        slot = value
    }

    mutating func read(_ slot: inout Int?) throws(JSONReadError) {
        try once(slot)
        slot = try readInt()
    }

    /// An integer that, when schema ranges are checked, must lie in `range`.
    mutating func read(_ slot: inout Int?, within range: ClosedRange<Int>) throws(JSONReadError) {
        try once(slot)
        skipSpace()
        let start = index
        let value = try readInt()
        try check(value, within: range, at: start)
        slot = value
    }

    /// A number that, when schema ranges are checked, must lie in `range`.
    mutating func read(_ slot: inout Double?, within range: ClosedRange<Double>) throws(JSONReadError) {
        try once(slot)
        skipSpace()
        let at = index
        let value = try readDouble()
        if checksSchemaRanges, !range.contains(value) { throw invalid("\(value) is outside \(range.lowerBound)…\(range.upperBound)", at: at) }
        slot = value
    }

    /// Fails, at this reader's place, if ranges are checked and `value` (an array's item count
    /// when `items`) is outside `range`.
    func check(_ value: Int, within range: ClosedRange<Int>, items: Bool = false, at start: Int? = nil) throws(JSONReadError) {
        guard checksSchemaRanges, !range.contains(value) else { return }
        let what = items ? "\(value) items" : "\(value)"
        throw invalid(range.upperBound == Int.max ? "\(what) is below the minimum \(range.lowerBound)" : "\(what) is outside \(range.lowerBound)…\(range.upperBound)",
                      at: start ?? index)
    }

    mutating func read(_ slot: inout Timestamp?) throws(JSONReadError) {
        try once(slot)
        slot = try readTimestamp()
    }

    mutating func read(_ slot: inout CivilDate?) throws(JSONReadError) {
        try once(slot)
        skipSpace()
        let at = index
        let text = try readString()
        guard let date = CivilDate(parsing: text) else { throw invalid("not a yyyy-mm-dd date: \(text)", at: at) }
        slot = date
    }

    /// A string naming one of `E`'s cases.
    mutating func read<E: RawRepresentable<String> & CaseIterable>(_ slot: inout E?) throws(JSONReadError) {
        try once(slot)
        skipSpace()
        let at = index
        let text = try readString()
        guard let value = E(rawValue: text) else {
            throw invalid("\"\(text)\" is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))", at: at)
        }
        slot = value
    }

    /// A string naming one of `E`'s cases, as a value (an element of a list).
    mutating func readCase<E: RawRepresentable<String> & CaseIterable>(_ type: E.Type) throws(JSONReadError) -> E {
        var slot: E?
        try read(&slot)
        guard let slot else { throw invalid("no value", at: index) }
        return slot
    }

    /// An RFC 3339 timestamp string; without escapes it is parsed from its bytes in place.
    mutating func readTimestamp() throws(JSONReadError) -> Timestamp {
        skipSpace()
        let at = index
        let bytes: ArraySlice<UInt8>
        if let range = try readRawString() { bytes = slice(range) } else { bytes = Array(try readString().utf8)[...] }
        do {
            return try Timestamp(rfc3339: bytes)
        } catch {
            throw invalid(error.description, at: at)
        }
    }

    /// An array of the elements `element` reads, whose count must lie in `items` when ranges are checked.
    mutating func readElements<Element>(
        items: ClosedRange<Int>?, _ element: (inout JSONReader) throws(JSONReadError) -> Element
    ) throws(JSONReadError) -> [Element] {
        skipSpace()
        let at = index
        var elements: [Element] = []
        try readArray { (reader, _) throws(JSONReadError) in elements.append(try element(&reader)) }
        if let items { try check(elements.count, within: items, items: true, at: at) }
        return elements
    }

    /// An array of integers and nulls (a track column), the integers in `range` when ranges are checked.
    mutating func readNullableInts(within range: ClosedRange<Int>) throws(JSONReadError) -> [Int?] {
        var values: [Int?] = []
        try readArray { (reader, _) throws(JSONReadError) in
            if try reader.consumeNull() { values.append(nil); return }
            let start = reader.index
            let value = try reader.readInt()
            try reader.check(value, within: range, at: start)
            values.append(value)
        }
        return values
    }
}
