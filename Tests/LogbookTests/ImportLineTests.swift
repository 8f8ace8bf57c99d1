import Foundation
@testable import LogbookCLI
import LogbookTesting
import Testing

/// `logbook import`'s reading of a file in blocks of whole lines.
@Suite("Import line blocks")
struct ImportLineTests {
    @Test("blocks hold whole lines with their numbers, whatever the read size: CRLF, empty lines, a BOM, a long line, no final newline")
    func blocks() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/lines.ndjson"
            let long = String(repeating: "x", count: 100)
            let text = "\u{FEFF}one\r\n\ntwo\n\(long)\r\n\r\nthree\nlast"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let expected = [(1, "one"), (3, "two"), (4, long), (6, "three"), (7, "last")]
            for blockBytes in [1, 2, 3, 7, 64, 1 << 20] {
                var lines: [(Int, String)] = []
                try await LineSource(path: path).forEachBlock(blockBytes: blockBytes) { block in
                    #expect(!block.lines.isEmpty)
                    lines += block.lines.map { ($0.number, String(decoding: block.bytes[$0.range], as: UTF8.self)) }
                }
                #expect(lines.map(\.0) == expected.map(\.0), "read \(blockBytes) bytes at a time")
                #expect(lines.map(\.1) == expected.map(\.1), "read \(blockBytes) bytes at a time")
            }
        }
    }
}
