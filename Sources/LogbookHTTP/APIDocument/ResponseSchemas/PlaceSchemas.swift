// The JSON schemas of place answers: a catalog place as one user sees it, and the catalog entry itself.
package import Logbook

extension PlaceView: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A catalog place as one user sees it", required: [
            "place": .reference(PlaceAdded.self, "The catalog's entry for the place"),
            "status": .enumeration(
                "Where the place stands for the user: not_seen (in the deck), interested (swiped right: saved), not_interested (swiped left: hidden) or visited",
                PlaceStatus.self),
            "visitCount": .count("How many times the user visited the place"),
        ], optional: [
            "lastVisit": .dateTime("When the user last visited the place"),
            "lastVisitDate": .date("Local date of the last visit, in its own offset"),
            "userNotes": .string("The user's own notes on the place, whatever its status"),
            "distanceMeters": .count("Metres from the point a search named (near), rounded; absent without one"),
            "rating": .integer("The user's rating, 1 to 5 stars; absent when not rated", minimum: 1, maximum: 5),
        ])
    }
}

extension PlaceAdded: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A place of the shared catalog, as it was added", required: [
            "placeId": .string("The place's id"),
            "name": .string("The place's name"),
            "category": .enumeration("The kind of place", PlaceCategory.self),
            "subcategory": .string("Finer kind within the category, e.g. italian or climbing"),
            "latitude": .number("WGS84 latitude, in degrees (commands take -90 to 90)"),
            "longitude": .number("WGS84 longitude, in degrees (commands take -180 to 180)"),
        ], optional: [
            "address": .string("Street address"),
            "phone": .string("Telephone number"),
            "priceLevel": .integer("How expensive the place is, from 1 (cheap) to 4 (dear), as commands take it"),
            "notes": .string("The catalog's notes on the place"),
        ])
    }
}

extension CatalogImportReport: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("What a catalog import did: the file's places, added, changed or already as the file gives them", required: [
            "places": .count("Places in the file"),
            "added": .count("Places new to the catalog (place.added)"),
            "updated": .count("Places whose catalog entry changed (place.updated, with the fields that differ)"),
            "unchanged": .count("Places the catalog already held as the file gives them: nothing written for them"),
            "result": .reference(CommandResult.self, "The command's result: the positions written, alreadyApplied when nothing was"),
        ])
    }
}

extension RatedPlaces: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("A page of the places a user rated, best first: more stars first, among equal stars by place id", required: [
            "user": .string("The user the ratings are of"),
            "counts": .array("How many places the user rated with 1, 2, 3, 4 and 5 stars, in that order", of: .count("Places"),
                             maxItems: RatedPlaces.starRange.count),
            "places": .array("The page's rated places, best first", of: .reference(RatedPlace.self)),
        ], optional: [
            "nextCursor": .string("The cursor of the next page (absent on the last)"),
        ])
    }
}

extension RatedPlace: DocumentedSchema {
    package static var schema: JSONSchema {
        .object("One place a user rated", required: [
            "placeId": .string("The place's id"),
            "name": .string("The place's name in the catalog as it stands"),
            "category": .enumeration("The kind of place", PlaceCategory.self),
            "stars": .integer("The user's rating", minimum: 1, maximum: 5),
        ])
    }
}
