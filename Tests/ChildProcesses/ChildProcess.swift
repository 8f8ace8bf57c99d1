#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSpawn
import Synchronization

/// A program the tests run beside themselves, started with `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux (swift-corelibs-foundation as of Swift 6.3.1) its `run()`
/// lists `/proc/self/fd` by copying each directory entry's whole 256-byte name field, reading
/// past the end of glibc's `readdir` buffer, and now and then the test process dies with a SIGSEGV
/// (swiftlang/swift-corelibs-foundation#5472, fixed upstream after 6.3.1). A suite that starts
/// hundreds of children met it.
///
/// The child's standard input is `/dev/null`; its standard output goes to a pipe this end reads
/// (or to `/dev/null`), its standard error to the same pipe or to `/dev/null`; it inherits no
/// other descriptor of ours.
public final class ChildProcess: Sendable {
    /// How the child ended: its exit status, or the signal that killed it.
    public enum Termination: Sendable, Hashable {
        case exit(Int32)
        case signal(Int32)

        /// The exit status, or the signal's number (as Foundation's `terminationStatus` reports it).
        public var status: Int32 {
            switch self {
            case .exit(let code): code
            case .signal(let number): number
            }
        }
    }

    /// A spawn that failed (the program is missing, a pipe could not be made).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id.
    public let pid: Int32
    /// Our end of the child's output pipe (-1: its output is discarded).
    private let outputEnd: Int32
    private let ended = Mutex<Termination?>(nil)

    /// Starts `executable` with `arguments` (without the program name), in `directory` if given,
    /// with `environment` (default: ours). `output`: keep the child's standard output to read
    /// (else discarded); `errors`: its standard error into the same pipe (else discarded).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        output: Bool = true, errors: Bool = false
    ) throws {
        var fds: [Int32] = [-1, -1]
        if output {
            guard logbook_pipe_cloexec(&fds) == 0 else { throw Failure(description: "pipe2: \(String(cString: strerror(errno)))") }
        }
        defer { if fds[1] >= 0 { close(fds[1]) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if output { posix_spawn_file_actions_adddup2(&actions, fds[1], 1) } else { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        if output && errors { posix_spawn_file_actions_adddup2(&actions, fds[1], 2) } else { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        // Nothing else of ours leaks into the child (an inherited pipe end would keep another
        // child's reader from seeing the end of its output).
        logbook_spawn_closefrom(&actions, 3)
        if let directory { _ = logbook_spawn_chdir(&actions, directory) }

        let environment = environment ?? Self.currentEnvironment()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: Int32 = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            if fds[0] >= 0 { close(fds[0]) }
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        outputEnd = fds[0]
    }

    deinit {
        if outputEnd >= 0 { close(outputEnd) }
    }

    /// Our environment, as a dictionary.
    public static func currentEnvironment() -> [String: String] {
        var values: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") { values[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            pointer += 1
        }
        return values
    }

    /// The next chunk of the child's output, waiting for one; nil at its end (or if discarded).
    public func read() -> [UInt8]? {
        guard outputEnd >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(outputEnd, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[..<count]) }
            if count == 0 || errno != EINTR { return nil }
        }
    }

    /// The child's output to its end.
    public func readToEnd() -> [UInt8] {
        var all: [UInt8] = []
        while let chunk = read() { all += chunk }
        return all
    }

    /// Sends `signal` to the child (nothing if it has been reaped).
    public func send(_ signal: Int32) {
        guard ended.withLock({ $0 }) == nil else { return }
        _ = kill(pid, signal)
    }

    /// Waits for the child to end and reaps it.
    @discardableResult
    public func wait() -> Termination {
        if let termination = ended.withLock({ $0 }) { return termination }
        return reap(options: 0)!
    }

    /// Whether the child still runs (reaps it if it ended).
    public var isRunning: Bool {
        if ended.withLock({ $0 }) != nil { return false }
        return reap(options: WNOHANG) == nil
    }

    /// Asks the child to stop (SIGTERM), as Foundation's `Process.terminate()` does.
    public func terminate() { send(SIGTERM) }

    private func reap(options: Int32) -> Termination? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, options)
            if result == pid { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            // Reaped elsewhere already.
            return ended.withLock { $0 } ?? .exit(-1)
        }
        let termination: Termination = status & 0x7f == 0 ? .exit((status >> 8) & 0xff) : .signal(status & 0x7f)
        ended.withLock { $0 = termination }
        return termination
    }
}
