import EventLogLMDB
import DemoData
import EventLog
public import Foundation
import Crypto
public import Logbook
import Sodium

/// `logbook-bench log`: the event log's append, read and scan rates next to raw LMDB's, measured
/// in the same run so the ratios survive a noisy machine.
public struct LogBenchmark: Sendable {
    public var events = 1_000_000
    public var batchSize = 10_000
    /// Batches of the log and of the baseline alternate in blocks of this many.
    public var batchesPerBlock = 10
    /// How many batches of appends are in flight at once.
    public var pipelineDepth = 2
    public var durableSingleAppends = 1_000
    public var durableConcurrentAppends = 20_000
    public var concurrentWriters = 64
    public var streamReads = 2_000
    public var pointReads = 200_000
    public var directory: String?
    /// Size of the store the backup phase backs up and restores, in MB (0: no backup phase).
    public var backupMegabytes = 1_024
    /// Where the C baseline (`logbook-c-baseline`) is looked for: beside this executable.
    public var cBaselineBeside: URL? = Bundle.main.executableURL
    /// The payload format the encryption phase seals with (default: a new store's).
    public var payloadFormat: PayloadFormat = .current
    /// Run only the batched append of the event log (for profiling).
    public var appendOnly = false
    /// Run only the durable append phases, on an empty log (for profiling).
    public var durableOnly = false
    /// Append the log alone, then scan it this many times (for profiling the scan).
    public var scanOnly: Int?
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

