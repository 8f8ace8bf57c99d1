/// Tag-level scanning for `XMLPullReader`: start/end tags, namespaces, comments and DOCTYPE.
extension XMLPullReader {
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always) static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
    }

    /// Finds the `>` closing a start tag, honouring quoted attribute values.
    private func findTagEnd() throws -> Int {
        var relative = 1
        var quote: UInt8 = 0
        while true {
            let bytes = window.bytes
            var index = tokenStart + relative
            let limit = window.end
            while index < limit {
                let byte = bytes[index]
                if quote != 0 {
                    if byte == quote { quote = 0 } else if byte == UInt8(ascii: "<") {
                        throw error(.malformedXML, at: index, "'<' inside an attribute value")
                    }
                } else if byte == UInt8(ascii: ">") {
                    return index
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "<") {
                    throw error(.malformedXML, at: index, "'<' inside a tag")
                }
                index += 1
            }
            relative = index - tokenStart
            if try grow() == false { throw error(.truncated, at: tokenStart, "document ends inside a tag") }
        }
    }

    /// Parses `<name attr="v" …>` or `<name …/>` at the token start.
    func scanStartTag() throws {
        if rootClosed { throw error(.malformedXML, at: tokenStart, "a second root element") }
        let close = try findTagEnd()
        let bytes = window.bytes
        var index = tokenStart + 1
        let nameStart = index
        var colon = -1
        while index < close, !Self.endsName(bytes[index]) {
            if bytes[index] == UInt8(ascii: ":"), colon < 0 { colon = index }
            index += 1
        }
        guard index > nameStart else { throw error(.malformedXML, at: nameStart, "missing element name") }
        elementQName = nameStart..<index
        attributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        var declaresNamespace = false
        while true {
            while index < close, Self.isSpace(bytes[index]) { index += 1 }
            if index >= close { break }
            if bytes[index] == UInt8(ascii: "/") {
                guard index + 1 == close else { throw error(.malformedXML, at: index, "stray '/' in a tag") }
                selfClosing = true
                break
            }
            let attrStart = index
            var attrColon = -1
            while index < close, !Self.endsName(bytes[index]) {
                if bytes[index] == UInt8(ascii: ":"), attrColon < 0 { attrColon = index }
                index += 1
            }
            let attrEnd = index
            guard attrEnd > attrStart else { throw error(.malformedXML, at: index, "malformed attribute") }
            while index < close, Self.isSpace(bytes[index]) { index += 1 }
            guard index < close, bytes[index] == UInt8(ascii: "=") else {
                throw error(.malformedXML, at: index, "attribute without '='")
            }
            index += 1
            while index < close, Self.isSpace(bytes[index]) { index += 1 }
            guard index < close, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw error(.malformedXML, at: index, "attribute value is not quoted")
            }
            let quote = bytes[index]
            index += 1
            let valueStart = index
            var ampersand = false
            while index < close, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "&") { ampersand = true }
                index += 1
            }
            guard index < close else { throw error(.malformedXML, at: valueStart, "unterminated attribute value") }
            if attributes.count >= 4096 { throw error(.limitExceeded, at: attrStart, "too many attributes") }
            attributes.append(Attribute(nameStart: attrStart, nameEnd: attrEnd, colon: attrColon,
                                        valueStart: valueStart, valueEnd: index, needsDecoding: ampersand))
            if attrEnd - attrStart >= 5, bytes[attrStart] == UInt8(ascii: "x"), bytes[attrStart + 1] == UInt8(ascii: "m"),
               bytes[attrStart + 2] == UInt8(ascii: "l"), bytes[attrStart + 3] == UInt8(ascii: "n"),
               bytes[attrStart + 4] == UInt8(ascii: "s"), attrEnd - attrStart == 5 || attrColon == attrStart + 5 {
                declaresNamespace = true
            }
            index += 1
        }
        guard depth < maxDepth else { throw error(.limitExceeded, at: tokenStart, "elements nested deeper than \(maxDepth)") }
        depth += 1
        rootSeen = true
        if declaresNamespace { bindNamespaces() }
        let names = intern(start: nameStart, end: elementQName.upperBound, colon: colon)
        localName = names.local
        namespaceURI = resolve(prefix: names.prefix)
        openLocalNames.append(localName)
        openURIs.append(namespaceURI)
        nameOffsets.append(nameBytes.count)
        nameBytes.append(contentsOf: UnsafeBufferPointer(start: bytes + nameStart, count: elementQName.count))
        pendingSelfClose = selfClosing
        window.start = close + 1
    }

    /// Parses `</name>` and checks it closes the innermost open element.
    func scanEndTag() throws {
        let close = try find([UInt8(ascii: ">")], from: 2, what: "end tag")
        let bytes = window.bytes
        var nameEnd = close
        while nameEnd > tokenStart + 2, Self.isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
        let nameStart = tokenStart + 2
        guard depth > 0, let offset = nameOffsets.last else {
            throw error(.malformedXML, at: tokenStart, "end tag without a matching start tag")
        }
        let expected = nameBytes.count - offset
        var matches = expected == nameEnd - nameStart
        if matches {
            for k in 0..<expected where nameBytes[offset + k] != bytes[nameStart + k] { matches = false; break }
        }
        guard matches else {
            let found = String(decoding: UnsafeBufferPointer(start: bytes + nameStart, count: max(0, nameEnd - nameStart)), as: UTF8.self)
            throw error(.malformedXML, at: tokenStart, "</\(found)> does not close <\(openLocalNames.last ?? "")>")
        }
        window.start = close + 1
        _ = closeCurrent()
    }

    /// Skips `<!-- … -->`, `<!DOCTYPE … [ … ]>` and other `<!…>` declarations.
    func skipMarkupDeclaration() throws {
        try need(4)
        let bytes = window.bytes
        if bytes[tokenStart + 2] == UInt8(ascii: "-"), bytes[tokenStart + 3] == UInt8(ascii: "-") {
            try skip(past: Array("-->".utf8), from: 4, what: "comment")
            return
        }
        if depth > 0 || rootSeen { throw error(.malformedXML, at: tokenStart, "declaration inside the document") }
        // DOCTYPE (or another declaration): quotes, an internal subset in brackets, and
        // comments inside that subset may all contain '>' or ']'.
        var relative = 2
        var quote: UInt8 = 0
        var inSubset = false
        var inComment = false
        while true {
            let bytes = window.bytes
            var index = tokenStart + relative
            let limit = window.end
            while index < limit {
                let byte = bytes[index]
                if inComment {
                    if byte == UInt8(ascii: ">"), index >= tokenStart + 2,
                       bytes[index - 1] == UInt8(ascii: "-"), bytes[index - 2] == UInt8(ascii: "-") { inComment = false }
                } else if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if inSubset {
                    if byte == UInt8(ascii: "]") { inSubset = false } else if byte == UInt8(ascii: "-"), index >= tokenStart + 3,
                        bytes[index - 1] == UInt8(ascii: "-"), bytes[index - 2] == UInt8(ascii: "!"), bytes[index - 3] == UInt8(ascii: "<") {
                        inComment = true
                    }
                } else if byte == UInt8(ascii: "[") {
                    inSubset = true
                } else if byte == UInt8(ascii: ">") {
                    window.start = index + 1
                    return
                }
                index += 1
            }
            relative = index - tokenStart
            if try grow() == false { throw error(.truncated, at: tokenStart, "document ends inside a DOCTYPE") }
        }
    }

    /// Records `xmlns` / `xmlns:p` attributes of the current start tag at the new depth.
    private func bindNamespaces() {
        let bytes = window.bytes
        for attribute in attributes {
            let length = attribute.nameEnd - attribute.nameStart
            guard length >= 5, bytes[attribute.nameStart] == UInt8(ascii: "x"),
                  bytes[attribute.nameStart + 1] == UInt8(ascii: "m"), bytes[attribute.nameStart + 2] == UInt8(ascii: "l"),
                  bytes[attribute.nameStart + 3] == UInt8(ascii: "n"), bytes[attribute.nameStart + 4] == UInt8(ascii: "s") else { continue }
            let prefix: String
            if length == 5 {
                prefix = ""
            } else if attribute.colon == attribute.nameStart + 5 {
                prefix = String(decoding: UnsafeBufferPointer(start: bytes + attribute.nameStart + 6, count: length - 6), as: UTF8.self)
            } else {
                continue
            }
            bindingPrefixes.append(prefix)
            bindingURIs.append(value(of: attribute))
            bindingDepths.append(depth)
        }
    }

    /// The namespace URI bound to `prefix` in scope ("" when unbound or no default namespace).
    func resolve(prefix: String) -> String {
        var index = bindingPrefixes.count - 1
        while index >= 0 {
            if bindingPrefixes[index] == prefix { return bindingURIs[index] }
            index -= 1
        }
        return ""
    }

    /// Splits and interns an element's qualified name.
    private func intern(start: Int, end: Int, colon: Int) -> (prefix: String, local: String) {
        let bytes = window.bytes
        let count = end - start
        for (slot, key) in internKeys.enumerated() where key.count == count {
            var same = true
            key.withUnsafeBufferPointer { stored in
                for k in 0..<count where stored[k] != bytes[start + k] { same = false; break }
            }
            if same { return internValues[slot] }
        }
        let prefix = colon >= 0 ? String(decoding: UnsafeBufferPointer(start: bytes + start, count: colon - start), as: UTF8.self) : ""
        let localStart = colon >= 0 ? colon + 1 : start
        let local = String(decoding: UnsafeBufferPointer(start: bytes + localStart, count: end - localStart), as: UTF8.self)
        if internKeys.count < 512 {
            internKeys.append(Array(UnsafeBufferPointer(start: bytes + start, count: count)))
            internValues.append((prefix, local))
        }
        return (prefix, local)
    }
}
