import LogbookOpenAPI
import ArgumentParser
import Foundation
import LogbookHTTP

/// `logbook openapi`: prints the OpenAPI 3.1 document of the routes this build registers, with
/// response schemas from the Swift types they answer with (what `Schemas/openapi.json` holds).
struct OpenAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi", abstract: "Print the OpenAPI 3.1 document of the HTTP API (Schemas/openapi.json).")

    func run() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-openapi-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        print(try await OpenAPIDocument.generate(in: scratch), terminator: "")
    }
}
