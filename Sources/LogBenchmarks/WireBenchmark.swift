import DemoData
import EventLog
public import Foundation
import Logbook

/// `logbook-bench wire`: the JSON wire form's speed (the WireForm article) — export, parse and
/// validate, import — over a generated log, with Python's standard `json` reading and writing the
/// same lines in the same run as the peer, so the ratios survive a noisy machine.
public struct WireBenchmark: Sendable {
    /// Users in the generated data set (80 users × 12 weeks ≈ 535,000 events).
    public var users = 80
    public var weeks = 12
    public var directory: String?
    /// The `logbook` program the import runs (as a user runs it): by default the one beside this
    /// executable (`swift build -c release` builds both). It was this executable itself until the
    /// benchmarks became `logbook-bench`, which has no `import`: the wire benchmark failed.
    public var executable: URL? = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("logbook")
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

    public func run() async throws -> BenchmarkReport {
        let root = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("logbook-bench-wire-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var report = BenchmarkReport()

        progress("generating \(users) users × \(weeks) weeks")
        var configuration = LogbookConfiguration()
        configuration.log.durability = .noSync
        configuration.log.initialMapSize = 1 << 32
        // The codec is measured, not the payload cipher: plaintext payloads.
        configuration.payloadEncryption = .plaintext
        let logbook = try await Logbook.open(path: root + "/source", configuration: configuration)
        var generator = DemoDataGenerator(seed: 7, users: users)
        generator.weeks = weeks
        _ = try await generator.run(on: logbook)
        let events = Int(try await logbook.log.headPosition().rawValue)
        report.set("events", events)

        progress("exporting \(events) events")
        let file = root + "/log.ndjson"
        let exportSeconds = try await export(logbook, to: file)
        await logbook.close()
        report.set("export_eps", Double(events) / exportSeconds)
        report.set("file_bytes", (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)

        progress("parsing and validating every line")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        var lines: [Range<Int>] = []
        var lineStart = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append(lineStart..<index)
            lineStart = index + 1
        }
        guard lines.count == events else { throw BenchmarkFailure("exported \(lines.count) lines for \(events) events") }
        let parseClock = Stopwatch()
        var payloads = 0
        for line in lines where try WireEvent(jsonBytes: bytes, in: line).event != nil { payloads += 1 }
        let parseSeconds = parseClock.seconds
        guard payloads == events else { throw BenchmarkFailure("parsed \(payloads) events with data, expected \(events)") }
        report.set("parse_eps", Double(events) / parseSeconds)

        progress("importing into an empty store (logbook import, durable, inline projections)")
        let importSeconds = try await runImport(file, into: root + "/imported")
        report.set("import_eps", Double(events) / importSeconds)

        progress("python3's json.loads and json.dumps over the same lines")
        let python = try await pythonJSON(file)
        report.set("python_loads_eps", Double(events) / python.loads)
        report.set("python_dumps_eps", Double(events) / python.dumps)
        report.set("parse_vs_python_loads_ratio", python.loads / parseSeconds)
        report.set("import_vs_python_loads_ratio", python.loads / importSeconds)
        report.set("export_vs_python_dumps_ratio", python.dumps / exportSeconds)
        return report
    }

    /// Writes the whole log as NDJSON, as `logbook export` does; returns seconds.
    private func export(_ logbook: Logbook, to path: String) async throws -> Double {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let clock = Stopwatch()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        try await logbook.log.scan(after: .start, through: nil, filter: .all, chunkSize: 16_384) { envelope, metadata, payload in
            try WireEvent(envelope: envelope, metadata: metadata, payload: payload, of: logbook).appendJSON(to: &buffer)
            buffer.append(0x0A)
            if buffer.count >= 1 << 22 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
            return true
        }
        try handle.write(contentsOf: buffer)
        try handle.synchronize()
        return clock.seconds
    }

    /// Runs `logbook import FILE --path STORE --json` beside this executable; returns seconds.
    private func runImport(_ file: String, into store: String) async throws -> Double {
        guard let program = executable, FileManager.default.isExecutableFile(atPath: program.path) else {
            throw BenchmarkFailure("cannot find \(executable?.path ?? "logbook") to run the import: build it with `swift build -c release --product logbook`")
        }
        let clock = Stopwatch()
        let status = try await ChildProcess.run(program, ["import", file, "--path", store, "--json"])
        guard status == 0 else { throw BenchmarkFailure("logbook import exited with status \(status)") }
        return clock.seconds
    }

    /// Python's standard json over the file's lines: seconds for loads of every line, then for
    /// dumps of every loaded object (compact separators, as the wire form is written).
    private func pythonJSON(_ file: String) async throws -> (loads: Double, dumps: Double) {
        let script = """
            import json, sys, time
            lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
            t = time.perf_counter(); objects = [json.loads(line) for line in lines]; loads = time.perf_counter() - t
            t = time.perf_counter(); texts = [json.dumps(o, separators=(",", ":"), ensure_ascii=False) for o in objects]; dumps = time.perf_counter() - t
            assert len(texts) == len(lines)
            print(json.dumps({"loads": loads, "dumps": dumps}))
            """
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-python-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let status = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file], output: output)
        guard status == 0 else { throw BenchmarkFailure("python3 exited with status \(status)") }
        let times = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: output))
        guard let loads = times["loads"], let dumps = times["dumps"] else { throw BenchmarkFailure("python3 printed no timings") }
        return (loads, dumps)
    }
}
