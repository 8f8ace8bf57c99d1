import Synchronization

/// The catalog's search index, in memory, so a search of the places deck costs what it returns
/// and not the size of the catalog: every place's text folded once, posting lists of the bytes,
/// pairs and triples of folded bytes, and a tree of where places are.
///
/// The index is derived, never stored: built from the places read model the first time a search
/// needs it, then brought up to date from the read model's numbered list of catalog changes
/// (each added or edited place) whenever a query reads a later revision. It only grows between
/// resets — a place's earlier versions stay in it — so at any revision since it was built it
/// holds every place version a snapshot can see: candidates are a superset, and each query checks
/// them against its own snapshot. A snapshot older than the index's first build (or a read
/// model that keeps no list of changes) is answered without it.
package final class CatalogIndex: Sendable {
    private struct State {
        /// The catalog revision the index was built from (nil: not built yet).
        var base: UInt64?
        /// The last catalog revision folded in.
        var revision: UInt64 = 0
        /// The revision the last catch-up started from, and the changes it folded in (revision and
        /// place number): what a snapshot between the two can rely on.
        var previous: UInt64 = 0
        var lastChanges: [(revision: UInt64, sequence: UInt32)] = []
        var segments: [CatalogIndexSegment] = []
        /// How many times the index was reset: a query pinned to an earlier count may read read
        /// models the reset was for, and is not served.
        var generation: UInt64 = 0
    }

    /// The index as a query takes it before it opens its snapshot of the read models: a query
    /// pinned before a reset is not served by the index after it (its snapshot may be of the read
    /// models the reset replaced), so the index is never built or caught up from them.
    package struct Pinned: Sendable {
        let index: CatalogIndex
        let generation: UInt64
    }

    private let state = Mutex(State())

    package init() {}

    /// The index pinned to now: take it before the query's read transaction begins.
    package func pinned() -> Pinned {
        Pinned(index: self, generation: state.withLock(\.generation))
    }

    /// Forgets everything: the next search builds the index again (after the read models were
    /// rebuilt, restored or replaced, when their revisions may name another history). Queries
    /// pinned before it are answered without the index.
    package func reset() {
        state.withLock { state in state = State(generation: state.generation + 1) }
    }

    /// How many segments and place versions the index holds (0 and 0 before its first build).
    package var size: (segments: Int, versions: Int) {
        state.withLock { ($0.segments.count, $0.segments.reduce(0) { $0 + $1.places.count }) }
    }

    /// The index for a query that reads the catalog at `revision`: built with `loadAll` if it is
    /// not yet, caught up with `loadChanges(after:)` if it is behind (the catalog changes after a
    /// revision, up to `revision`, each with its place's version as `revision` has it); nil if it
    /// cannot serve that snapshot, or it was reset since `generation` (the pin's).
    ///
    /// A catch-up holds each changed place as it is at the revision caught up to, so a snapshot
    /// between the last two catch-ups is served only if no place changed both before and after
    /// it within that span (else its version at the snapshot may be missing); older snapshots,
    /// rare (a query that began before two later catalog changes were seen), are not served.
    func view(
        at revision: UInt64, generation: UInt64, loadAll: () throws -> [IndexedPlace],
        loadChanges: (_ after: UInt64) throws -> (versions: [IndexedPlace], changes: [(revision: UInt64, sequence: UInt32)])
    ) throws -> CatalogIndexView? {
        try state.withLock { state -> CatalogIndexView? in
            guard generation == state.generation else { return nil }
            guard let base = state.base else {
                state.segments = [CatalogIndexSegment(try loadAll())]
                state.base = revision
                state.revision = revision
                state.previous = revision
                return CatalogIndexView(segments: state.segments)
            }
            if revision > state.revision {
                let (versions, changes) = try loadChanges(state.revision)
                state.segments.append(CatalogIndexSegment(versions))
                state.previous = state.revision
                state.lastChanges = changes
                state.revision = revision
                // Merge while the newest segment is at least half the one before it: a few segments,
                // each place version merged a logarithmic number of times.
                while state.segments.count >= 2,
                      state.segments[state.segments.count - 1].places.count * 2 >= state.segments[state.segments.count - 2].places.count {
                    let newest = state.segments.removeLast()
                    let older = state.segments.removeLast()
                    state.segments.append(CatalogIndexSegment.merged([older, newest]))
                }
            } else if revision < state.revision {
                guard revision >= base, revision >= state.previous else { return nil }
                let before = Set(state.lastChanges.filter { $0.revision <= revision }.map(\.sequence))
                guard !state.lastChanges.contains(where: { $0.revision > revision && before.contains($0.sequence) }) else { return nil }
            }
            return CatalogIndexView(segments: state.segments)
        }
    }
}

/// The catalog's search index as one query uses it: the segments there were when it began.
struct CatalogIndexView {
    let segments: [CatalogIndexSegment]

    /// The place numbers whose text (some version of it) may hold the folded `needle`, ascending;
    /// nil when the needle is empty: every place may.
    func candidates(_ needle: [UInt8]) -> [UInt32]? {
        guard let keys = CatalogIndexSegment.keys(of: needle) else { return nil }
        var merged: [UInt32] = []
        for segment in segments {
            let found = segment.candidates(keys)
            merged = merged.isEmpty ? found : Self.union(merged, found)
        }
        return merged
    }

    /// Whether some version of place `sequence` holds the folded `needle` (false: no version the
    /// index knows does, so neither does the place at any snapshot since the index was built).
    func mayHold(_ sequence: UInt32, _ needle: [UInt8]) -> Bool {
        segments.contains { segment in segment.versions(of: sequence).contains { TextFolding.holds($0.folded[...], needle) } }
    }

    /// `place`'s folded text: the index's, if it holds this version of the text; else folded now.
    func folded(_ sequence: UInt32, _ place: PlaceAdded) -> [UInt8] {
        for segment in segments.reversed() {
            if let version = segment.versions(of: sequence).last(where: { $0.hasText(of: place) }) { return version.folded }
        }
        return IndexedPlace(sequence: sequence, place: place).folded
    }

    /// The place versions nearest a point first.
    func nearest(latitude: Double, longitude: Double) -> NearestWalk {
        NearestWalk(segments.map(\.tree), latitude: latitude, longitude: longitude)
    }

    /// The place version a ``NearestWalk`` step names.
    func place(tree: Int, payload: Int32) -> IndexedPlace { segments[tree].places[Int(payload)] }

    private static func union(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                result.append(a[i]); i += 1
            } else if i == a.count || b[j] < a[i] {
                result.append(b[j]); j += 1
            } else {
                result.append(a[i]); i += 1; j += 1
            }
        }
        return result
    }
}
