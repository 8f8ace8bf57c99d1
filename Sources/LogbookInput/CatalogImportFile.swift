import Foundation
package import Logbook

/// A file of places for the catalog (`logbook catalog import FILE`, `POST /catalog/places/import`),
/// read into ``PlaceImportEntry`` values with where each came from. Two forms:
///
/// - **NDJSON**: one `place.added` object per line, read as strictly as `POST /catalog/places`
///   reads its body; blank lines are skipped, `\r\n` endings and a leading byte-order mark are
///   taken. A refusal names the line (and the column in it).
/// - **GeoJSON**: a `FeatureCollection` whose features are `Point`s (`[longitude, latitude]`, an
///   altitude ignored) with the place's other fields as `properties`; the place id is
///   `properties.placeId`, or else the feature's string `id`. Members of the collection other
///   than `type` and `features` are allowed (GeoJSON's foreign members); a feature's properties
///   are the place's fields and nothing else. A refusal names the feature (`feature 3`, counted
///   from 1).
///
/// Without a stated form, a body that is one JSON object of `"type": "FeatureCollection"` is
/// GeoJSON, any other single JSON object one place (as `POST /catalog/places` takes it, however
/// it is laid out over lines), anything else NDJSON. Limits: ``maxBytes`` and ``PlaceImportEntry/maxPlaces``.
/// Everything here is a function of the bytes, so the fuzz targets run exactly what the route runs.
package enum CatalogImportFile {
    /// The two forms a catalog file may take.
    package enum Format: String, Sendable, CaseIterable {
        case ndjson
        case geojson
    }

    /// The largest file an import takes.
    package static let maxBytes = 16 << 20

    /// The form a `Content-Type` names, nil for any other (then the bytes decide).
    package static func format(contentType: String?) -> Format? {
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        switch type {
        case "application/geo+json": return .geojson
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines": return .ndjson
        default: return nil
        }
    }

    /// The places of `bytes`, in the file's order, read as `format` (nil: as the bytes say).
    package static func read(_ bytes: [UInt8], format: Format? = nil) throws(InputError) -> (format: Format, places: [PlaceImportEntry]) {
        guard bytes.count <= maxBytes else {
            throw InputError("the file is \(bytes.count) bytes; an import takes at most \(maxBytes)", field: "body")
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let body = bytes[start...]
        let whole = format == nil ? jsonObject(body) : nil
        let chosen = format ?? (whole?["type"] as? String == "FeatureCollection" ? .geojson : .ndjson)
        let places: [PlaceImportEntry]
        if format == nil, chosen == .ndjson, whole != nil {
            // One JSON object, however it is laid out over lines: one place (`application/json`).
            places = [PlaceImportEntry(place: try place(Array(body), "line 1"), origin: "line 1")]
        } else if chosen == .ndjson {
            places = try ndjson(body)
        } else if let whole {
            places = try geojson(whole)
        } else {
            places = try geojson(try parsedObject(body))
        }
        guard !places.isEmpty else { throw InputError("the file holds no place", field: "body") }
        return (chosen, places)
    }

    // MARK: NDJSON

    private static func ndjson(_ bytes: ArraySlice<UInt8>) throws(InputError) -> [PlaceImportEntry] {
        var places: [PlaceImportEntry] = []
        var lineNumber = 0
        var start = bytes.startIndex
        // Line by line, without splitting the whole body first (a body of line feeds is millions of lines).
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            lineNumber += 1
            var line = bytes[start..<end]
            start = end < bytes.endIndex ? end + 1 : end
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard line.contains(where: { !Self.isJSONSpace($0) }) else { continue }
            let origin = "line \(lineNumber)"
            try checkCount(places.count, origin)
            places.append(PlaceImportEntry(place: try place(Array(line), origin), origin: origin))
        }
        return places
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    // MARK: GeoJSON

    /// The body as one JSON object, if that is what it is.
    private static func jsonObject(_ bytes: ArraySlice<UInt8>) -> [String: Any]? {
        guard bytes.first(where: { !isJSONSpace($0) }) == UInt8(ascii: "{") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    /// The body as one JSON object, or the parser's reason why not.
    private static func parsedObject(_ bytes: ArraySlice<UInt8>) throws(InputError) -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw InputError("the body is not JSON: \(reason)", field: "body")
        }
        guard let object = parsed as? [String: Any] else { throw InputError("the body is not a JSON object", field: "body") }
        return object
    }

    private static func geojson(_ collection: [String: Any]) throws(InputError) -> [PlaceImportEntry] {
        guard collection["type"] as? String == "FeatureCollection" else {
            throw InputError("the body is not a GeoJSON FeatureCollection (a JSON object with \"type\": \"FeatureCollection\")", field: "body")
        }
        guard let features = collection["features"] as? [Any] else {
            throw InputError("features: expected an array of features", field: "features")
        }
        var places: [PlaceImportEntry] = []
        for (index, value) in features.enumerated() {
            let origin = "feature \(index + 1)"
            try checkCount(places.count, origin)
            places.append(PlaceImportEntry(place: try place(feature: value, origin), origin: origin))
        }
        return places
    }

    /// A feature's place: its properties, its point as latitude and longitude, its id.
    private static func place(feature value: Any, _ origin: String) throws(InputError) -> PlaceAdded {
        func refuse(_ reason: String, _ member: String) -> InputError { InputError("\(origin): \(member): \(reason)", field: origin) }
        guard let feature = value as? [String: Any], feature["type"] as? String == "Feature" else {
            throw InputError("\(origin): expected an object with \"type\": \"Feature\"", field: origin)
        }
        if let unknown = feature.keys.filter({ !["type", "geometry", "properties", "id", "bbox"].contains($0) }).sorted().first {
            throw refuse("unknown member (a feature has type, geometry, properties, id and bbox)", unknown)
        }
        guard let geometry = feature["geometry"] as? [String: Any] else { throw refuse("expected a Point geometry", "geometry") }
        guard geometry["type"] as? String == "Point" else {
            throw refuse("a place is a Point, not \(geometry["type"].map { "\($0)" } ?? "nothing")", "geometry.type")
        }
        guard let coordinates = geometry["coordinates"] as? [Any], (2...3).contains(coordinates.count),
              coordinates.allSatisfy(isNumber) else {
            throw refuse("expected [longitude, latitude] in degrees (an altitude may follow)", "geometry.coordinates")
        }
        var properties: [String: Any]
        switch feature["properties"] {
        case let object as [String: Any]: properties = object
        case nil, is NSNull: properties = [:]
        default: throw refuse("expected an object of the place's fields", "properties")
        }
        for member in ["latitude", "longitude"] where properties[member] != nil {
            throw refuse("the place's coordinates are the geometry's", "properties.\(member)")
        }
        if properties["placeId"] == nil, let id = feature["id"] as? String { properties["placeId"] = id }
        // The numbers as parsed, written back as their own text: the strict decoder reads them
        // exactly as it reads an NDJSON line's (a conversion to Double here could differ in the last digit).
        properties["latitude"] = coordinates[1]
        properties["longitude"] = coordinates[0]
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: properties)
        } catch {
            throw refuse("not a JSON object", "properties")
        }
        return try place([UInt8](data), origin)
    }

    /// A finite JSON number, never a boolean (which Foundation also gives as an `NSNumber`:
    /// written back out, a boolean is `true` or `false`).
    private static func isNumber(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, number.doubleValue.isFinite,
              let written = try? JSONSerialization.data(withJSONObject: [number]),
              let first = written.dropFirst().first else { return false }
        return first != UInt8(ascii: "t") && first != UInt8(ascii: "f")
    }

    // MARK: Both

    /// A `place.added` object, decoded strictly; a refusal names `origin` and the field.
    private static func place(_ bytes: [UInt8], _ origin: String) throws(InputError) -> PlaceAdded {
        do {
            guard case .placeAdded(let place) = try JSONEventCodec.decode(.placeAdded, schemaVersion: EventType.placeAdded.currentSchemaVersion, bytes: bytes) else {
                throw InputError("\(origin): not a place", field: origin)
            }
            return place
        } catch let error as DomainCodingError {
            if case .invalidJSON(_, let path, let reason) = error {
                let field = path == "data" ? "" : path.hasPrefix("data.") ? String(path.dropFirst(5)) + ": " : path + ": "
                throw InputError("\(origin): \(field)\(reason)", field: origin)
            }
            throw InputError("\(origin): \(error)", field: origin)
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("\(origin): \(error)", field: origin)
        }
    }

    private static func checkCount(_ count: Int, _ origin: String) throws(InputError) {
        guard count < PlaceImportEntry.maxPlaces else {
            throw InputError("\(origin): an import holds at most \(PlaceImportEntry.maxPlaces) places", field: origin)
        }
    }
}
