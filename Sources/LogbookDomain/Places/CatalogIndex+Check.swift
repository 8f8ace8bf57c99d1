/// The catalog index's promise, checkable on any input (by the fuzz target over search texts and
/// by the tests): a segment built from places whose names are `names` offers as candidates, for
/// a search `text`, every place whose folded text holds the folded text — and text made only of
/// ASCII folds by its fast path exactly as the full folding would.
package enum CatalogSearchCheck {
    /// Why the promise failed for these names and this text, or nil when it held.
    package static func violation(names: [String], text: String) -> String? {
        for name in names + [text] where name.utf8.allSatisfy({ $0 < 0x80 }) {
            let fast = TextFolding.foldedBytes(name)
            let full = TextFolding.foldedBytes(fully: name)
            if fast != full { return "the ASCII text \(Array(name.utf8)) folds to \(fast) by the fast path but \(full) in full" }
        }
        let needle = TextFolding.foldedBytes(text)
        guard String(validating: needle, as: UTF8.self) != nil else { return "the folding of \(Array(text.utf8)) is not valid UTF-8" }
        let places = names.enumerated().map { index, name in
            IndexedPlace(sequence: UInt32(index + 1), place: PlaceAdded(
                placeId: "p\(index)", name: name, category: .restaurant, subcategory: index % 2 == 0 ? text : "", latitude: 0, longitude: 0,
                address: index % 3 == 0 ? name + text : nil))
        }
        let segment = CatalogIndexSegment(places)
        let view = CatalogIndexView(segments: [segment])
        let candidates = view.candidates(needle)
        for place in places where TextFolding.holds(place.folded[...], needle) {
            if let candidates, !candidates.contains(place.sequence) {
                return "place \(place.sequence) (\(Array(place.name.utf8))) holds \(needle) but is not a candidate"
            }
            if !view.mayHold(place.sequence, needle) { return "place \(place.sequence) holds \(needle) but the index says it may not" }
        }
        return nil
    }
}
