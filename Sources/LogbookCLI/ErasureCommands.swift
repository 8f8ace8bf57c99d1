import ArgumentParser
import EventLogLMDB
import Foundation
import Logbook

/// `logbook erase --user U`: forgets a user (DESIGN §7) in a store no server is writing, then
/// rewrites its data file compacted, so no freed page keeps a byte of the user's read models.
struct EraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase a user: append user.erased, destroy their key, rebuild the read models without them, compact the store.")

    @OptionGroup var store: StoreOptions

    @Option(help: "The user to forget.")
    var user: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        guard store.postgresURL == nil else {
            throw CLIError("a log shared in PostgreSQL keeps plaintext payloads: erasure needs the embedded, encrypted store")
        }
        let result = try await store.withLogbook(readOnly: false) { logbook in try await logbook.erase(user: user) }
        let (before, after) = try LMDBEventStore.compact(path: store.path)
        if json { return print(try Output.jsonText(result)) }
        if result.alreadyApplied {
            print("\(user) was erased already; nothing written")
        } else {
            print("erased \(user): user.erased at position \(result.lastPosition), key destroyed, read models rebuilt")
        }
        print("store compacted: \(before >> 20) MiB → \(after >> 20) MiB")
    }
}
