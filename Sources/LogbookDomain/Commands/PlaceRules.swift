import EventLog

/// The rules of the catalog's edits (the commands decided through ``Command/record(user:_:)``).
extension Decider {
    /// `place.updated`: the place exists, something changes, and every changed field is valid
    /// by the rules a new place is held to (``Rules/placeFields(name:subcategory:latitude:longitude:priceLevel:texts:)``).
    mutating func updatePlace(_ e: PlaceUpdated, user: String?) throws -> Decision {
        try knownPlace(e.placeId)
        let changes = [e.name != nil, e.category != nil, e.subcategory != nil, e.latitude != nil, e.longitude != nil,
                       e.address != .unchanged, e.phone != .unchanged, e.priceLevel != .unchanged, e.notes != .unchanged]
        guard changes.contains(true) else { throw LogbookError.invalidArgument(name: "body", reason: "names no field to change") }
        try Rules.placeFields(name: e.name, subcategory: e.subcategory, latitude: e.latitude, longitude: e.longitude,
                              priceLevel: e.priceLevel.newValue,
                              texts: [("address", e.address.newValue), ("phone", e.phone.newValue), ("notes", e.notes.newValue)])
        return Decision(events: [(.placeUpdated(e), now)])
    }
}
