import Foundation

/// What a places list is narrowed to (`GET …/places/{deck|saved|visited}?q=&near=&radius=`): text
/// found in a place's name, subcategory or address, and places within a radius of a point, nearest
/// first. An empty search keeps every place in the list's own order.
public struct PlaceSearch: Sendable, Hashable, CustomStringConvertible {
    /// The text to find, as given (folded when compared).
    public var text: String?
    /// The point to measure from, in degrees.
    public var near: (latitude: Double, longitude: Double)?
    /// Metres from `near` a place may be (default ``defaultRadiusMeters``).
    public var radiusMeters: Double?

    /// The radius a search near a point keeps when it names none.
    public static let defaultRadiusMeters = 5_000.0
    /// The largest radius: half the Earth's circumference, so every place.
    public static let maxRadiusMeters = 20_037_509.0
    /// The longest text a search takes.
    public static let maxTextLength = 100

    public init(text: String? = nil, near: (latitude: Double, longitude: Double)? = nil, radiusMeters: Double? = nil) {
        self.text = text
        self.near = near
        self.radiusMeters = radiusMeters
    }

    public static func == (a: PlaceSearch, b: PlaceSearch) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// The search as a cache key: every part written out exactly.
    public var description: String {
        let point = near.map { "\($0.latitude.bitPattern),\($0.longitude.bitPattern)" } ?? "-"
        return "q=\(text.map { Array($0.utf8).description } ?? "-") near=\(point) r=\(radiusMeters?.bitPattern.description ?? "-")"
    }

    /// `places` narrowed: those whose name, subcategory or address holds the folded text, then
    /// those within the radius with their distance, nearest first (ties keep the list's order).
    func apply(_ places: [PlaceView]) -> [PlaceView] {
        var kept = places
        if let text, !text.isEmpty {
            let needle = Array(TextFolding.fold(text).unicodeScalars)
            kept = kept.filter { view in
                [view.place.name, view.place.subcategory, view.place.address ?? ""].contains { TextFolding.holds(TextFolding.fold($0), needle) }
            }
        }
        guard let near else { return kept }
        let radius = radiusMeters ?? Self.defaultRadiusMeters
        return kept.enumerated()
            .compactMap { index, view -> (Int, Double, PlaceView)? in
                let meters = TrackAnalysis.haversine(near.latitude, near.longitude, view.place.latitude, view.place.longitude)
                guard meters <= radius else { return nil }
                var placed = view
                placed.distanceMeters = Int(meters.rounded())
                return (index, meters, placed)
            }
            .sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map(\.2)
    }
}

/// The one folding text search compares by, the same on every machine and in every locale:
/// canonical decomposition (NFD), combining marks dropped, each scalar's full Unicode lowercase
/// mapping (locale-independent), then `ß`/`ẞ` → `ss` and dotless `ı` → `i`. So `Café`, `CAFE`
/// and `cafe\u{301}` fold alike, `İstanbul` and `ISTANBUL` and `ıstanbul` fold to `istanbul`,
/// and `Straße` to `strasse`.
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            for lower in scalar.properties.lowercaseMapping.decomposedStringWithCanonicalMapping.unicodeScalars {
                switch lower {
                case "\u{DF}": scalars.append(contentsOf: "ss".unicodeScalars)
                case "\u{131}": scalars.append("i")
                default: if lower.properties.generalCategory != .nonspacingMark { scalars.append(lower) }
                }
            }
        }
        return String(scalars)
    }

    /// Whether `folded` holds `needle` scalar for scalar (no locale, no further equivalence).
    static func holds(_ folded: String, _ needle: [Unicode.Scalar]) -> Bool {
        let haystack = Array(folded.unicodeScalars)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<(start + needle.count)].elementsEqual(needle) }
    }
}
