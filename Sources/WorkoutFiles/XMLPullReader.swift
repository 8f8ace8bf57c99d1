import Foundation

/// A small, fast, streaming XML 1.0 pull tokenizer used by the GPX, TCX and Apple Health readers.
///
/// It reads UTF-8 through a bounded `ByteWindow`, reports start tags, end tags and text,
/// resolves element namespaces by URI, decodes the five predefined entities and numeric
/// character references, returns CDATA as text, and skips comments, processing instructions
/// and `<!DOCTYPE … [ internal subset ]>`. It is deliberately lenient about unknown named
/// entities (kept literally) and invalid numeric references (U+FFFD), and strict about
/// structure (mismatched or unclosed tags, text outside the root). Whitespace-only text is not
/// reported. Memory is bounded by `maxTokenBytes` per token and `maxDepth` open elements.
final class XMLPullReader {
    /// What `next()` found.
    enum Event: Equatable { case startElement, endElement, text, endOfDocument }

    struct Attribute {
        var nameStart: Int, nameEnd: Int, colon: Int, valueStart: Int, valueEnd: Int
        var needsDecoding: Bool
    }

    let window: ByteWindow
    let fileName: String
    let maxDepth: Int

    // Current token.
    @exclusivity(unchecked) var tokenStart = 0
    @exclusivity(unchecked) var textStart = 0, textEnd = 0
    @exclusivity(unchecked) var textNeedsDecoding = false
    @exclusivity(unchecked) var attributes: [Attribute] = []
    @exclusivity(unchecked) var elementQName = 0..<0
    /// Local name of the current start or end element.
    @exclusivity(unchecked) var localName = ""
    /// Namespace URI of the current start or end element ("" when none).
    @exclusivity(unchecked) var namespaceURI = ""
    /// Nesting depth: 1 for the root element while it is current.
    @exclusivity(unchecked) var depth = 0
    @exclusivity(unchecked) var pendingSelfClose = false
    @exclusivity(unchecked) var checkedEncoding = false
    @exclusivity(unchecked) var rootSeen = false
    @exclusivity(unchecked) var rootClosed = false

    // Open element names (flat byte stack) for end-tag matching.
    @exclusivity(unchecked) var nameBytes: [UInt8] = []
    @exclusivity(unchecked) var nameOffsets: [Int] = []
    @exclusivity(unchecked) var openLocalNames: [String] = []
    @exclusivity(unchecked) var openURIs: [String] = []

    // Namespace bindings.
    @exclusivity(unchecked) var bindingPrefixes: [String] = ["xml"]
    @exclusivity(unchecked) var bindingURIs: [String] = ["http://www.w3.org/XML/1998/namespace"]
    @exclusivity(unchecked) var bindingDepths: [Int] = [0]

    // Interned element names.
    @exclusivity(unchecked) var internKeys: [[UInt8]] = []
    @exclusivity(unchecked) var internValues: [(prefix: String, local: String)] = []

    // Position bookkeeping for errors.
    @exclusivity(unchecked) var discardedNewlines = 0
    @exclusivity(unchecked) var discardedSinceNewline = 0

    init(source: any ByteSource, fileName: String, maxTokenBytes: Int = 16 << 20, maxDepth: Int = 256) {
        self.window = ByteWindow(source: source, chunkSize: 256 << 10, maxCapacity: maxTokenBytes)
        self.fileName = fileName
        self.maxDepth = maxDepth
        attributes.reserveCapacity(16)
        window.onDiscard = { [unowned self] bytes in self.countLines(bytes) }
    }

    private func countLines(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var newlines = 0
        var lastEnd = -1
        var offset = 0
        while offset < bytes.count, let hit = memchr(base + offset, 0x0A, bytes.count - offset) {
            let index = base.distance(to: UnsafeRawPointer(hit))
            newlines += 1
            lastEnd = index + 1
            offset = index + 1
        }
        discardedNewlines += newlines
        discardedSinceNewline = lastEnd >= 0 ? bytes.count - lastEnd : discardedSinceNewline + bytes.count
    }

