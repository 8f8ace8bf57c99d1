public import ChildProcesses
public import Foundation
import Synchronization

/// A child `logbook-test-helper` process (`append-loop` by default), its acknowledgements (and
/// other lines) collected as they arrive.
public final class AppendingChild: Sendable {
    public struct Ack: Hashable, Sendable {
        public let position: UInt64
        public let eventId: UUID
    }

    /// Bytes the child printed, appended from the pipe's handler thread.
    private final class Output: Sendable {
        let data = Mutex<Data>(Data())
    }

    private let process: ChildProcess
    private let output = Output()

    public convenience init(path: String, writers: Int) throws {
        try self.init(arguments: ["--path", path, "--writers", String(writers)])
    }

    /// A child running `mode` (`append-loop`, or `register-loop`: new users in a Logbook) with
    /// `arguments` (its store and writers); `errors`: its standard error among its lines (a trap's
    /// message and backtrace), else discarded.
    public init(mode: String = "append-loop", arguments: [String], errors: Bool = false) throws {
        let process = try ChildProcess(testHelperExecutable.path, [mode] + arguments, errors: errors)
        self.process = process
        let output = self.output
        // A thread of its own reads the pipe to its end (the child's death closes it).
        Thread.detachNewThread {
            while let chunk = process.read() { output.data.withLock { $0.append(contentsOf: chunk) } }
        }
    }

    /// Whether the child still runs.
    public var isRunning: Bool { process.isRunning }

    /// How the child ended (waiting for it).
    public func ended() -> ChildProcess.Termination { process.wait() }

    /// The lines the child printed so far (complete ones).
    public var lines: [Substring] {
        let text = String(decoding: output.data.withLock { $0 }, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
    }

    /// Kills the child with SIGKILL and waits for it to die.
    public func kill() {
        process.send(SIGKILL)
        process.wait()
    }

    /// Every complete acknowledgement line read so far: "ack <writer> <sequence> <position> <uuid>".
    public var acks: [Ack] {
        let text = String(decoding: output.data.withLock { $0 }, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 5, fields[0] == "ack", let position = UInt64(fields[3]),
                  let id = UUID(uuidString: String(fields[4])) else { return nil }
            return Ack(position: position, eventId: id)
        }
    }
}

