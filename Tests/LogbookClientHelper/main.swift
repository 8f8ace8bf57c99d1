// A client process for the journal's kill tests: it journals step samples through
// LogbookClient's typed calls and sends them, until it is killed or has sent them all.
//
//   LogbookClientHelper steps <server URL> <user> <journal file> <commands>
//   LogbookClientHelper drain <server URL> <user> <journal file>
//
// The bearer token comes from LOGBOOK_TOKEN. `steps` journals commands until the journal's
// sequence passes <commands> (command n records n steps from source "journal", in minute n
// of 2026-10-01), then waits until every one is sent; `drain` only sends what the journal
// holds. Both print "drained" and exit 0 when nothing is left to send. It builds on
// LogbookClient alone: no server module is linked.
import Foundation
import LogbookClient

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("LogbookClientHelper: \(message)\n".utf8))
    exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, ["steps", "drain"].contains(arguments[0]), let server = URL(string: arguments[1]) else {
    fail("usage: steps <server URL> <user> <journal file> <commands> | drain <server URL> <user> <journal file>")
}
guard let token = ProcessInfo.processInfo.environment["LOGBOOK_TOKEN"] else { fail("LOGBOOK_TOKEN is not set") }
let user = arguments[2]
let commands: UInt64
if arguments[0] == "drain" {
    commands = 0
} else if arguments.count > 4, let count = UInt64(arguments[4]), count < 40_000 {
    commands = count
} else {
    fail("<commands> must be a count below 40,000 (one a minute, within October)")
}

/// The moment `minute` minutes and `second` seconds after 2026-10-01 00:00 UTC (within October).
func time(_ minute: UInt64, _ second: Int) -> String {
    String(format: "2026-10-%02dT%02d:%02d:%02dZ", Int(1 + minute / 1440), Int(minute / 60 % 24), Int(minute % 60), second)
}

do {
    // A small file limit, so the journal is compacted (rewritten and renamed) many times while it is killed.
    let journal = try CommandJournal(file: URL(fileURLWithPath: arguments[3]), limits: .init(bytes: 48 << 10), backoff: .init(first: .milliseconds(20), longest: .milliseconds(500)), answerWait: .zero)
    let client = Client(logbook: server, tokens: FixedAccessToken(token), journal: journal)
    while await journal.status().nextSequence <= commands {
        let sequence = await journal.status().nextSequence
        let sample = Components.Schemas.StepsRecordedData.samplesPayloadPayload(
            count: Int(sequence), end: time(sequence, 30), source: "journal", start: time(sequence, 0))
        do {
            _ = try await client.postUsersUserSteps(path: .init(user: user), body: .json(.init(samples: [sample])))
        } catch {
            if let queued = CommandQueued.thrown(in: error) {
                guard queued.sequence == sequence else { fail("command \(sequence) was journaled as \(queued.sequence)") }
            } else if case .full = CommandJournalError.thrown(in: error) {
                try await Task.sleep(for: .milliseconds(20))
            } else {
                throw error
            }
        }
    }
    await journal.drained()
    let status = await journal.status()
    guard status.refused.isEmpty else { fail("refused: \(status.refused.map { "\($0.sequence): \($0.refusal!.problem)" })") }
    print("drained \(status.nextSequence - 1)")
} catch {
    fail("\(error)")
}
