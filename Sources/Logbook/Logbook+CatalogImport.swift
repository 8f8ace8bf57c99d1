import EventLog

/// What a catalog import did: how many places the file held, how many were added, changed and
/// already as the file gives them, and the command's result (positions of the events written;
/// `alreadyApplied` when nothing was).
public struct CatalogImportReport: Sendable, Hashable, Codable {
    /// Places in the file.
    public var places: Int
    /// Places new to the catalog (`place.added`).
    public var added: Int
    /// Places whose catalog entry changed (`place.updated`).
    public var updated: Int
    /// Places the catalog already held as the file gives them: nothing written for them.
    public var unchanged: Int
    public var result: CommandResult

    /// The report of an import of `places` places whose command appended events of
    /// `appendedTypes` with `result` (as ``Logbook/importPlaces(_:context:)`` counts them).
    public init(places: Int, appendedTypes: [String], result: CommandResult) {
        let added = appendedTypes.count { $0 == EventType.placeAdded.rawValue }
        let updated = appendedTypes.count { $0 == EventType.placeUpdated.rawValue }
        self.init(places: places, added: added, updated: updated, unchanged: max(0, places - added - updated), result: result)
    }

    /// A report of the counts given.
    public init(places: Int, added: Int, updated: Int, unchanged: Int, result: CommandResult) {
        self.places = places
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.result = result
    }
}

extension Logbook {
    /// Imports places into the shared catalog, all or none, in one commit (``Command/importPlaces(_:)``):
    /// a refusal names the place's line or feature and writes nothing; the same file again writes
    /// nothing. `context.eventId` makes it a safe retry, as for any command.
    public func importPlaces(_ entries: [PlaceImportEntry], context: CommandContext = .init()) async throws -> CatalogImportReport {
        let result = try await execute(.importPlaces(entries), context: context)
        var added = 0
        var updated = 0
        // Counted from the events themselves, so a retry answered from the log counts as the first did.
        if result.firstPosition > 0, result.lastPosition >= result.firstPosition {
            let count = result.lastPosition - result.firstPosition + 1
            let firstVersion = result.streamVersion + 1 - count
            var version = firstVersion
            while version <= result.streamVersion {
                let page = try await log.readStream(
                    result.stream, from: version, direction: .forward, limit: Int(min(result.streamVersion - version + 1, 4096)))
                guard !page.isEmpty else { break }
                for event in page {
                    switch event.envelope.type {
                    case EventType.placeAdded.rawValue: added += 1
                    case EventType.placeUpdated.rawValue: updated += 1
                    default: break
                    }
                }
                version += UInt64(page.count)
            }
        }
        return CatalogImportReport(
            places: entries.count, added: added, updated: updated, unchanged: max(0, entries.count - added - updated), result: result)
    }
}
