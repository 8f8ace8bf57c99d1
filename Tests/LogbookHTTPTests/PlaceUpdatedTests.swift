import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// `place.updated`, the first event type added through its declaration alone: its route, rule,
/// folds and timeline line, driven over HTTP against a real store.
@Suite("Catalog place edits")
struct PlaceUpdatedTests {
    private static let place = #"{"placeId":"p1","name":"Zeit","category":"restaurant","subcategory":"misc","latitude":52.5,"longitude":13.4,"phone":"+49 30 1234"}"#

    @Test("an edit changes the fields it names, keeps the others, and null clears an optional one")
    func editsWhatItNames() async throws {
        try await withServer { server in
            try await register(server, "ana")
            #expect(try await server.call(.post, "/catalog/places", as: "op", admin: true, body: Self.place).status == .created)
            let edit = try await server.call(.patch, "/catalog/places/p1", as: "op", admin: true,
                                             body: #"{"name":"Zeit für Brot","priceLevel":2,"phone":null}"#)
            #expect(edit.status == .created, "\(edit.text)")
            let seen = try await server.call(.get, "/users/ana/places/p1", as: "ana")
            #expect(seen.status == .ok, "\(seen.text)")
            let place = seen.json["place"] as? [String: Any] ?? [:]
            #expect(place["name"] as? String == "Zeit für Brot")
            #expect(place["priceLevel"] as? Int == 2)
            #expect(place["phone"] == nil)
            #expect(place["category"] as? String == "restaurant")
            #expect(place["latitude"] as? Double == 52.5)
            #expect(try await server.call(.get, "/users/ana/places/deck", as: "ana").array.first
                .flatMap { ($0["place"] as? [String: Any])?["name"] as? String } == "Zeit für Brot")
            // A rebuild from the log folds the edit the same way.
            let before = try server.logbook.digests()
            try await server.logbook.rebuild()
            #expect(try server.logbook.digests() == before)
        }
    }

    @Test("an unknown place, an empty edit, an invalid value and a non-administrator are refused, writing nothing")
    func refusals() async throws {
        try await withServer { server in
            try await register(server, "ana")
            #expect(try await server.call(.post, "/catalog/places", as: "op", admin: true, body: Self.place).status == .created)
            let head = try await server.head()
            let unknown = try await server.call(.patch, "/catalog/places/p9", as: "op", admin: true, body: #"{"name":"X"}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.text.contains("unknown_place"), "\(unknown.text)")
            let empty = try await server.call(.patch, "/catalog/places/p1", as: "op", admin: true, body: "{}")
            #expect(empty.status == .unprocessableContent || empty.status == .badRequest, "\(empty.text)")
            let level = try await server.call(.patch, "/catalog/places/p1", as: "op", admin: true, body: #"{"priceLevel":9}"#)
            #expect(level.status == .unprocessableContent || level.status == .badRequest, "\(level.text)")
            #expect(level.text.contains("priceLevel"), "\(level.text)")
            let stranger = try await server.call(.patch, "/catalog/places/p1", as: "ana", body: #"{"name":"Mine"}"#)
            #expect(stranger.status == .forbidden)
            // Through the library: a catalog edit made for a user would carry them as its subject.
            await #expect(throws: LogbookError.self) {
                try await server.logbook.execute(Command(user: "ana", event: .placeUpdated(PlaceUpdated(placeId: "p1", name: "Mine"))),
                                                 context: CommandContext())
            }
            #expect(try await server.head() == head)
        }
    }

    @Test("the timeline names the place by its new name after the edit")
    func timelineFollowsRename() async throws {
        try await withServer { server in
            try await register(server, "ana")
            #expect(try await server.call(.post, "/catalog/places", as: "op", admin: true, body: Self.place).status == .created)
            #expect(try await server.call(.patch, "/catalog/places/p1", as: "op", admin: true, body: #"{"name":"Brotzeit"}"#).status == .created)
            #expect(try await server.call(.post, "/users/ana/places/p1/swipe", as: "ana", body: #"{"direction":"right"}"#).status == .created)
            let lines = try await server.call(.get, "/users/ana/timeline", as: "ana").json["entries"] as? [[String: Any]] ?? []
            #expect(lines.contains { ($0["description"] as? String)?.contains("Brotzeit") == true }, "\(lines)")
        }
    }
}
