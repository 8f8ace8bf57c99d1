import EventLog
import Foundation
@testable import Logbook
import LogbookInput
import LogbookTestSupport
import Testing

/// Catalog imports: NDJSON and GeoJSON files read with every refusal naming its line or feature,
/// decided all or nothing, idempotent by place id, in one commit, on a real store.
@Suite("Catalog import: NDJSON and GeoJSON, all or nothing, idempotent by place id")
struct CatalogImportTests {
    static let now = "2026-11-20T08:00:00+01:00"

    static func line(_ id: String, _ name: String, latitude: Double = 52.52, address: String? = nil, extra: String = "") -> String {
        let addressMember = address.map { #","address":"\#($0)""# } ?? ""
        return #"{"placeId":"\#(id)","name":"\#(name)","category":"restaurant","subcategory":"cafe","latitude":\#(latitude),"longitude":13.4\#(addressMember)\#(extra)}"#
    }

    static func read(_ text: String, _ format: CatalogImportFile.Format? = nil) throws -> [PlaceImportEntry] {
        try CatalogImportFile.read(Array(text.utf8), format: format).places
    }

    static func head(_ logbook: Logbook) async throws -> UInt64 { try await logbook.log.headPosition().rawValue }

    @Test("new places are added, changed ones updated with the fields that differ, equal ones left; the same file again writes nothing")
    func addUpdateAndRepeat() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
            let first = "\u{FEFF}" + [Self.line("p1", "Café Uno", address: "Alexanderplatz 1"), "", Self.line("p2", "Zwei"), Self.line("p3", "Drei")]
                .joined(separator: "\r\n") + "\n"
            let report = try await logbook.importPlaces(try Self.read(first), context: when(Self.now))
            #expect(report.places == 3 && report.added == 3 && report.updated == 0 && report.unchanged == 0 && !report.result.alreadyApplied)
            #expect(report.result.lastPosition - report.result.firstPosition == 2)
            #expect(try await logbook.placesDeck(user: "u1").map(\.place.placeId) == ["p1", "p2", "p3"])

            let head = try await Self.head(logbook)
            let again = try await logbook.importPlaces(try Self.read(first), context: when(Self.now))
            #expect(again.result.alreadyApplied && again.added == 0 && again.updated == 0 && again.unchanged == 3)
            #expect(try await Self.head(logbook) == head)

            // p1 renamed with its address left out (cleared), p3 as it was, p4 new.
            let second = [Self.line("p1", "Café Eins"), Self.line("p3", "Drei"), Self.line("p4", "Vier", latitude: 52.5)].joined(separator: "\n")
            let changed = try await logbook.importPlaces(try Self.read(second), context: when(Self.now))
            #expect(changed.places == 3 && changed.added == 1 && changed.updated == 1 && changed.unchanged == 1)
            let events = try await logbook.log.readAll(from: Position(rawValue: head + 1), direction: .forward, limit: 10, filter: EventFilter())
            #expect(events.events.map(\.envelope.type) == ["place.updated", "place.added"])
            // The update names exactly what differs: the new name, the address cleared, nothing else.
            let update = try #require(events.events.first)
            let decoded = try BinaryEventCodec.decode(.placeUpdated, schemaVersion: update.envelope.schemaVersion, payload: update.payload.span)
            #expect(decoded == .placeUpdated(PlaceUpdated(placeId: "p1", name: "Café Eins", address: .clear)))
            let p1 = try await logbook.place(user: "u1", placeId: "p1").place
            #expect(p1.name == "Café Eins" && p1.address == nil && p1.subcategory == "cafe")
            #expect(try await logbook.placesDeck(user: "u1").map(\.place.placeId) == ["p1", "p2", "p3", "p4"])
            #expect(try await logbook.verify().allSatisfy(\.matches))
        }
    }

    @Test("a retry with the same event id answers what the first import wrote")
    func retryAnswersTheOriginal() async throws {
        try await withLogbook { logbook, _ in
            let id = UUID()
            let places = try Self.read([Self.line("p1", "Eins"), Self.line("p2", "Zwei")].joined(separator: "\n"))
            let first = try await logbook.importPlaces(places, context: when(Self.now, id: id))
            let retry = try await logbook.importPlaces(places, context: when(Self.now, id: id))
            #expect(first.added == 2 && !first.result.alreadyApplied)
            #expect(retry.added == 2 && retry.result.alreadyApplied && retry.result.lastPosition == first.result.lastPosition)
        }
    }

    @Test("a refusal names the line, and nothing is written")
    func refusalsNameTheLine() async throws {
        try await withLogbook { logbook, _ in
            _ = try await logbook.importPlaces(try Self.read(Self.line("p0", "Null")), context: when(Self.now))
            let head = try await Self.head(logbook)

            // Unreadable: the line and the field.
            let malformed = [Self.line("p1", "Eins"), "", #"{"placeId":"p2","name":7}"#].joined(separator: "\n")
            #expect { try Self.read(malformed) } throws: { ($0 as? InputError)?.detail.hasPrefix("line 3: name:") == true }
            #expect { try Self.read(Self.line("p1", "Eins", extra: #","stars":5"#)) } throws: {
                ($0 as? InputError).map { $0.detail.hasPrefix("line 1: ") && $0.detail.contains("stars") } == true
            }
            #expect { try Self.read("\n \n") } throws: { ($0 as? InputError)?.detail == "the file holds no place" }

            // A rule broken on line 2: the rule, the line, nothing written (line 1 was valid).
            let outside = try Self.read([Self.line("p1", "Eins"), Self.line("p2", "Zwei", latitude: 91)].joined(separator: "\n"))
            await #expect { try await logbook.importPlaces(outside, context: when(Self.now)) } throws: { error in
                guard let error = error as? LogbookError else { return false }
                return error.rule == .placeInvalid && error.message.hasPrefix("line 2: latitude")
            }
            // The same id twice: both lines named.
            let twice = try Self.read([Self.line("p1", "Eins"), Self.line("p2", "Zwei"), Self.line("p1", "Eins bis")].joined(separator: "\n"))
            await #expect { try await logbook.importPlaces(twice, context: when(Self.now)) } throws: { error in
                guard let error = error as? LogbookError else { return false }
                return error.field == "line 3: placeId" && error.message == "p1 is also on line 1"
            }
            #expect(try await Self.head(logbook) == head)
        }
    }

    @Test("an id not in NFC is refused by its line, and nothing is written")
    func idsMustBeNFC() async throws {
        try await withLogbook { logbook, _ in
            let nfd = try Self.read([Self.line("caf\u{E9}", "A"), Self.line("cafe\u{301}", "C")].joined(separator: "\n"))
            await #expect { try await logbook.importPlaces(nfd, context: when(Self.now)) } throws: {
                ($0 as? LogbookError)?.field == "line 2: placeId"
            }
            #expect(try await Self.head(logbook) == 0)
        }
    }

    @Test("a pinned catalog version is held even when nothing is to change")
    func pinnedVersion() async throws {
        try await withLogbook { logbook, _ in
            let places = try Self.read(Self.line("p1", "Eins"))
            let first = try await logbook.importPlaces(places, context: when(Self.now))
            var stale = when(Self.now)
            stale.expectedVersion = first.result.streamVersion + 1
            await #expect { try await logbook.importPlaces(places, context: stale) } throws: {
                ($0 as? LogbookError)?.code == .versionConflict
            }
            var current = when(Self.now)
            current.expectedVersion = first.result.streamVersion
            #expect(try await logbook.importPlaces(places, context: current).result.alreadyApplied)
        }
    }

    @Test("GeoJSON: points with the place's fields as properties, the id from properties or the feature; refusals name the feature")
    func geojson() async throws {
        let collection = #"""
            {"type": "FeatureCollection", "name": "Berlin", "bbox": [13, 52, 14, 53],
             "features": [
               {"type": "Feature", "id": "p1", "geometry": {"type": "Point", "coordinates": [13.4132, 52.5219, 34.5]},
                "properties": {"name": "Alex", "category": "restaurant", "subcategory": "burger", "priceLevel": 2}},
               {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.3889, 52.517]},
                "properties": {"placeId": "p2", "name": "Einstein", "category": "restaurant", "subcategory": "cafe"}}
             ]}
            """#
        let places = try Self.read(collection)
        #expect(places.map(\.origin) == ["feature 1", "feature 2"])
        #expect(places[0].place == PlaceAdded(placeId: "p1", name: "Alex", category: .restaurant, subcategory: "burger",
                                               latitude: 52.5219, longitude: 13.4132, priceLevel: 2))
        #expect(places[1].place.placeId == "p2" && places[1].place.latitude == 52.517)
        #expect(try CatalogImportFile.read(Array(collection.utf8)).format == .geojson)
        // Coordinates are read from their text as an NDJSON line's are, to the last digit.
        let precise = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"p1","geometry":{"type":"Point","coordinates":[-122.41941550000001,52.520008000000004]},"properties":{"name":"n","category":"activity","subcategory":"s"}}]}"#
        let point = try #require(try Self.read(precise).first?.place)
        #expect(point.longitude == Double("-122.41941550000001") && point.latitude == Double("52.520008000000004"))
        let line = #"{"placeId":"p1","name":"n","category":"activity","subcategory":"s","latitude":52.520008000000004,"longitude":-122.41941550000001}"#
        #expect(try Self.read(line).first?.place == point)
        // One JSON object laid out over lines is one place (a JSON body); named NDJSON, its lines are read one by one.
        let pretty = Self.line("p9", "Neun").replacingOccurrences(of: ",", with: ",\n  ")
        #expect(try Self.read(pretty).map(\.place.placeId) == ["p9"])
        #expect { try Self.read(pretty, .ndjson) } throws: { ($0 as? InputError)?.detail.hasPrefix("line 1: ") == true }

        func refused(_ feature: String, _ text: String) -> Bool {
            do {
                _ = try Self.read(#"{"type":"FeatureCollection","features":[\#(feature)]}"#)
                return false
            } catch {
                return (error as? InputError)?.detail.hasPrefix(text) == true
            }
        }
        let properties = #""properties":{"placeId":"p","name":"n","category":"activity","subcategory":"s"}"#
        #expect(refused(#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},\#(properties)}"#,
                        "feature 1: geometry.type: a place is a Point, not LineString"))
        #expect(refused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[true,1]},\#(properties)}"#,
                        "feature 1: geometry.coordinates"))
        #expect(refused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]},\#(properties)}"#, "feature 1: geometry.coordinates"))
        #expect(refused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,"high"]},\#(properties)}"#, "feature 1: geometry.coordinates"))
        #expect(refused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"placeId":"p","latitude":2}}"#,
                        "feature 1: properties.latitude"))
        #expect(refused(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"n"}}"#, "feature 1: "))
        #expect(refused(#"{"type":"Feature","style":1,"geometry":{"type":"Point","coordinates":[1,2]},\#(properties)}"#, "feature 1: style"))
        #expect(refused(#"[]"#, "feature 1: expected an object"))
        // NDJSON named as GeoJSON is refused whole, with the parser's reason.
        #expect { try Self.read(Self.line("p1", "Eins") + "\n" + Self.line("p2", "Zwei"), .geojson) } throws: {
            ($0 as? InputError).map { $0.field == "body" && $0.detail.hasPrefix("the body is not JSON: ") } == true
        }
        #expect { try Self.read(Self.line("p1", "Eins"), .geojson) } throws: {
            ($0 as? InputError)?.detail.hasPrefix("the body is not a GeoJSON FeatureCollection") == true
        }
    }

    @Test("10,000 places in one import, one commit, in file order; the 10,001st is refused by its line")
    func largestImport() async throws {
        try await withLogbook { logbook, _ in
            try await logbook.execute(.registerUser(user: "u1", UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin")), context: when(Self.now))
            let lines = (0..<PlaceImportEntry.maxPlaces).map { Self.line(String(format: "p%05d", $0), "Place \($0)", latitude: Double($0 % 90)) }
            let id = UUID()
            let places = try Self.read(lines.joined(separator: "\n"))
            let report = try await logbook.importPlaces(places, context: when(Self.now, id: id))
            #expect(report.added == PlaceImportEntry.maxPlaces)
            // A retry by event id finds every event the import wrote (read back over several pages).
            let retry = try await logbook.importPlaces(places, context: when(Self.now, id: id))
            #expect(retry.result.alreadyApplied && retry.added == PlaceImportEntry.maxPlaces && retry.result == CommandResult(
                stream: report.result.stream, firstPosition: report.result.firstPosition, lastPosition: report.result.lastPosition,
                streamVersion: report.result.streamVersion, alreadyApplied: true, workoutId: nil))
            #expect(report.result.lastPosition - report.result.firstPosition == UInt64(PlaceImportEntry.maxPlaces - 1))
            // Catalog order is file order: the first place heads every deck, the last is the 10,000th.
            #expect(try await logbook.placesDeck(user: "u1", limit: 1).map(\.place.placeId) == ["p00000"])
            #expect(try await logbook.place(user: "u1", placeId: "p09999").place.name == "Place 9999")

            let tooMany = (lines + [Self.line("extra", "Extra")]).joined(separator: "\n")
            #expect { try Self.read(tooMany) } throws: { ($0 as? InputError)?.detail.hasPrefix("line 10001: an import holds at most 10000") == true }
        }
    }
}
