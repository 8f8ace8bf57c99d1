package import EventLog
package import Logbook
import Foundation

/// A part of a request that is not what the route takes: what is wrong, and the field (query
/// parameter, header, body member) that is. The HTTP layer answers it as a 400 problem.
package struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence for the client.
    package var detail: String
    /// The part of the request that was wrong.
    package var field: String?

    /// An error saying `detail` about `field`.
    package init(_ detail: String, field: String? = nil) {
        self.detail = detail
        self.field = field
    }

    package var description: String { detail }
}

/// The texts of query parameters, headers and path segments read into domain values: the
/// parsers the routes call, on strings alone (the HTTP layer only finds the text).
package enum QueryValues {
    /// What a date in a query must be.
    package static let day = "a date (yyyy-mm-dd) of the years 0002 to 9998"

    /// A date in a query: `yyyy-mm-dd`, a real day, in the years 0002 to 9998 so that the weeks and
    /// windows answered around it stay within the years 0001 to 9999 that dates are written in.
    package static func date(_ text: String) -> CivilDate? {
        guard let date = CivilDate(parsing: text), (2...9998).contains(date.year) else { return nil }
        return date
    }

    /// A month in a query (`yyyy-mm`), as the date of its first day.
    package static func month(_ text: String) -> CivilDate? { date(text + "-01") }

    /// A places search's text: 1 to ``PlaceSearch/maxTextLength`` Unicode scalars.
    package static func searchText(_ text: String) -> String? {
        (1...PlaceSearch.maxTextLength).contains(text.unicodeScalars.count) ? text : nil
    }

    /// A places search's radius: finite metres from 1 to ``PlaceSearch/maxRadiusMeters``.
    package static func radius(_ text: String) -> Double? {
        Double(text).flatMap { $0.isFinite && (1...PlaceSearch.maxRadiusMeters).contains($0) ? $0 : nil }
    }

    /// A places search from its parts, each already read: a radius needs a point to measure from.
    package static func placeSearch(
        text: String?, near: (latitude: Double, longitude: Double)?, radius: Double?
    ) throws(InputError) -> PlaceSearch {
        if radius != nil, near == nil { throw InputError("radius needs near (a point to measure from)", field: "radius") }
        return PlaceSearch(text: text, near: near, radiusMeters: radius)
    }

    /// `lat,lon` in degrees within their ranges, each a plain decimal (`-?digits(.digits)?`, as
    /// the documented pattern says).
    package static func point(_ text: String) -> (latitude: Double, longitude: Double)? {
        func plainDecimal(_ part: Substring) -> Double? {
            let body = part.utf8.first == UInt8(ascii: "-") ? part.utf8.dropFirst() : part.utf8[...]
            let pieces = body.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
            guard !pieces.isEmpty, pieces.count <= 2, pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (48...57).contains($0) } }) else { return nil }
            return Double(part)
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = plainDecimal(parts[0]), let longitude = plainDecimal(parts[1]),
              (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    /// A log position, stream version or count written in a request: 1 to 19 ASCII digits, at
    /// most 2^63 − 1 (what every backend stores; PostgreSQL's bigint), no sign, no spaces.
    package static func decimalPosition(_ text: some StringProtocol) -> UInt64? {
        guard (1...19).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = UInt64(text), value <= UInt64(Int64.max) else { return nil }
        return value
    }

    /// `types`: comma-separated event types, each one the domain knows.
    package static func eventTypes(_ text: String) throws(InputError) -> Set<EventType> {
        var types = Set<EventType>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let type = EventType(rawValue: String(name)) else { throw InputError("unknown event type \"\(name)\"", field: "types") }
            types.insert(type)
        }
        return types
    }

    /// A page size between 1 and `maximum`.
    package static func limit(_ text: String, maximum: Int) -> Int? {
        Int(text).flatMap { (1...maximum).contains($0) ? $0 : nil }
    }

    /// `asOf`: a log position (`123` or `position:123`) or an RFC 3339 time.
    package static func asOf(_ text: String) throws(InputError) -> AsOf {
        let digits = text.hasPrefix("position:") ? String(text.dropFirst(9)) : text
        if let position = decimalPosition(digits) { return .position(Position(position)) }
        do {
            return .time(try Timestamp(parsing: text))
        } catch {
            throw InputError("asOf must be a log position or an RFC 3339 time, not \"\(text)\"", field: "asOf")
        }
    }

    /// `If-Match`: the stream version the client expects, as an entity tag (`"3"`, `W/"3"`) or a number.
    package static func expectedVersion(ifMatch: String) throws(InputError) -> UInt64 {
        var text = strongForm(ifMatch)
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard let version = decimalPosition(text) else {
            throw InputError("If-Match must be a stream version such as \"3\"", field: "If-Match")
        }
        return version
    }

    /// Whether `If-None-Match` field values name `tag` (quoted) or are `*`: a comma-separated list
    /// of entity tags compared weakly, as RFC 9110 §13.1.2 prescribes (`W/` ignored). A member
    /// that is no entity tag matches nothing.
    package static func noneMatch(_ fields: [String], names tag: String) -> Bool {
        fields.contains { field in
            // Split on the comma's byte, not on characters: a character that joins the one after
            // it (U+0603, a prepended mark) would swallow the comma and hide the next tag.
            field.utf8.split(separator: UInt8(ascii: ",")).contains { member in
                let candidate = strongForm(Substring(member))
                return candidate == "*" || candidate == tag
            }
        }
    }

    /// An entity tag without surrounding white space and without a weak tag's `W/`.
    private static func strongForm(_ text: some StringProtocol) -> String {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("W/") { trimmed.removeFirst(2) }
        return trimmed
    }

    /// A path parameter as the router gives it (raw), percent-decoded; ids (`user`, `workoutId`,
    /// `placeId`) are checked as the domain checks them, so a malformed one is refused on every route.
    package static func pathValue(_ raw: String, name: String) throws(InputError) -> String {
        // Most ids hold no escape: decode only those that do (this runs on every request).
        guard let value = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding : raw else {
            throw InputError("\(name) is not valid percent-encoded UTF-8", field: name)
        }
        if ["user", "workoutId", "placeId"].contains(name) {
            if let reason = IdRule.violation(value) { throw InputError("invalid \(name): \(reason)", field: name) }
        }
        return value
    }
}
