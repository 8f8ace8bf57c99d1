import EventLog

/// One place of a catalog import (`logbook catalog import`, `POST /catalog/places/import`): the
/// place as the file gives it, and where in the file it was (`line 12`, `feature 3`), which every
/// refusal names.
public struct PlaceImportEntry: Sendable, Hashable {
    public var place: PlaceAdded
    /// Where the place is in the file, as a refusal names it.
    public var origin: String

    public init(place: PlaceAdded, origin: String) {
        self.place = place
        self.origin = origin
    }

    /// The most places one import may hold: their events go to the log in one commit.
    public static let maxPlaces = 10_000
}

/// The rules of a catalog import (``Command/importPlaces(_:)``).
extension Decider {
    /// The whole file or nothing: every place valid by the rules of a new place, no place id
    /// twice in the file; then each place absent from the catalog is `place.added`, each that
    /// differs from the catalog's is `place.updated` with exactly the fields that differ (an
    /// optional field the file leaves out is cleared), and each equal one writes nothing, so the
    /// same file imported again writes nothing. Events follow the file's order.
    mutating func importPlaces(_ entries: [PlaceImportEntry]) throws -> Decision {
        guard !entries.isEmpty else { throw LogbookError.invalidArgument(name: "body", reason: "holds no place") }
        guard entries.count <= PlaceImportEntry.maxPlaces else {
            throw LogbookError.invalidArgument(
                name: "body", reason: "holds \(entries.count) places; an import holds at most \(PlaceImportEntry.maxPlaces)")
        }
        // Ids are compared as bytes: two spellings of one name are two places.
        var firstOrigin: [[UInt8]: String] = [:]
        var events: [(DomainEvent, occurredAt: Timestamp)] = []
        for entry in entries {
            let place = entry.place
            try located(entry.origin) { () throws(LogbookError) in try Rules.place(place) }
            if let earlier = firstOrigin.updateValue(entry.origin, forKey: Array(place.placeId.utf8)) {
                throw LogbookError.invalidArgument(name: "\(entry.origin): placeId", reason: "\(place.placeId) is also on \(earlier)")
            }
            guard let current = try state.catalogPlace(place.placeId) else {
                events.append((.placeAdded(place), now))
                continue
            }
            if let change = Self.change(from: current, to: place) { events.append((.placeUpdated(change), now)) }
        }
        return Decision(events: events)
    }

    /// The `place.updated` that turns `current` into `wanted`, or nil when they are equal.
    static func change(from current: PlaceAdded, to wanted: PlaceAdded) -> PlaceUpdated? {
        guard current != wanted else { return nil }
        func optional<Value>(_ old: Value?, _ new: Value?) -> OptionalChange<Value> {
            old == new ? .unchanged : new.map { .set($0) } ?? .clear
        }
        return PlaceUpdated(
            placeId: wanted.placeId, name: current.name == wanted.name ? nil : wanted.name,
            category: current.category == wanted.category ? nil : wanted.category,
            subcategory: current.subcategory == wanted.subcategory ? nil : wanted.subcategory,
            latitude: current.latitude == wanted.latitude ? nil : wanted.latitude,
            longitude: current.longitude == wanted.longitude ? nil : wanted.longitude,
            address: optional(current.address, wanted.address), phone: optional(current.phone, wanted.phone),
            priceLevel: optional(current.priceLevel, wanted.priceLevel), notes: optional(current.notes, wanted.notes))
    }

    /// Runs `check`, its refusal naming `origin` (where in the file the place was).
    private func located(_ origin: String, _ check: () throws(LogbookError) -> Void) throws(LogbookError) {
        do {
            try check()
        } catch {
            switch error.code {
            case .ruleViolation:
                guard let rule = error.rule else { throw error }
                throw .ruleViolation(rule: rule, message: "\(origin): \(error.message)")
            case .invalidArgument: throw .invalidArgument(name: "\(origin): \(error.field ?? "place")", reason: error.message)
            default: throw error
            }
        }
    }
}
