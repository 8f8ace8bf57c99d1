import DemoData
import EventLog
import Foundation
import Logbook
import LMDB

/// The raw-LMDB baseline: the same encoded records put with `MDB_APPEND` under big-endian
/// position keys and scanned with a plain cursor, through the wrapper, with no event-log logic
/// and no indexes.
struct RawLogBaseline {
    let workload: LogWorkload
    let environment: Environment
    let events: Database

    init(workload: LogWorkload, path: String) throws {
        self.workload = workload
        var options = EnvironmentOptions()
        options.initialMapSize = 1 << 30
        environment = try Environment(path: path, options: options)
        events = try environment.openDatabase(named: "events")
    }

    /// Encodes and appends events `range` of the workload in one transaction.
    func append(_ range: ClosedRange<Int>, random: inout SplitMix64) throws {
        var encoder = BenchmarkRecordEncoder()
        try environment.write { txn in
            for n in range {
                Self.encode(n, of: workload, random: &random, into: &encoder)
                try txn.put(events, key: UInt64(n), value: encoder.bytes.span, options: .append)
            }
        }
    }

    /// Encodes event `n` of `workload` as the log stores it at position `n` (its stream's and
    /// subject's earlier events `streams` and `subjects` positions back): the records every
    /// baseline writes.
    static func encode(_ n: Int, of workload: LogWorkload, random: inout SplitMix64, into encoder: inout BenchmarkRecordEncoder) {
        let event = workload.event(n, random: &random)
        encoder.encode(
            position: UInt64(n), event: event, recordedAt: workload.base,
            typeNumber: UInt32(workload.typeIndex(n) + 1), streamNumber: UInt32(workload.streamIndex(n) + 1),
            streamVersion: UInt64((n - 1) / workload.streams), streamGap: UInt64(workload.streams),
            subjectNumber: UInt32(workload.subjectIndex(n) + 1), subjectSequence: UInt64((n - 1) / workload.subjects),
            subjectGap: UInt64(workload.subjects))
    }

    /// Commits `count` single-record transactions (one fsync each); returns seconds.
    func appendSingles(count: Int, after start: Int, seed: UInt64) throws -> Double {
        var random = SplitMix64(seed: seed)
        var encoder = BenchmarkRecordEncoder()
        let clock = Stopwatch()
        for n in (start + 1)...(start + count) {
            let event = workload.event(n, random: &random)
            encoder.encode(
                position: UInt64(n), event: event, recordedAt: workload.base, typeNumber: 1,
                streamNumber: 1, streamVersion: 1, streamGap: 1, subjectNumber: 1, subjectSequence: 1, subjectGap: 1)
            try environment.write { txn in try txn.put(events, key: UInt64(n), value: encoder.bytes.span, options: .append) }
        }
        return clock.seconds
    }

    /// Scans every record with a cursor, touching each value's length; returns (seconds, records).
    func scan() throws -> (Double, Int) {
        let clock = Stopwatch()
        var count = 0
        var bytes = 0
        try environment.read { txn in
            try txn.withCursor(events) { cursor in
                var more = try cursor.first()
                while more {
                    bytes &+= try cursor.withCurrentValue { $0.count }
                    count += 1
                    more = try cursor.next()
                }
            }
        }
        precondition(bytes > 0 || count == 0)
        return (clock.seconds, count)
    }

    /// Bytes of the map in use.
    var usedBytes: Int { environment.info().usedBytes }

    func close() { environment.close() }
}
