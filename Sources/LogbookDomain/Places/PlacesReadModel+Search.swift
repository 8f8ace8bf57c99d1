import EventLog

/// The deck searched through the ``CatalogIndex``: text through its posting lists, a point through
/// its tree, each candidate checked against the query's own snapshot (the index may hold newer
/// places and older versions). A page costs the candidates looked at to fill it, not the catalog.
extension PlacesReadModel {
    /// Text candidates at most this many are measured all at once when the search names a point
    /// too; more are found walking outwards from the point instead.
    static let textCandidatesMeasuredAtOnce = 2_048

    /// The catalog index as this snapshot can use it (built or caught up first), or nil.
    func indexView(_ pinned: CatalogIndex.Pinned, _ txn: any TableReader) throws -> CatalogIndexView? {
        let size = try self.size.peek(SequenceKey(0), txn)?.count ?? 0
        let revision = try self.revision.peek(SequenceKey(0), txn)?.revision ?? 0
        return try pinned.index.view(
            at: revision, generation: pinned.generation,
            loadAll: {
                var versions: [IndexedPlace] = []
                versions.reserveCapacity(Int(size))
                try order.forEach(from: SequenceKey(1), txn) { key, id in
                    if let entry = try catalog.peek(PlaceKey(id.text), txn) { versions.append(IndexedPlace(sequence: key.sequence, place: entry.place)) }
                    return true
                }
                return versions
            },
            loadChanges: { after in
                var changed: [(revision: UInt64, sequence: UInt32)] = []
                try changes.forEach(from: RevisionKey(after + 1), txn) { key, sequence in
                    guard key.revision <= revision else { return false }
                    changed.append((key.revision, sequence.count))
                    return true
                }
                var versions: [IndexedPlace] = []
                for sequence in Set(changed.map(\.sequence)).sorted() {
                    guard let id = try order.peek(SequenceKey(sequence), txn), let entry = try catalog.peek(PlaceKey(id.text), txn) else { continue }
                    versions.append(IndexedPlace(sequence: sequence, place: entry.place))
                }
                return (versions, changed)
            })
    }

    /// The deck through the index.
    func indexedDeck(
        states: [BytewiseString: UserPlace], limit: Int, search: PlaceSearch, view: CatalogIndexView, _ txn: any TableReader
    ) throws -> [PlaceView] {
        let size = try self.size.peek(SequenceKey(0), txn)?.count ?? 0
        let needle = search.needle
        /// Place `sequence` as the snapshot has it, if it is in the deck and holds the text.
        func candidate(_ sequence: UInt32) throws -> NumberedPlace? {
            guard sequence >= 1, sequence <= size else { return nil }
            if let needle, !view.mayHold(sequence, needle) { return nil }
            guard let id = try order.peek(SequenceKey(sequence), txn) else { return nil }
            let state = states[BytewiseString(id.text)] ?? UserPlace()
            guard state.status == .notSeen, let entry = try catalog.peek(PlaceKey(id.text), txn) else { return nil }
            if let needle, !TextFolding.holds(view.folded(sequence, entry.place)[...], needle) { return nil }
            return NumberedPlace(sequence: sequence, view: PlaceView(entry.place, state))
        }
        guard let near = search.near else {
            guard let needle else { return try unsearchedDeck(states: states, limit: limit, txn) }
            var found: [PlaceView] = []
            if let candidates = view.candidates(needle) {
                for sequence in candidates {
                    if let place = try candidate(sequence) { found.append(place.view) }
                    if found.count == limit { break }
                }
            } else {
                var sequence: UInt32 = 1
                while sequence <= size, found.count < limit {
                    if let place = try candidate(sequence) { found.append(place.view) }
                    sequence += 1
                }
            }
            return found
        }
        let radius = search.radiusMeters ?? PlaceSearch.defaultRadiusMeters
        if let needle, let candidates = view.candidates(needle), candidates.count <= Self.textCandidatesMeasuredAtOnce {
            let places = try candidates.compactMap(candidate)
            return Array(PlaceSearch(near: near, radiusMeters: radius).apply(places, folding: { _ in [] }).prefix(limit))
        }
        return try nearestDeck(limit: limit, near: near, radius: radius, view: view, candidate: candidate)
    }

    /// The nearest places of the deck within `radius`, walking outwards from `near` and stopping
    /// once nothing still to come can be nearer than the page's farthest (a metre of slack for
    /// rounding between the tree's chords and the haversine distances the answer reports).
    private func nearestDeck(
        limit: Int, near: (latitude: Double, longitude: Double), radius: Double, view: CatalogIndexView,
        candidate: (UInt32) throws -> NumberedPlace?
    ) throws -> [PlaceView] {
        var walk = view.nearest(latitude: near.latitude, longitude: near.longitude)
        var page: [(meters: Double, sequence: UInt32, view: PlaceView)] = []
        var taken = Set<UInt32>()
        while let step = walk.next() {
            let bound = SpherePointTree.meters(squaredChord: step.squaredChord) - 1
            if bound > radius { break }
            if page.count == limit, let farthest = page.last, bound > farthest.meters { break }
            let version = view.place(tree: step.tree, payload: step.payload)
            guard !taken.contains(version.sequence), let place = try candidate(version.sequence),
                  version.latitude.bitPattern == place.view.place.latitude.bitPattern,
                  version.longitude.bitPattern == place.view.place.longitude.bitPattern else { continue }
            let meters = TrackAnalysis.haversine(near.latitude, near.longitude, place.view.place.latitude, place.view.place.longitude)
            guard meters <= radius else { continue }
            taken.insert(version.sequence)
            var placed = place.view
            placed.distanceMeters = Int(meters.rounded())
            let entry = (meters: meters, sequence: version.sequence, view: placed)
            let at = page.firstIndex { $0.meters > meters || ($0.meters == meters && $0.sequence > version.sequence) } ?? page.count
            page.insert(entry, at: at)
            if page.count > limit { page.removeLast() }
        }
        return page.map(\.view)
    }
}
