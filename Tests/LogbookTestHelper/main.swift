// `logbook-test-helper append-loop (--path DIR | --postgres URL) [--writers N] [--name NAME]`:
// appends durable events until it is killed, printing each acknowledged position.
// `logbook-test-helper register-loop --path DIR [--writers N]`: registers new users in an
// embedded Logbook (each one a new payload key, then its first event) until it is killed, printing
// each acknowledged position the same way.
// `logbook-test-helper erase-killed --path DIR --user U`: erases U from an embedded Logbook and
// kills itself with SIGKILL right after the key's tombstone is committed, before the key store is
// compacted (the erasure's crash window).
// `logbook-test-helper read-loop --postgres URL [--writers N]`: N readers read the whole log in
// pages, over and over, until it is killed, printing "pass <reader> <events>" after each whole
// read and "failed <reader> <error>" after a failed page (then reading on): while the test terminates its
// connections, the process must stay alive.
//
// The crash-safety tests run it as a child process and kill it with SIGKILL at random moments;
// every position printed must be in the log afterwards. A test-only executable: it is built for
// the tests and never shipped in the `logbook` binary.
import EventLog
import EventLogLMDB
import EventLogPostgres
import Foundation
import Logbook

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("logbook-test-helper: \(message)\n".utf8))
    exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first ?? ""
guard ["append-loop", "register-loop", "erase-killed", "read-loop"].contains(mode) else {
    fail("usage: logbook-test-helper (append-loop | register-loop | erase-killed | read-loop) (--path DIR | --postgres URL) [--writers N] [--name NAME] [--user U]")
}
var path: String?
var user: String?
var postgres: String?
var name = "loop"
var writers = 4
var index = 1
while index < arguments.count {
    let value = index + 1 < arguments.count ? arguments[index + 1] : nil
    switch arguments[index] {
    case "--path": path = value
    case "--postgres": postgres = value
    case "--name": name = value ?? name
    case "--user": user = value
    case "--writers": writers = value.flatMap(Int.init) ?? 0
    default: fail("unknown argument \(arguments[index])")
    }
    index += 2
}
guard path != nil || postgres != nil, writers > 0 else { fail("--path DIR or --postgres URL is required and --writers must be positive") }

/// Runs `writers` concurrent loops until the process is killed; each step appends something and
/// prints its acknowledgement, "ack <writer> <sequence> <position> <event id>", in one unbuffered
/// write, so an acknowledgement printed is one the parent can see.
func runWriters(_ writers: Int, _ step: @escaping @Sendable (_ writer: Int, _ sequence: Int) async throws -> (UInt64, UUID)) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in 0..<writers {
            group.addTask {
                var sequence = 0
                while true {
                    sequence += 1
                    let (position, id) = try await step(writer, sequence)
                    FileHandle.standardOutput.write(Data("ack \(writer) \(sequence) \(position) \(id.uuidString)\n".utf8))
                }
            }
        }
        try await group.waitForAll()
    }
}

if mode == "erase-killed" {
    guard let path, let user else { fail("erase-killed needs --path DIR and --user U") }
    PrivacyTestHooks.onKeyTombstoneWritten {
        FileHandle.standardOutput.write(Data("tombstone written\n".utf8))
        kill(getpid(), SIGKILL)
    }
    let logbook = try await Logbook.open(path: path)
    try await logbook.erase(user: user)
    fail("the erasure of \(user) finished: the hook after its tombstone never ran")
}

if mode == "read-loop" {
    guard let postgres else { fail("read-loop needs --postgres URL") }
    var configuration = PostgresLogConfiguration()
    configuration.operationTimeout = .seconds(30)
    let store = try await PostgresEventStore.connect(try PostgresURL(postgres), configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for reader in 0..<writers {
            group.addTask {
                while true {
                    var position = Position.start
                    var events = 0
                    do {
                        while true {
                            let page = try await store.readAll(from: Position(position.rawValue + 1), direction: .forward, limit: 500, filter: EventFilter())
                            events += page.events.count
                            guard let through = page.scannedThrough, !page.reachedEnd else { break }
                            position = through
                        }
                        FileHandle.standardOutput.write(Data("pass \(reader) \(events)\n".utf8))
                    } catch {
                        let reason = "\(error)".replacingOccurrences(of: "\n", with: " ").prefix(300)
                        FileHandle.standardOutput.write(Data("failed \(reader) \(reason)\n".utf8))
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
        }
        try await group.waitForAll()
    }
}

if mode == "register-loop" {
    // With --postgres, a server of the shared log whose read models are in --path.
    guard let path else { fail("register-loop needs --path DIR") }
    let logbook = if let postgres {
        try await Logbook.open(following: try await PostgresEventStore.connect(try PostgresURL(postgres)), readModelsAt: path)
    } else {
        try await Logbook.open(path: path)
    }
    let run = UUID().uuidString.prefix(8).lowercased()
    try await runWriters(writers) { writer, sequence in
        let user = "r\(run)-\(writer)-\(sequence)"
        let id = UUID.timeOrdered()
        var context = CommandContext()
        context.eventId = id
        let result = try await logbook.execute(
            .registerUser(user: user, UserRegistered(displayName: "Name of \(user)", timeZone: "UTC")), context: context)
        return (result.firstPosition, id)
    }
}

let streamPrefix = name
let store: any EventStore = if let postgres {
    try await PostgresEventStore.connect(try PostgresURL(postgres))
} else {
    try LMDBEventStore(path: path!)
}
try await runWriters(writers) { writer, sequence in
    let event = ProposedEvent(
        type: "test.appended", subject: "\(streamPrefix)-writer-\(writer)",
        occurredAt: Timestamp(microsecondsSinceEpoch: Int64(sequence)),
        payload: Array("\(writer):\(sequence)".utf8))
    let result = try await store.append([event], to: "\(streamPrefix)-\(writer)", expectedVersion: .any)
    return (result.firstPosition.rawValue, event.eventId)
}