    /// Skips a UTF-8 byte-order mark; rejects UTF-16/32 input, which this reader does not decode.
    private func checkEncoding() throws {
        checkedEncoding = true
        tokenStart = window.start
        let count = try window.fill(atLeast: 3)
        let bytes = window.bytes + window.start
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            window.start += 3
        } else if count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) || bytes[0] == 0 || bytes[1] == 0 {
            throw error(.unsupported, at: window.start, "UTF-16/UTF-32 XML is not supported (convert to UTF-8)")
        }
    }

    /// Advances to the next start tag, end tag or non-blank text.
    func next() throws -> Event {
        if !checkedEncoding { try checkEncoding() }
        if pendingSelfClose {
            pendingSelfClose = false
            return closeCurrent()
        }
        while true {
            if window.available == 0 {
                tokenStart = window.start
                if try grow() == false {
                    if depth > 0 { throw error(.truncated, at: window.start, "document ends inside <\(openLocalNames.last ?? "")>") }
                    if !rootSeen { throw error(.malformedXML, at: window.start, "no root element") }
                    return .endOfDocument
                }
            }
            tokenStart = window.start
            let first = window.bytes[window.start]
            if first != UInt8(ascii: "<") {
                if try scanText() { return .text }
                continue
            }
            try need(2)
            let second = window.bytes[window.start + 1]
            switch second {
            case UInt8(ascii: "/"):
                try scanEndTag()
                return .endElement
            case UInt8(ascii: "?"):
                try skip(past: [UInt8(ascii: "?"), UInt8(ascii: ">")], from: 2, what: "processing instruction")
            case UInt8(ascii: "!"):
                if try isCDATA() {
                    try scanCDATA()
                    if textEnd > textStart { return .text }
                } else {
                    try skipMarkupDeclaration()
                }
            default:
                try scanStartTag()
                return .startElement
            }
        }
    }

    /// Makes at least one more byte available after the current token; false at end of input.
    func grow() throws -> Bool {
        window.start = tokenStart
        let want = window.end - tokenStart + 1
        do {
            let got = try window.fill(atLeast: want)
            tokenStart = window.start
            return got >= want
        } catch is ByteWindow.LimitError {
            throw WorkoutFileError.limit(fileName, offset: window.offset, what: "an XML token")
        }
    }

    /// Ensures `count` bytes from the token start, else `truncated`.
    func need(_ count: Int) throws {
        while window.end - tokenStart < count {
            if try grow() == false { throw error(.truncated, at: tokenStart, "document ends inside markup") }
        }
    }

    /// Reads character data up to the next `<`. Returns false for blank text (not reported).
    private func scanText() throws -> Bool {
        var index = tokenStart
        var blank = true
        var ampersand = false
        while true {
            let bytes = window.bytes
            let limit = window.end
            while index < limit {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<") { break }
                if byte > 0x20 {
                    blank = false
                    if byte == UInt8(ascii: "&") { ampersand = true }
                } else if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 {
                    blank = false
                }
                index += 1
            }
            if index < window.end { break }
            let relative = index - tokenStart
            if try grow() == false { index = tokenStart + relative; break }
            index = tokenStart + relative
        }
        window.start = index
        if blank { return false }
        if depth == 0 { throw error(.malformedXML, at: tokenStart, "text outside the root element") }
        textStart = tokenStart
        textEnd = index
        textNeedsDecoding = ampersand
        return true
    }

    private func isCDATA() throws -> Bool {
        let marker = Array("<![CDATA[".utf8)
        while window.end - tokenStart < marker.count {
            if try grow() == false { break }
        }
        guard window.end - tokenStart >= marker.count else { return false }
        for (offset, byte) in marker.enumerated() where window.bytes[tokenStart + offset] != byte { return false }
        return true
    }

    private func scanCDATA() throws {
        if depth == 0 { throw error(.malformedXML, at: tokenStart, "CDATA outside the root element") }
        let end = try find([UInt8(ascii: "]"), UInt8(ascii: "]"), UInt8(ascii: ">")], from: 9, what: "CDATA section")
        textStart = tokenStart + 9
        textEnd = end
        textNeedsDecoding = false
        window.start = end + 3
    }

    /// Skips to just after `terminator`, starting `from` bytes into the token.
    func skip(past terminator: [UInt8], from: Int, what: String) throws {
        let at = try find(terminator, from: from, what: what)
        window.start = at + terminator.count
    }

    /// Returns the window index where `terminator` starts, growing the token as needed.
    func find(_ terminator: [UInt8], from: Int, what: String) throws -> Int {
        var relative = from
        let first = terminator[0]
        while true {
            let bytes = window.bytes
            var index = tokenStart + relative
            let limit = window.end - terminator.count + 1
            while index < limit {
                if bytes[index] == first {
                    var matched = true
                    for k in 1..<terminator.count where bytes[index + k] != terminator[k] { matched = false; break }
                    if matched { return index }
                }
                index += 1
            }
            relative = max(relative, index - tokenStart)
            if try grow() == false { throw error(.truncated, at: tokenStart, "document ends inside a \(what)") }
        }
    }

    /// Builds an error carrying line and column of a window index.
    func error(_ code: WorkoutFileError.Code, at index: Int, _ message: String) -> WorkoutFileError {
        let bytes = window.bytes
        let clamped = min(max(index, 0), window.end)
        var line = discardedNewlines + 1
        var lastNewline = -1
        for i in 0..<clamped where bytes[i] == 0x0A {
            line += 1
            lastNewline = i
        }
        let column = lastNewline >= 0 ? clamped - lastNewline : discardedSinceNewline + clamped + 1
        return WorkoutFileError(code: code, fileName: fileName, byteOffset: window.baseOffset + Int64(clamped),
                                line: line, column: column, message: message)
    }

    /// Finishes the current element (after its end tag or a self-closing start tag).
    func closeCurrent() -> Event {
        localName = openLocalNames.removeLast()
        namespaceURI = openURIs.removeLast()
        nameBytes.removeSubrange(nameOffsets.removeLast()...)
        while let last = bindingDepths.last, last >= depth {
            bindingDepths.removeLast(); bindingPrefixes.removeLast(); bindingURIs.removeLast()
        }
        depth -= 1
        if depth == 0 { rootClosed = true }
        return .endElement
    }
}