    public func run() async throws -> BenchmarkReport {
        let workload = LogWorkload(events: events)
        let root = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("logbook-bench-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var memory = AnonymousMemoryPeak()
        var report = BenchmarkReport()
        report.set("events", events)
        report.set("batch_size", batchSize)

        if durableOnly {
            var configuration = LogConfiguration()
            configuration.initialMapSize = 1 << 30
            let store = try LMDBEventStore(path: root + "/durable", configuration: configuration)
            let single = try await BenchmarkDrivers.appendConcurrently(store, workload, writers: 1, total: durableSingleAppends)
            let concurrent = try await BenchmarkDrivers.appendConcurrently(store, workload, writers: concurrentWriters, total: durableConcurrentAppends)
            await store.close()
            report.set("durable_1_writer_eps", Double(durableSingleAppends) / single)
            report.set("durable_64_writers_eps", Double(durableConcurrentAppends) / concurrent)
            report.set("durable_64_vs_1_ratio", Double(durableConcurrentAppends) / concurrent / (Double(durableSingleAppends) / single))
            return report
        }
        if let scans = scanOnly {
            let store = try LMDBEventStore(path: root + "/log", configuration: batchedConfiguration)
            let batches = (workload.events + batchSize - 1) / batchSize
            let benchmark = self
            try await BenchmarkDrivers.appendPipelined(store, batches: 0..<batches, depth: pipelineDepth) { batch in
                try benchmark.requests(batch, workload, payloads: nil)
            }
            var seconds = 0.0
            for _ in 0..<max(scans, 1) { seconds += try scanAll(store).0 }
            await store.close()
            report.set("scan_eps", Double(events * max(scans, 1)) / seconds)
            return report
        }
        progress("appending \(events) events to the log and to raw LMDB, batch by batch in turn")
        let raw = try RawLogBaseline(workload: workload, path: root + "/raw")
        let configuration = batchedConfiguration
        let store = try LMDBEventStore(path: root + "/log", configuration: configuration)
        let appending = try await appendBatched(store, raw, workload, &memory)
        let (appendSeconds, rawAppendSeconds) = (appending.log.seconds, appending.raw.seconds)
        let (logWriteBytes, rawWriteBytes) = (appending.log.writeBytes, appending.raw.writeBytes)
        let bytesPerEvent = Double(store.usedBytes) / Double(events)
        if appendOnly {
            await store.close()
            raw.close()
            report.set("append_batched_eps", Double(events) / appendSeconds)
            report.set("raw_append_batched_eps", Double(events) / rawAppendSeconds)
            report.set("append_batched_ratio", rawAppendSeconds / appendSeconds)
            return report
        }
        let rawBytesPerEvent = Double(raw.usedBytes) / Double(events)

        progress("scanning")
        let (rawScanSeconds, rawScanned) = try raw.scan()
        let (scanSeconds, scanned) = try scanAll(store)
        guard scanned == events, rawScanned == events else {
            throw BenchmarkFailure("scanned \(scanned) log events and \(rawScanned) raw records, expected \(events)")
        }
        memory.sample()

        progress("reading streams and positions")
        let (streamSeconds, streamEvents) = try await BenchmarkDrivers.readStreams(store, workload, reads: streamReads)
        let pointSeconds = try await BenchmarkDrivers.readPoints(store, workload, reads: pointReads)

        progress("the same appends, scan and point reads in plain C on LMDB (logbook-c-baseline)")
        let c = try await CLogBaseline.beside(cBaselineBeside).run(workload, batchSize: batchSize, pointReads: pointReads, in: root + "/c")
        report.set("c_append_batched_eps", Double(events) / c.appendSeconds)
        report.set("c_scan_eps", Double(events) / c.scanSeconds)
        report.set("c_point_read_eps", Double(c.pointReads) / c.pointSeconds)
        report.set("append_batched_vs_c_ratio", c.appendSeconds / appendSeconds)
        report.set("scan_vs_c_ratio", c.scanSeconds / scanSeconds)
        report.set("point_read_vs_c_ratio", c.pointSeconds / Double(c.pointReads) / (pointSeconds / Double(pointReads)))
        report.set("raw_append_batched_vs_c_ratio", c.appendSeconds / rawAppendSeconds)
        report.set("raw_scan_vs_c_ratio", c.scanSeconds / rawScanSeconds)

        progress("durable appends: 1 writer, then \(concurrentWriters)")
        let rawSingleSeconds = try raw.appendSingles(count: durableSingleAppends, after: events, seed: 1 << 41)
        let singleBefore = store.statistics?.transactions ?? 0
        let singleSeconds = try await BenchmarkDrivers.appendConcurrently(store, workload, writers: 1, total: durableSingleAppends)
        progress("single writer: \((store.statistics?.transactions ?? 0) - singleBefore) transactions in \(singleSeconds) s")
        let transactionsBefore = store.statistics?.transactions ?? 0
        let concurrentSeconds = try await BenchmarkDrivers.appendConcurrently(
            store, workload, writers: concurrentWriters, total: durableConcurrentAppends)
        let concurrentTransactions = (store.statistics?.transactions ?? 0) - transactionsBefore
        memory.sample()
        await store.close()
        raw.close()

        LogMeasurements(
            events: events, appendSeconds: appendSeconds, rawAppendSeconds: rawAppendSeconds, scanned: scanned, scanSeconds: scanSeconds,
            rawScanned: rawScanned, rawScanSeconds: rawScanSeconds, streamEvents: streamEvents, streamSeconds: streamSeconds,
            pointReads: pointReads, pointSeconds: pointSeconds, singleAppends: durableSingleAppends, singleSeconds: singleSeconds,
            rawSingleSeconds: rawSingleSeconds, concurrentAppends: durableConcurrentAppends, concurrentSeconds: concurrentSeconds,
            concurrentTransactions: concurrentTransactions, bytesPerEvent: bytesPerEvent, rawBytesPerEvent: rawBytesPerEvent
        ).report(into: &report)
        report.set("write_bytes_per_event", Double(logWriteBytes) / Double(events))
        report.set("raw_write_bytes_per_event", Double(rawWriteBytes) / Double(events))
        report.set("peak_rss_bytes", ProcessStats.peakResidentBytes)
        report.set("peak_rss_anon_bytes", memory.peak)

        // The same appends again, with ids a client chose (random, version 4): the ids that go
        // through the id journal instead of appending to the time-ordered index.
        progress("appending \(events) events with client-chosen ids, to the log and to raw LMDB")
        let clientWorkload = LogWorkload(events: events, clientIds: true)
        let clientRaw = try RawLogBaseline(workload: clientWorkload, path: root + "/raw-client-ids")
        let clientStore = try LMDBEventStore(path: root + "/log-client-ids", configuration: configuration)
        let client = try await appendBatched(clientStore, clientRaw, clientWorkload, &memory)
        await clientStore.close()
        clientRaw.close()
        report.set("client_ids_append_batched_eps", Double(events) / client.log.seconds)
        report.set("client_ids_append_batched_ratio", client.raw.seconds / client.log.seconds)
        report.set("client_ids_write_bytes_per_event", Double(client.log.writeBytes) / Double(events))
        try await measureEncryption(
            root: root, configuration: configuration, workload: workload, plainRatio: rawAppendSeconds / appendSeconds, into: &report,
            memory: &memory)
        if backupMegabytes > 0 {
            try await BackupBenchmark(megabytes: backupMegabytes, root: root, progress: progress).run(into: &report)
        }
        return report
    }

    struct PhaseCost {
        var seconds = 0.0
        var writeBytes = 0
    }

    /// Appends the workload in batches of `batchSize` single-event appends (one transaction
    /// each), to the log and to the raw baseline, in alternating blocks of batches so both see the
    /// same machine. The log gets its batches from `pipelineDepth` concurrent tasks, as a server's
    /// requests would arrive: one task prepares its batch while the writer commits another.
    private func appendBatched(
        _ store: LMDBEventStore, _ raw: RawLogBaseline, _ workload: LogWorkload, _ memory: inout AnonymousMemoryPeak,
        payloads: PayloadKeys? = nil
    ) async throws -> (log: PhaseCost, raw: PhaseCost) {
        var log = PhaseCost()
        var rawCost = PhaseCost()
        let batches = (workload.events + batchSize - 1) / batchSize
        let benchmark = self
        var block = 0
        while block < batches {
            let blockBatches = block..<min(block + batchesPerBlock, batches)
            var writes = ProcessStats.storageWriteBytes
            var clock = Stopwatch()
            for batch in blockBatches {
                var random = SplitMix64(seed: UInt64(batch + 1))
                try raw.append(range(batch, workload), random: &random)
            }
            rawCost.seconds += clock.seconds
            rawCost.writeBytes += ProcessStats.storageWriteBytes - writes

            writes = ProcessStats.storageWriteBytes
            clock = Stopwatch()
            try await BenchmarkDrivers.appendPipelined(store, batches: blockBatches, depth: pipelineDepth) { batch in
                try benchmark.requests(batch, workload, payloads: payloads)
            }
            log.seconds += clock.seconds
            log.writeBytes += ProcessStats.storageWriteBytes - writes
            memory.sample()
            block = blockBatches.upperBound
        }
        return (log, rawCost)
    }

    /// The log's configuration for batched appends: one transaction per batch at most.
    private var batchedConfiguration: LogConfiguration {
        var configuration = LogConfiguration()
        configuration.initialMapSize = 1 << 30
        configuration.maxEventsPerTransaction = batchSize
        return configuration
    }

    /// The workload's event numbers in batch `batch`.
    private func range(_ batch: Int, _ workload: LogWorkload) -> ClosedRange<Int> {
        (batch * batchSize + 1)...min((batch + 1) * batchSize, workload.events)
    }

    /// Batch `batch` of the workload as single-event appends, the same events in every run (each
    /// batch seeds its own generator); with `payloads`, each sealed with its subject's key, as
    /// Logbook seals it.
    private func requests(_ batch: Int, _ workload: LogWorkload, payloads: PayloadKeys?) throws -> [AppendRequest] {
        var random = SplitMix64(seed: UInt64(batch + 1))
        return try range(batch, workload).map { n in
            var request = AppendRequest(stream: workload.stream(n), events: [workload.event(n, random: &random)])
            try payloads?.seal(&request)
            return request
        }
    }

    /// The batched appends and the whole-log scan again with payload encryption on (the Privacy
    /// article): every event's payload sealed under its subject's key from a real key store, as
    /// Logbook seals it, and opened again in the scan. The appends alternate with the raw baseline
    /// as the plain ones did, so `encrypted_vs_plain_append_ratio` compares the two through their
    /// own baselines; the scan is compared with a scan of the same log that does not open payloads.
    private func measureEncryption(
        root: String, configuration: LogConfiguration, workload: LogWorkload, plainRatio: Double, into report: inout BenchmarkReport,
        memory: inout AnonymousMemoryPeak
    ) async throws {
        progress("appending \(events) events with encrypted payloads, and to raw LMDB, batch by batch in turn")
        let keys = try PayloadKeys(encryptingWithKeysIn: root + "/encrypted-keys", format: payloadFormat)
        report.set("payloads", payloadFormat.rawValue)
        defer { keys.close() }
        let raw = try RawLogBaseline(workload: workload, path: root + "/raw-encrypted")
        defer { raw.close() }
        let encrypted = try LMDBEventStore(path: root + "/log-encrypted", configuration: configuration)
        let sealed = try await appendBatched(encrypted, raw, workload, &memory, payloads: keys)
        let clock = Stopwatch()
        var opened = 0
        var bytes = 0
        try encrypted.scan(chunkSize: 65_536) { envelope, _, payload in
            try keys.withOpened(envelope, payload) { (plaintext) throws(LogbookError) in bytes &+= plaintext?.count ?? 0 }
            opened += 1
            return true
        }
        let oneCoreSeconds = clock.seconds
        let (wideSeconds, wideBytes) = try await scanOpeningWide(encrypted, keys)
        let (scanSeconds, _) = try scanAll(encrypted)
        await encrypted.close()
        guard opened == events, bytes == events * workload.payloadSize, wideBytes == bytes else {
            throw BenchmarkFailure("opened \(opened) encrypted payloads (\(bytes) bytes; \(wideBytes) opened wide), expected \(events)")
        }
        report.set("encrypted_append_batched_eps", Double(events) / sealed.log.seconds)
        report.set("encrypted_vs_plain_append_ratio", sealed.raw.seconds / sealed.log.seconds / plainRatio)
        report.set("encrypted_scan_eps", Double(events) / wideSeconds)
        report.set("encrypted_scan_vs_plain_scan_ratio", scanSeconds / wideSeconds)
        report.set("encrypted_scan_one_core_eps", Double(events) / oneCoreSeconds)
        report.set("encrypted_scan_one_core_vs_plain_scan_ratio", scanSeconds / oneCoreSeconds)
        try measureCipherAlone(workload, keys, into: &report)
    }

    /// The whole log read as a rebuild of an encrypted store reads it (``SealedStretch``), in
    /// stretches of 65,536 positions, each opened in two parts side by side while the next is
    /// read; returns the seconds and the plaintext bytes opened.
    private func scanOpeningWide(_ store: LMDBEventStore, _ keys: PayloadKeys) async throws -> (Double, Int) {
        let head = try await store.headPosition().rawValue
        let stretch: UInt64 = 65_536
        let clock = Stopwatch()
        var bytes = 0
        var reading = Task { try await SealedStretch.read(store, after: 0, through: min(stretch, head)) }
        while true {
            let read = try await reading.value
            let next = read.through
            if next < head { reading = Task { try await SealedStretch.read(store, after: next, through: min(next + stretch, head)) } }
            let parts = try await read.opened(with: keys, parts: 2, start: { _ in 0 }) { (opened, _, plaintext) throws(LogbookError) in
                opened &+= plaintext?.count ?? 0
            }
            for part in parts { bytes &+= part }
            if next >= head { break }
        }
        return (clock.seconds, bytes)
    }

    /// Where an encrypted event's time goes, without the log: sealing and opening through
    /// Logbook's keys (key lookup, nonce, AEAD, copies), against two one-shot AEADs of the same
    /// payload with one key and one nonce: swift-crypto's `ChaChaPoly.seal` (`chachapoly_seal_ns`,
    /// a BoringSSL context and buffers per call), libsodium's XChaCha20-Poly1305 (the v2 format's
    /// AEAD, `xchachapoly_seal_ns`) and libsodium's AES-256-GCM with an expanded key (the v3
    /// format's, `aes256gcm_seal_ns`, where the CPU runs it: the floor of `seal_alone_ns` there).
    private func measureCipherAlone(_ workload: LogWorkload, _ keys: PayloadKeys, into report: inout BenchmarkReport) throws {
        let count = min(events, 200_000)
        var random = SplitMix64(seed: 99)
        var requests = (1...count).map { n in AppendRequest(stream: workload.stream(n), events: [workload.event(n, random: &random)]) }
        var clock = Stopwatch()
        for index in requests.indices { try keys.seal(&requests[index]) }
        report.set("seal_alone_ns", clock.seconds / Double(count) * 1e9)
        clock = Stopwatch()
        var bytes = 0
        for (n, request) in requests.enumerated() {
            let event = request.events[0]
            let envelope = EventEnvelope(
                position: Position(UInt64(n + 1)), stream: request.stream, streamVersion: 0, recordedAt: event.occurredAt,
                header: EventHeader(eventId: event.eventId, type: event.type, schemaVersion: 1, subject: event.subject, occurredAt: event.occurredAt))
            try keys.withOpened(envelope, event.payload.span) { (plaintext) throws(LogbookError) in bytes &+= plaintext?.count ?? 0 }
        }
        report.set("open_alone_ns", clock.seconds / Double(count) * 1e9)
        let key = Crypto.SymmetricKey(size: .bits256)
        let nonce = ChaChaPoly.Nonce()
        let payload = workload.event(1, random: &random).payload
        clock = Stopwatch()
        for _ in 0..<count { bytes &+= try ChaChaPoly.seal(payload, using: key, nonce: nonce).ciphertext.count }
        report.set("chachapoly_seal_ns", clock.seconds / Double(count) * 1e9)
        let sodiumKey = try Sodium.SymmetricKey.random()
        let sodiumNonce = try RandomBytes.make(XChaCha20Poly1305.nonceBytes)
        let aad = [UInt8](repeating: 7, count: 40)
        clock = Stopwatch()
        for _ in 0..<count {
            bytes &+= try XChaCha20Poly1305.seal(payload.span, key: sodiumKey, nonce: sodiumNonce.span, authenticating: aad.span).count
        }
        report.set("xchachapoly_seal_ns", clock.seconds / Double(count) * 1e9)
        if AES256GCM.isAvailable {
            let prepared = try sodiumKey.preparedForAES256GCM()
            let gcmNonce = try RandomBytes.make(AES256GCM.nonceBytes)
            let none: [UInt8] = []
            clock = Stopwatch()
            for _ in 0..<count {
                bytes &+= try AES256GCM.seal(payload.span, key: prepared, nonce: gcmNonce.span, authenticating: aad.span, prefixedBy: none.span).count
            }
            report.set("aes256gcm_seal_ns", clock.seconds / Double(count) * 1e9)
        }
        precondition(bytes > 0)
    }

    /// Scans the whole log, decoding every envelope and verifying every checksum.
    private func scanAll(_ store: LMDBEventStore) throws -> (Double, Int) {
        let clock = Stopwatch()
        var count = 0
        var payloadBytes = 0
        try store.scan(chunkSize: 65_536) { envelope, _, payload in
            count += 1
            payloadBytes &+= payload.count &+ Int(truncatingIfNeeded: envelope.streamVersion)
            return true
        }
        precondition(payloadBytes > 0 || count == 0)
        return (clock.seconds, count)
    }
}

/// A benchmark found something wrong with what it measured.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
