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

    /// Whether the search narrows nothing (no text, no point).
    var isEmpty: Bool { (text ?? "").isEmpty && near == nil }

    /// The folded bytes a place's text must hold, or nil when the search names no text.
    var needle: [UInt8]? {
        guard let text, !text.isEmpty else { return nil }
        return TextFolding.foldedBytes(text)
    }

    /// `places` narrowed: those whose name, subcategory or address holds the folded text (each
    /// place's text folded by `folding`: name, subcategory and address joined by
    /// ``IndexedPlace/separator``), then those within the radius with their distance, nearest
    /// first (ties keep the list's order).
    func apply(_ places: [NumberedPlace], folding: (NumberedPlace) -> [UInt8]) -> [PlaceView] {
        var kept = places
        if let needle { kept = kept.filter { TextFolding.holds(folding($0)[...], needle) } }
        guard let near else { return kept.map(\.view) }
        let radius = radiusMeters ?? Self.defaultRadiusMeters
        return kept.enumerated()
            .compactMap { index, place -> (Int, Double, PlaceView)? in
                let meters = TrackAnalysis.haversine(near.latitude, near.longitude, place.view.place.latitude, place.view.place.longitude)
                guard meters <= radius else { return nil }
                var placed = place.view
                placed.distanceMeters = Int(meters.rounded())
                return (index, meters, placed)
            }
            .sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map(\.2)
    }
}
