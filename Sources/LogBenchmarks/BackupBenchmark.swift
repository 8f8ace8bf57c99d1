import EventLog
import EventLogLMDB
import Foundation
import DemoData
import Logbook

/// The backup phase of `logbook-bench log`: a Logbook store of at least ``megabytes`` MB is
/// filled, then backed up (``Logbook/backup(to:progress:)``: compacted copy, SHA-256, manifest
/// digests read from the copy) and restored (checksums, head, digests, `verify`), beside the
/// baseline of a plain file copy of the same data file in the same run.
struct BackupBenchmark: Sendable {
    var megabytes: Int
    var root: String
    var progress: @Sendable (String) -> Void

    /// Bytes of payload per event: large, so a gigabyte takes about a million events.
    static let payloadBytes = 900
    static let eventsPerAppend = 4_096

    func run(into report: inout BenchmarkReport) async throws {
        let target = megabytes * 1_000_000
        let source = root + "/backup-source"
        progress("filling a store of \(megabytes) MB for the backup")
        try await fill(source, bytes: target)
        var configuration = LogbookConfiguration()
        configuration.log.initialMapSize = 1 << 30
        let logbook = try await Logbook.open(path: source, configuration: configuration)
        let sourceBytes = try await logbook.log.storageInfo().usedBytes
        progress("backing up \(sourceBytes / 1_000_000) MB")
        var clock = Stopwatch()
        let manifest: BackupManifest
        do {
            manifest = try await logbook.backup(to: root + "/backup")
        } catch {
            await logbook.close()
            throw error
        }
        let backupSeconds = clock.seconds
        await logbook.close()
        progress("copying the data file plainly (baseline)")
        clock = Stopwatch()
        let copied = try BlockingCopy.file(source + "/data.mdb", to: root + "/plain-copy.mdb")
        let plainSeconds = clock.seconds
        try? FileManager.default.removeItem(atPath: root + "/plain-copy.mdb")
        progress("restoring and verifying")
        clock = Stopwatch()
        _ = try await Logbook.restore(backup: root + "/backup", to: root + "/restored", configuration: configuration)
        let restoreSeconds = clock.seconds
        let backupBytes = manifest.files.reduce(0) { $0 + $1.bytes }
        report.set("backup_source_bytes", sourceBytes)
        report.set("backup_bytes", backupBytes)
        report.set("backup_seconds", backupSeconds)
        report.set("backup_mb_per_s", Double(sourceBytes) / 1e6 / backupSeconds)
        report.set("file_copy_mb_per_s", Double(copied) / 1e6 / plainSeconds)
        report.set("backup_vs_file_copy_ratio", plainSeconds / backupSeconds * Double(sourceBytes) / Double(copied))
        report.set("restore_verified_mb_per_s", Double(backupBytes) / 1e6 / restoreSeconds)
        for path in ["/backup-source", "/backup", "/restored"] { try? FileManager.default.removeItem(atPath: root + path) }
    }

    /// Appends events with large, varied payloads until the log uses `bytes`.
    private func fill(_ path: String, bytes: Int) async throws {
        var configuration = LogConfiguration()
        configuration.initialMapSize = 1 << 30
        configuration.durability = .noSync
        configuration.maxEventsPerTransaction = Self.eventsPerAppend
        let store = try LMDBEventStore(path: path, configuration: configuration)
        let workload = LogWorkload(events: 1)
        var random = SplitMix64(seed: 7)
        var n = 0
        do {
            while store.usedBytes < bytes {
                var requests: [AppendRequest] = []
                for _ in 0..<Self.eventsPerAppend {
                    n += 1
                    var event = workload.event(n, random: &random)
                    event.payload.removeAll(keepingCapacity: true)
                    for _ in 0..<Self.payloadBytes / 8 {
                        let word = random.next()
                        for shift in stride(from: 0, to: 64, by: 8) { event.payload.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
                    }
                    requests.append(AppendRequest(stream: workload.stream(n), events: [event]))
                }
                for result in try await store.append(batch: requests) { _ = try result.get() }
            }
            try store.environment.sync()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}

/// A plain copy of one file, read and written in 1 MiB chunks and made durable: the baseline a
/// backup's copy is compared with.
enum BlockingCopy {
    static func file(_ source: String, to target: String) throws -> Int {
        guard FileManager.default.createFile(atPath: target, contents: nil) else {
            throw BenchmarkFailure("cannot create \(target)")
        }
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
        defer { try? input.close() }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
        defer { try? output.close() }
        var total = 0
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
            total += chunk.count
        }
        try output.synchronize()
        return total
    }
}
