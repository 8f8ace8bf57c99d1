/// What both log benchmarks (LMDB and PostgreSQL) measure, and the JSON keys they report it
/// under: one place for the keys, which are a contract.
struct LogMeasurements {
    var events: Int
    var appendSeconds = 0.0, rawAppendSeconds = 0.0
    var scanned = 0, scanSeconds = 0.0, rawScanned = 0, rawScanSeconds = 0.0
    var streamEvents = 0, streamSeconds = 0.0, pointReads = 0, pointSeconds = 0.0
    var singleAppends = 0, singleSeconds = 0.0, rawSingleSeconds = 0.0
    var concurrentAppends = 0, concurrentSeconds = 0.0, concurrentTransactions = 0
    var bytesPerEvent = 0.0, rawBytesPerEvent = 0.0

    /// Sets every shared key of `report`.
    func report(into report: inout BenchmarkReport) {
        let appendRate = Double(events) / appendSeconds, rawAppendRate = Double(events) / rawAppendSeconds
        let singleRate = Double(singleAppends) / singleSeconds, concurrentRate = Double(concurrentAppends) / concurrentSeconds
        let scanRate = Double(scanned) / scanSeconds, rawScanRate = Double(rawScanned) / rawScanSeconds
        report.set("append_batched_eps", appendRate)
        report.set("raw_append_batched_eps", rawAppendRate)
        report.set("append_batched_ratio", appendRate / rawAppendRate)
        report.set("durable_1_writer_eps", singleRate)
        report.set("raw_durable_1_writer_eps", Double(singleAppends) / rawSingleSeconds)
        report.set("durable_64_writers_eps", concurrentRate)
        report.set("durable_64_vs_1_ratio", concurrentRate / singleRate)
        report.set("durable_64_events_per_commit", Double(concurrentAppends) / Double(max(concurrentTransactions, 1)))
        report.set("scan_eps", scanRate)
        report.set("raw_scan_eps", rawScanRate)
        report.set("scan_ratio", scanRate / rawScanRate)
        report.set("stream_read_eps", Double(streamEvents) / streamSeconds)
        report.set("point_read_eps", Double(pointReads) / pointSeconds)
        report.set("bytes_per_event", bytesPerEvent)
        report.set("raw_bytes_per_event", rawBytesPerEvent)
        report.set("bytes_ratio", bytesPerEvent / rawBytesPerEvent)
    }
}
