import DemoData
import EventLog

/// How the log benchmarks drive a store, whatever its backend: batches with a few in flight, as
/// a server's requests arrive, and durable single-event appends from concurrent writers.
enum BenchmarkDrivers {
    /// Appends the batches `batches` (each made by `requests`, each one `append(batch:)`), with
    /// `depth` of them in flight: one is prepared and sent while another commits.
    static func appendPipelined(
        _ store: some EventStore, batches: Range<Int>, depth: Int, requests: @escaping @Sendable (Int) throws -> [AppendRequest]
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = batches.makeIterator()
            func submitNext() -> Bool {
                guard let batch = pending.next() else { return false }
                group.addTask {
                    for result in try await store.append(batch: requests(batch)) { _ = try result.get() }
                }
                return true
            }
            for _ in 0..<max(depth, 1) where !submitNext() { break }
            while try await group.next() != nil { _ = submitNext() }
        }
    }

    /// Durable single-event appends from `writers` concurrent tasks, `total` in all; returns seconds.
    static func appendConcurrently(_ store: some EventStore, _ workload: LogWorkload, writers: Int, total: Int) async throws -> Double {
        let clock = Stopwatch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    // Seeds apart from the batches' (1…batches), or the events would repeat theirs.
                    var random = SplitMix64(seed: 1 << 40 + UInt64(writers) << 20 + UInt64(writer))
                    var n = writer + 1
                    while n <= total {
                        _ = try await store.append([workload.event(n, random: &random)], to: workload.stream(n))
                        n += writers
                    }
                }
            }
            try await group.waitForAll()
        }
        return clock.seconds
    }

    /// Reads `reads` whole streams chosen at random (each about `events / streams` long); returns
    /// (seconds, events read).
    static func readStreams(_ store: some EventStore, _ workload: LogWorkload, reads: Int) async throws -> (seconds: Double, events: Int) {
        var random = SplitMix64(seed: 3)
        let perStream = max(1, workload.events / workload.streams)
        let clock = Stopwatch()
        var total = 0
        for _ in 0..<reads {
            let stream = workload.stream(Int(random.next() % UInt64(workload.streams)) + 1)
            total += try await store.readStream(stream, from: 0, direction: .forward, limit: perStream).count
        }
        return (clock.seconds, total)
    }

    /// Reads `reads` events at random positions of the workload's log, one read each; returns seconds.
    static func readPoints(_ store: some EventStore, _ workload: LogWorkload, reads: Int) async throws -> Double {
        var random = SplitMix64(seed: 4)
        let clock = Stopwatch()
        for _ in 0..<reads {
            let position = Position(random.next() % UInt64(workload.events) + 1)
            guard try await store.event(at: position) != nil else { throw BenchmarkFailure("no event at \(position)") }
        }
        return clock.seconds
    }
}
