import DemoData
import Foundation

/// The log benchmark's workload in plain C on LMDB (`logbook-c-baseline`, built from
/// `Sources/LogbookCBaseline`): the same encoded records, batch size, durability and random
/// point reads, with no Swift between the workload and `mdb_*`. It runs as a child process (so
/// no pointer crosses into Swift), fed the records in a file, and answers its timings as JSON.
struct CLogBaseline {
    /// The timings the C program prints.
    struct Timings: Decodable {
        let records: Int
        let appendSeconds: Double
        let scanned: Int
        let scanSeconds: Double
        let pointReads: Int
        let pointSeconds: Double
    }

    let executable: String

    /// The program beside the running `logbook` (SwiftPM builds both into one directory).
    static func beside(_ executable: URL?) throws -> CLogBaseline {
        let candidate = executable?.deletingLastPathComponent().appendingPathComponent("logbook-c-baseline").path ?? "logbook-c-baseline"
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw BenchmarkFailure("the C baseline \(candidate) is missing: build it with `swift build -c release --product logbook-c-baseline`")
        }
        return CLogBaseline(executable: candidate)
    }

    /// Writes the workload's records (as ``RawLogBaseline`` encodes them, batch by batch with the
    /// same seeds) into `directory`, runs the C program on them, and returns its timings.
    func run(_ workload: LogWorkload, batchSize: Int, pointReads: Int, in directory: String) async throws -> Timings {
        try FileManager.default.createDirectory(atPath: directory + "/env", withIntermediateDirectories: true)
        let records = directory + "/records.bin"
        try writeRecords(workload, batchSize: batchSize, to: records)
        let output = URL(fileURLWithPath: directory + "/timings.json")
        let status = try await ChildProcess.run(
            URL(fileURLWithPath: executable), [records, directory + "/env", String(batchSize), String(pointReads), "4"], output: output)
        guard status == 0 else { throw BenchmarkFailure("\(executable) exited with status \(status) (its message is above)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let timings = try decoder.decode(Timings.self, from: try Data(contentsOf: output))
        guard timings.records == workload.events, timings.scanned == workload.events else {
            throw BenchmarkFailure("the C baseline wrote \(timings.records) and scanned \(timings.scanned) records, expected \(workload.events)")
        }
        try? FileManager.default.removeItem(atPath: records)
        return timings
    }

    /// Each record as a 4-byte little-endian length and its bytes, positions 1, 2, … in order.
    private func writeRecords(_ workload: LogWorkload, batchSize: Int, to path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        var encoder = BenchmarkRecordEncoder()
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 22)
        let batches = (workload.events + batchSize - 1) / batchSize
        for batch in 0..<batches {
            var random = SplitMix64(seed: UInt64(batch + 1))
            for n in (batch * batchSize + 1)...min((batch + 1) * batchSize, workload.events) {
                RawLogBaseline.encode(n, of: workload, random: &random, into: &encoder)
                let length = UInt32(encoder.bytes.count)
                for shift in stride(from: 0, to: 32, by: 8) { chunk.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
                chunk += encoder.bytes
            }
            if chunk.count >= 1 << 22 {
                try file.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try file.write(contentsOf: chunk)
    }
}
