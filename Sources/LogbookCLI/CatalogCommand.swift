import ArgumentParser
import Foundation
import Logbook
import LogbookInput

/// `logbook catalog`: the shared places catalog, kept by operators.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog", abstract: "Manage the shared places catalog.", subcommands: [CatalogImportCommand.self])
}

/// `logbook catalog import FILE`: places from an NDJSON or GeoJSON file, all or nothing, as
/// `POST /catalog/places/import` takes them.
struct CatalogImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import places into the catalog from NDJSON (one place.added object per line) or a GeoJSON FeatureCollection.",
        discussion: """
            All or nothing, in one commit: a refusal names the line (NDJSON) or feature (GeoJSON) and writes nothing. \
            Places new to the catalog are added, changed ones updated (an optional field the file leaves out is cleared), \
            equal ones left, so importing the same file again writes nothing. At most 10,000 places and 16 MiB a file. \
            With --json, prints {"places", "added", "updated", "unchanged", "result"}.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "ndjson or geojson (default: a FeatureCollection object is GeoJSON, anything else NDJSON).")
    var format: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Argument(help: "The file of places.")
    var file: String

    func validate() throws {
        if let format, CatalogImportFile.Format(rawValue: format) == nil { throw ValidationError("--format must be ndjson or geojson.") }
    }

    func run() async throws {
        let url = URL(fileURLWithPath: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= CatalogImportFile.maxBytes else {
            throw CLIError("\(file) is \(size) bytes; an import takes at most \(CatalogImportFile.maxBytes)")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw CLIError("cannot read \(file): \(error.localizedDescription)")
        }
        let places: [PlaceImportEntry]
        do {
            places = try CatalogImportFile.read(bytes, format: format.flatMap(CatalogImportFile.Format.init(rawValue:))).places
        } catch {
            throw CLIError("\(file): \(error.detail)")
        }
        let report = try await store.withLogbook(readOnly: false) { try await $0.importPlaces(places) }
        if json {
            print(try Output.jsonText(report))
        } else {
            print("\(report.places) places: \(report.added) added, \(report.updated) updated, \(report.unchanged) unchanged")
        }
    }
}
