extension String {
    /// True when the text is in Unicode Normalization Form C (NFC).
    ///
    /// The log compares names as bytes (LMDB keys, PostgreSQL `text`), while Swift's `String`
    /// compares and hashes by canonical equivalence: `"jos\u{e9}"` and `"jose\u{301}"` are equal
    /// strings but different names. So names and ids are accepted only in NFC: among NFC texts,
    /// two that differ in bytes are never canonically equivalent, and every dictionary, cache and
    /// comparison keyed by a `String` then agrees with the bytes stored. The normalization is the
    /// standard library's own, the one `==` and hashing use, so the two cannot disagree about
    /// which texts are equal. ASCII text is NFC and is answered without normalizing.
    package var isInNormalizationFormC: Bool {
        var ascii = true
        for byte in utf8 where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii { return true }
        var stored = utf8.makeIterator()
        var matches = true
        _withNFCCodeUnits { unit in
            if matches, stored.next() != unit { matches = false }
        }
        return matches && stored.next() == nil
    }

    /// The text in Unicode Normalization Form C, by the standard library's normalization (the
    /// one `==` uses): for text from outside, such as a device file's names, that must be NFC.
    package var inNormalizationFormC: String {
        if isInNormalizationFormC { return self }
        var units: [UInt8] = []
        _withNFCCodeUnits { units.append($0) }
        return String(decoding: units, as: UTF8.self)
    }
}
