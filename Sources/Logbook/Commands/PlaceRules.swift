import EventLog

/// The rules of the catalog's edits (the commands decided through ``Command/record(user:_:)``).
extension Decider {
    /// `place.updated`: the place exists, something changes, and every changed field is valid
    /// by the rules a new place is held to (name and subcategory present, coordinates on the
    /// globe, price level 1–4, texts within their limits).
    mutating func updatePlace(_ e: PlaceUpdated, user: String?) throws -> Decision {
        // The catalog is no user's: an edit made for a user would be written with them as its
        // subject, and erasing them would erase the edit for everyone.
        guard user == nil else {
            throw LogbookError.invalidArgument(name: "user", reason: "a catalog place is edited for no user (Command(user: \"\", …))")
        }
        try knownPlace(e.placeId)
        let changes = [e.name != nil, e.category != nil, e.subcategory != nil, e.latitude != nil, e.longitude != nil,
                       e.address != .unchanged, e.phone != .unchanged, e.priceLevel != .unchanged, e.notes != .unchanged]
        guard changes.contains(true) else { throw LogbookError.invalidArgument(name: "body", reason: "names no field to change") }
        if let name = e.name { try Rules.text(name, "name", required: true) }
        if let subcategory = e.subcategory { try Rules.text(subcategory, "subcategory", required: true, limit: 64) }
        if let latitude = e.latitude, !(-90...90).contains(latitude) { throw rule(.placeInvalid, "latitude must be within ±90") }
        if let longitude = e.longitude, !(-180...180).contains(longitude) { throw rule(.placeInvalid, "longitude must be within ±180") }
        if case .set(let level) = e.priceLevel, !(1...4).contains(level) { throw rule(.placeInvalid, "priceLevel is 1 to 4 (got \(level))") }
        for (name, change) in [("address", e.address), ("phone", e.phone), ("notes", e.notes)] {
            if case .set(let text) = change { try Rules.text(text, name, limit: 1000) }
        }
        return Decision(events: [(.placeUpdated(e), now)])
    }
}
