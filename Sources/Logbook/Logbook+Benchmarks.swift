import EventLog

/// Hooks for the package's own benchmarks (not public API).
extension Logbook {
    /// Decodes every event of the log into domain events without folding them: the baseline
    /// a rebuild is compared with. Returns how many events were decoded.
    package func decodeAll(chunkSize: Int = 65_536) throws -> Int {
        var count = 0
        try log.scan(chunkSize: chunkSize) { envelope, _, payload in
            if try FoldEvent.decode(envelope, payload: payload) != nil { count += 1 }
            return true
        }
        return count
    }

    /// Stops or restarts the inline projections, so appends can be measured with and without
    /// them on the same log. Restarting catches the read models up with what was appended.
    package func setInlineProjections(_ enabled: Bool) async throws {
        inline.withLock { $0?.paused.store(!enabled, ordering: .relaxed) }
        if enabled { try await bringReadModelsUpToDate(progress: { _ in }) }
    }

    /// Stops or restarts the inline projections without catching up (the benchmark alternates
    /// batches with and without them, then calls ``setInlineProjections(_:)``).
    package func setInlineProjectionsQuietly(_ enabled: Bool) async throws {
        inline.withLock { $0?.paused.store(!enabled, ordering: .relaxed) }
    }

    /// Turns the query caches on or off (off: every query is computed).
    package func setCaching(_ enabled: Bool) { cache.setEnabled(enabled) }
}
