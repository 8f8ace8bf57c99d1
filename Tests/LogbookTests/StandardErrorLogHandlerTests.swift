import Foundation
import Logging
import Synchronization
import Testing
@testable import LogbookCLI

/// The server's log lines: swift-log's stream format, metadata sorted by key and written only with
/// a message, the time in UTC.
@Suite("The server's log handler")
struct StandardErrorLogHandlerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("a line holds the level, label, sorted metadata, source and message; setting metadata writes nothing")
    func lineFormat() throws {
        let written = Lines()
        var logger = Logger(label: "logbook") { StandardErrorLogHandler(label: $0) { line in written.lines.withLock { $0.append(line) } } }
        logger.logLevel = .info
        logger[metadataKey: "zeta"] = "last"
        logger[metadataKey: "alpha"] = "first"
        logger.debug("below the level")
        #expect(written.all.isEmpty)
        logger.warning("disk nearly full", metadata: ["alpha": "explicit"])
        let lines = written.all
        try #require(lines.count == 1)
        let line = lines[0]
        #expect(line.hasSuffix(" warning logbook: alpha=explicit zeta=last [LogbookTests] disk nearly full\n"))
        let stamp = String(line.prefix(20))
        #expect(stamp.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil, "the line starts with a UTC time: \(stamp)")
    }

    @Test("the time is UTC whatever the process's time zone: a known instant")
    func utcTimestamp() {
        #expect(StandardErrorLogHandler.timestamp(Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18T11:06:40Z")
        #expect(StandardErrorLogHandler.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }
}
