import ArgumentParser
import EventLog
import Foundation

/// `logbook append-loop`: appends durable events forever, printing each acknowledged position.
///
/// The crash-safety test runs it as a child process and kills it with SIGKILL at random moments;
/// every position printed must be in the log afterwards.
struct AppendLoopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append-loop",
        abstract: "Append events until killed, printing each acknowledged commit (for crash tests).",
        shouldDisplay: false)

    @Option(help: "Directory of the log.")
    var path: String

    @Option(help: "Concurrent appenders.")
    var writers = 4

    func run() async throws {
        let store = try LMDBEventStore(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var sequence = 0
                    while true {
                        sequence += 1
                        let event = ProposedEvent(
                            type: "test.appended", subject: "writer-\(writer)",
                            occurredAt: Timestamp(microsecondsSinceEpoch: Int64(sequence)),
                            payload: Array("\(writer):\(sequence)".utf8))
                        let result = try await store.append([event], to: "loop-\(writer)", expectedVersion: .any)
                        // One unbuffered write per line: an acknowledgement printed is one the parent can see.
                        let line = "ack \(writer) \(sequence) \(result.firstPosition) \(event.eventId.uuidString)\n"
                        FileHandle.standardOutput.write(Data(line.utf8))
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
