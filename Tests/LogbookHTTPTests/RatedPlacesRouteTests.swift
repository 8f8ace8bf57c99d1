import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Ratings over HTTP: `PUT` and `DELETE /users/{user}/places/{placeId}/rating` and the rated list
/// `GET /users/{user}/places/rated`, paged by limit and cursor, with its entity tag moved by a
/// rating or a catalog edit and not by a swipe.
@Suite("Rated places over HTTP")
struct RatedPlacesRouteTests {
    private static func place(_ id: String) -> String {
        #"{"placeId":"\#(id)","name":"Place \#(id)","category":"restaurant","subcategory":"misc","latitude":52.5,"longitude":13.4}"#
    }

    @Test("rate, page, clear: the list follows, its tag holds through a swipe and moves with a rating and a rename")
    func rateAndPage() async throws {
        try await withServer { server in
            try await register(server, "ana")
            for id in ["p1", "p2"] {
                #expect(try await server.call(.post, "/catalog/places", as: "op", admin: true, body: Self.place(id)).status == .created)
            }
            #expect(try await server.call(.put, "/users/ana/places/p1/rating", as: "ana", body: #"{"stars":4}"#).status == .created)
            #expect(try await server.call(.put, "/users/ana/places/p2/rating", as: "ana", body: #"{"stars":5}"#).status == .created)

            let first = try await server.call(.get, "/users/ana/places/rated?limit=1", as: "ana")
            #expect(first.status == .ok, "\(first.text)")
            #expect((first.json["places"] as? [[String: Any]])?.compactMap { $0["placeId"] as? String } == ["p2"])
            #expect(first.json["counts"] as? [Int] == [0, 0, 0, 1, 1])
            let cursor = try #require(first.json["nextCursor"] as? String)
            let second = try await server.call(.get, "/users/ana/places/rated?limit=1&cursor=\(cursor)", as: "ana")
            #expect((second.json["places"] as? [[String: Any]])?.compactMap { $0["placeId"] as? String } == ["p1"], "\(second.text)")
            #expect(second.json["nextCursor"] == nil)

            let all = try await server.call(.get, "/users/ana/places/rated", as: "ana")
            let tag = try #require(all.headers[.eTag])
            #expect(try await server.call(.post, "/users/ana/places/p1/swipe", as: "ana", body: #"{"direction":"right"}"#).status == .created)
            #expect(try await server.call(.get, "/users/ana/places/rated", as: "ana", headers: ["If-None-Match": tag]).status == .notModified,
                    "a swipe changes no rating")
            #expect(try await server.call(.patch, "/catalog/places/p1", as: "op", admin: true, body: #"{"name":"Brotzeit"}"#).status == .created)
            let renamed = try await server.call(.get, "/users/ana/places/rated", as: "ana", headers: ["If-None-Match": tag])
            #expect(renamed.status == .ok, "a rename changes the list")
            #expect((renamed.json["places"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Place p2", "Brotzeit"])

            #expect(try await server.call(.delete, "/users/ana/places/p2/rating", as: "ana").status == .created)
            let cleared = try await server.call(.get, "/users/ana/places/rated", as: "ana")
            #expect((cleared.json["places"] as? [[String: Any]])?.compactMap { $0["placeId"] as? String } == ["p1"], "\(cleared.text)")
            #expect(cleared.json["counts"] as? [Int] == [0, 0, 0, 1, 0])
            let seen = try await server.call(.get, "/users/ana/places/p2", as: "ana")
            #expect(seen.status == .ok && seen.json["rating"] == nil, "\(seen.text)")
        }
    }

    @Test("a bad limit or cursor is a 400 naming it, another user's list a 403, an unknown place's rating a 422; nothing is written")
    func refusals() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            #expect(try await server.call(.post, "/catalog/places", as: "op", admin: true, body: Self.place("p1")).status == .created)
            let head = try await server.head()
            for (query, name) in [("limit=0", "limit"), ("limit=501", "limit"), ("cursor=9:p1", "cursor"), ("cursor=", "cursor")] {
                let refused = try await server.call(.get, "/users/ana/places/rated?\(query)", as: "ana")
                #expect(refused.status == .badRequest && refused.text.contains(name), "\(query): \(refused.status) \(refused.text)")
            }
            #expect(try await server.call(.get, "/users/ana/places/rated", as: "bob").status == .forbidden)
            let unknown = try await server.call(.delete, "/users/ana/places/p9/rating", as: "ana")
            #expect(unknown.status == .unprocessableContent && unknown.text.contains("unknown_place"), "\(unknown.text)")
            #expect(try await server.head() == head)
        }
    }
}
