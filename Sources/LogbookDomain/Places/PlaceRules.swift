import EventLog

/// The rules of the shared catalog and of each user's deck.
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

    /// `place.added`: a valid place whose id the catalog does not hold yet.
    mutating func addPlace(_ e: PlaceAdded, user: String?) throws -> Decision {
        try Rules.place(e)
        guard try !state.placeExists(e.placeId) else { throw rule(.placeExists, "place \(e.placeId) is already in the catalog") }
        return Decision(events: [(.placeAdded(e), now)])
    }

    /// `place.swiped`: a registered user, a place of the catalog.
    mutating func swipePlace(_ e: PlaceSwiped, user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        try knownPlace(e.placeId)
        return Decision(events: [(.placeSwiped(e), Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }

    /// `place.visited`: a registered user, a place of the catalog; it occurs when it was visited.
    mutating func visitPlace(_ e: PlaceVisited, user: String?) throws -> Decision {
        let user = user ?? ""
        _ = try registered(user)
        try knownPlace(e.placeId)
        return Decision(events: [(.placeVisited(e), e.visitedAt)])
    }

    /// `place.notes_edited`: a registered user, a place of the catalog, notes within their limit.
    mutating func editPlaceNotes(_ e: PlaceNotesEdited, user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        try knownPlace(e.placeId)
        try Rules.text(e.notes, "notes", limit: 4000)
        return Decision(events: [(.placeNotesEdited(e), Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }

    /// `places.reset`: a registered user; every place goes back in the deck.
    mutating func resetPlaces(user: String?) throws -> Decision {
        let user = user ?? ""
        let profile = try registered(user)
        return Decision(events: [(.placesReset, Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }

    /// `place.rated`: a registered user, a place of the catalog, 1 to 5 stars.
    mutating func ratePlace(_ e: PlaceRated, user: String?) throws -> Decision {
        let profile = try registered(user ?? "")
        try knownPlace(e.placeId)
        guard (1...5).contains(e.stars) else { throw LogbookError.invalidArgument(name: "stars", reason: "is \(e.stars), not 1 to 5") }
        return Decision(events: [(.placeRated(e), Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }

    /// `place.rating_cleared`: a registered user, a place of the catalog (rated or not: afterwards it is unrated either way).
    mutating func clearPlaceRating(_ e: PlaceRatingCleared, user: String?) throws -> Decision {
        let profile = try registered(user ?? "")
        try knownPlace(e.placeId)
        return Decision(events: [(.placeRatingCleared(e), Rules.local(now, try Rules.timeZone(profile.timeZone)))])
    }
}
