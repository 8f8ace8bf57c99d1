import ArgumentParser
import EventLog
import Foundation
import Logbook

/// `logbook export`: the whole log as NDJSON in the wire form, streamed in pages.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the log as NDJSON (one wire-form event per line) to a file or standard output.")

    @OptionGroup var store: StoreOptions

    @Option(name: .shortAndLong, help: "File to write (default: standard output).")
    var output: String?

    @Option(help: "Export events after this position only.")
    var after: UInt64 = 0

    @Option(help: "Export events up to this position only (default: the head).")
    var to: UInt64?

    func run() async throws {
        try await store.withLogbook(readOnly: true) { logbook in
            let head = try await logbook.log.headPosition().rawValue
            let last = min(to ?? head, head)
            let sink = try LineSink(path: output)
            let bar = CountingProgress(total: last - min(after, last), enabled: output != nil, noun: "events exported")
            var written: UInt64 = 0
            var from = min(after, last)
            while from < last {
                // In chunks, so that a log shared in PostgreSQL loads each chunk's users' keys first.
                let through = from + min(last - from, 65_536)
                try await logbook.loadKeys(openingEventsAfter: Position(from), through: Position(through))
                try await logbook.log.scan(after: Position(from), through: Position(through), filter: .all, chunkSize: 16_384) { envelope, metadata, payload in
                    try sink.write { try WireEvent(envelope: envelope, metadata: metadata, payload: payload, of: logbook).appendJSON(to: &$0) }
                    written += 1
                    if written % 4096 == 0 { bar.update(written) }
                    return true
                }
                from = through
            }
            bar.update(written)
            try sink.close()
            bar.finish()
        }
    }
}

/// `logbook import`: appends an NDJSON export as facts, keeping ids and times; a second import of
/// the same file writes nothing. The whole file is validated before anything is written: each
/// line parses, and no event id is used twice in the file or by another event of the log.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append an NDJSON export (wire form) to the log as facts, validated first; re-importing writes nothing.")

    @OptionGroup var store: StoreOptions

    @Argument(help: "The NDJSON file ('-' for standard input).")
    var file: String

    @Option(help: "durable, relaxed or nosync (bulk loads of data you can load again).")
    var durability: DurabilityArgument = .durable

    @Flag(help: "Print the report as JSON.")
    var json = false

    /// Events appended per commit.
    static let batchSize = 8192

    func run() async throws {
        let source = try LineSource(path: file)
        let report = try await store.withLogbook(readOnly: false, configure: { $0.log.durability = durability.value }) { logbook in
            // Pass 1: every line must parse, and every id be new or the same event, before anything is written.
            let spill = try await ImportCheck(source: source, log: logbook.log).run()
            defer { spill.discard() }
            let bar = CountingProgress(total: UInt64(spill.count), enabled: !json, noun: "events imported")
            var total = RestoreReport()
            var done: UInt64 = 0
            // Pass 2: what pass 1 checked, appended in large batches (one commit each), each batch
            // prepared (grouped, encoded, sealed) while the one before it commits.
            var ahead: Task<PreparedRestore, any Error>?
            func commit(_ prepared: PreparedRestore) async throws {
                let report = try await logbook.restore(prepared)
                total.written += report.written
                total.alreadyPresent += report.alreadyPresent
                done += UInt64(prepared.count)
                bar.update(done)
            }
            do {
                try await spill.forEachBatch(of: Self.batchSize) { batch in
                    let preparing = Task { try logbook.prepareRestore(batch, sealing: true) }
                    if let previous = ahead { try await commit(try await previous.value) }
                    ahead = preparing
                }
                if let last = ahead { try await commit(try await last.value) }
            } catch {
                ahead?.cancel()
                throw error
            }
            bar.finish()
            return total
        }
        if json {
            print(try Output.jsonText(report))
        } else {
            print("imported \(report.written) events; \(report.alreadyPresent) were already in the log")
        }
    }
}
