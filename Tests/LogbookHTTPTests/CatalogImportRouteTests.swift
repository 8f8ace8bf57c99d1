import Foundation
import HTTPTypes
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// `POST /catalog/places/import` and `logbook catalog import`: the bulk catalog import over HTTP
/// and on the command line, against a real store and the built binary.
@Suite("Catalog import route and command")
struct CatalogImportRouteTests {
    static func line(_ id: String, _ name: String, latitude: Double = 52.5) -> String {
        #"{"placeId":"\#(id)","name":"\#(name)","category":"activity","subcategory":"climbing","latitude":\#(latitude),"longitude":13.4}"#
    }

    @Test("an administrator imports NDJSON and GeoJSON; a repeat answers 200 with nothing written; the deck shows the places")
    func imports() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let file = [Self.line("c1", "Boulderhalle"), Self.line("c2", "Kletterwald")].joined(separator: "\n") + "\n"
            let first = try await server.call(.post, "/catalog/places/import", as: "op", admin: true, body: file,
                                              headers: ["Content-Type": "application/x-ndjson"])
            #expect(first.status == .created, "\(first.text)")
            #expect(first.json["added"] as? Int == 2 && first.json["places"] as? Int == 2)
            let head = try await server.head()
            let again = try await server.call(.post, "/catalog/places/import", as: "op", admin: true, body: file,
                                              headers: ["Content-Type": "application/x-ndjson"])
            #expect(again.status == .ok && again.json["unchanged"] as? Int == 2, "\(again.text)")
            #expect(try await server.head() == head)

            let geojson = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"c3","geometry":{"type":"Point","coordinates":[13.41,52.52]},"properties":{"name":"Wand","category":"activity","subcategory":"climbing"}}]}"#
            let geo = try await server.call(.post, "/catalog/places/import", as: "op", admin: true, body: geojson,
                                            headers: ["Content-Type": "application/geo+json"])
            #expect(geo.status == .created && geo.json["added"] as? Int == 1, "\(geo.text)")
            let deck = try await server.call(.get, "/users/ana/places/deck", as: "ana").array
            #expect(deck.compactMap { ($0["place"] as? [String: Any])?["placeId"] as? String } == ["c1", "c2", "c3"])
        }
    }

    @Test("with an Idempotency-Key, a retry answers the original report byte for byte; the key with another file is refused")
    func idempotencyKey() async throws {
        try await withServer { server in
            let file = Self.line("c1", "Boulderhalle")
            let headers = ["Content-Type": "application/x-ndjson", "Idempotency-Key": "import-1"]
            let first = try await server.call(.post, "/catalog/places/import", as: "op", admin: true, body: file, headers: headers)
            #expect(first.status == .created && first.json["added"] as? Int == 1, "\(first.text)")
            let retry = try await server.call(.post, "/catalog/places/import", as: "op", admin: true, body: file, headers: headers)
            #expect(retry.status == .created && retry.text == first.text, "\(retry.text)")
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(retry.headers[HTTPField.Name("X-Logbook-Position")!] == first.headers[HTTPField.Name("X-Logbook-Position")!])
            let other = try await server.call(.post, "/catalog/places/import", as: "op", admin: true, body: Self.line("c2", "Wald"), headers: headers)
            #expect(other.status == .unprocessableContent && other.text.contains("Idempotency-Key"), "\(other.text)")
            // The same bytes named as another form are another request.
            let geo = try await server.call(.post, "/catalog/places/import", as: "op", admin: true, body: file,
                                            headers: ["Content-Type": "application/geo+json", "Idempotency-Key": "import-1"])
            #expect(geo.status == .unprocessableContent && geo.text.contains("Idempotency-Key"), "\(geo.text)")
        }
    }

    @Test("a bad line is 400 naming it, a broken rule 422 naming it, a non-administrator 403; nothing is written")
    func refusals() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let head = try await server.head()
            let unreadable = try await server.call(.post, "/catalog/places/import", as: "op", admin: true,
                                                   body: Self.line("c1", "A") + "\n{\"placeId\":\n", headers: ["Content-Type": "application/x-ndjson"])
            #expect(unreadable.status == .badRequest && unreadable.text.contains("line 2"), "\(unreadable.text)")
            let rule = try await server.call(.post, "/catalog/places/import", as: "op", admin: true,
                                             body: Self.line("c1", "A", latitude: -95), headers: ["Content-Type": "application/x-ndjson"])
            #expect(rule.status == .unprocessableContent && rule.text.contains("place_invalid") && rule.text.contains("line 1"), "\(rule.text)")
            let stranger = try await server.call(.post, "/catalog/places/import", as: "ana", body: Self.line("c1", "A"),
                                                 headers: ["Content-Type": "application/x-ndjson"])
            #expect(stranger.status == .forbidden)
            #expect(try await server.head() == head)
        }
    }

    @Test("logbook catalog import: the report, a repeat that writes nothing, and a refusal naming the file's line")
    func command() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory + "/places.ndjson"
            try ([Self.line("c1", "A"), Self.line("c2", "B")].joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let (status, output) = try await runLogbook(["catalog", "import", "--path", directory + "/data", file, "--json"], includeErrors: true)
            #expect(status == 0, "\(output)")
            #expect(output.contains(#""added":2"#), "\(output)")
            let (_, again) = try await runLogbook(["catalog", "import", "--path", directory + "/data", file], includeErrors: true)
            #expect(again.contains("2 places: 0 added, 0 updated, 2 unchanged"), "\(again)")

            let bad = directory + "/bad.ndjson"
            try (Self.line("c3", "C") + "\n" + Self.line("c4", "D", latitude: 100) + "\n").write(toFile: bad, atomically: true, encoding: .utf8)
            let (refused, message) = try await runLogbook(["catalog", "import", "--path", directory + "/data", bad], includeErrors: true)
            #expect(refused != 0 && message.contains("line 2"), "\(message)")
            let (_, inspect) = try await runLogbook(["inspect", "--path", directory + "/data", "--json"], includeErrors: true)
            #expect(inspect.contains("\"headPosition\":2"), "\(inspect)")
        }
    }
}
