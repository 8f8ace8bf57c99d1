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
}
