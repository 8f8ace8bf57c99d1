import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// `logbook import` checks every stream's versions before anything is written, and a refusal names
/// the line of the file: a gap in a stream, a version the file holds twice, a version the log
/// already holds with another event.
@Suite("Import: stream versions refused by line")
struct ImportVersionCLITests {
    /// One `user.registered`-shaped wire event of `stream` at `version`, with event id `id`.
    static func line(_ user: String, version: Int, id: String) -> String {
        #"{"position":1,"stream":"user-\#(user)","streamVersion":\#(version),"eventId":"\#(id)","type":"user.registered","schemaVersion":1,"subject":"\#(user)","occurredAt":"2026-11-17T08:00:00Z","recordedAt":"2026-11-17T08:00:00Z","correlationId":null,"causationId":null,"metadata":{},"data":{"displayName":"\#(user)","timeZone":"UTC","units":"metric","weekStart":"monday"}}"#
    }

    static func id(_ number: Int) -> String { String(format: "5b0e4a8e-1d7c-4c5e-9a0b-%012d", number) }

    @Test("a gap, a repeated version and a clash with the log are refused naming the line; nothing is imported")
    func versionConflictsNameTheLine() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory + "/data"
            func write(_ name: String, _ lines: [String]) throws -> String {
                let path = directory + "/" + name
                try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
            func head() async throws -> String {
                let (_, inspect) = try await runLogbook(["inspect", "--path", store, "--json"], includeErrors: true)
                return String(inspect.firstMatch(of: /"headPosition":[0-9]+/)?.output ?? "none")
            }
            // The log holds ana at versions 0 and 1.
            let first = try write("first.ndjson", [Self.line("ana", version: 0, id: Self.id(1)), Self.line("ana", version: 1, id: Self.id(2))])
            #expect(try await runLogbook(["import", "--path", store, first], includeErrors: true).0 == 0)
            let before = try await head()
            let cases: [(String, [String], [String])] = [
                // bob 0, then bob 2: version 1 is missing.
                ("gap.ndjson", [Self.line("cy", version: 0, id: Self.id(10)), Self.line("bob", version: 0, id: Self.id(11)),
                                Self.line("bob", version: 2, id: Self.id(12))], ["gap.ndjson:3", "user-bob", "version 1"]),
                // bob 0 twice, as two events.
                ("twice.ndjson", [Self.line("bob", version: 0, id: Self.id(20)), Self.line("bob", version: 0, id: Self.id(21))],
                 ["twice.ndjson:2", "user-bob", "line 1"]),
                // ana 1 is another event in the log.
                ("clash.ndjson", [Self.line("cy", version: 0, id: Self.id(30)), Self.line("ana", version: 1, id: Self.id(31))],
                 ["clash.ndjson:2", "user-ana", "version 1"]),
                // ana continues at 3, but the log ends at 1.
                ("after.ndjson", [Self.line("ana", version: 3, id: Self.id(40))], ["after.ndjson:1", "user-ana", "version 2"]),
            ]
            for (name, lines, words) in cases {
                let (status, output) = try await runLogbook(["import", "--path", store, try write(name, lines)], includeErrors: true)
                #expect(status != 0, "\(name) was imported")
                for word in words { #expect(output.contains(word), "\(name): \(output)") }
                #expect(try await head() == before, "\(name): something was imported")
            }
            // The log's own events again, and what follows them: a repeat and a continuation are fine.
            let next = try write("next.ndjson", [Self.line("ana", version: 1, id: Self.id(2)), Self.line("ana", version: 2, id: Self.id(3))])
            let (status, output) = try await runLogbook(["import", "--path", store, next, "--json"], includeErrors: true)
            #expect(status == 0, "\(output)")
            #expect(output.contains("\"written\":1") && output.contains("\"alreadyPresent\":1"), "\(output)")
        }
    }
}
