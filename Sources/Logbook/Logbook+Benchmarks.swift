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

    /// Turns the query caches on or off (off: every query is computed).
    package func setCaching(_ enabled: Bool) { cache.setEnabled(enabled) }
}
