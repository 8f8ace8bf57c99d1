import EventLog

extension Logbook {
    /// Restores the events of `source` at positions 1 through `end` into this Logbook, in order,
    /// in chunks of `chunkSize`, as ``restore(_:)`` restores an import: ids, times and metadata
    /// kept, each payload opened with the source's keys and sealed with this store's, erased
    /// users' events carried as tombstones. `progress` hears the last position restored.
    @discardableResult
    public func restore(
        from source: Logbook, through end: UInt64, chunkSize: Int = 4_096, progress: (UInt64) -> Void = { _ in }
    ) async throws -> RestoreReport {
        var report = RestoreReport()
        var done: UInt64 = 0
        while done < end {
            let through = min(done + UInt64(max(chunkSize, 1)), end)
            var events: [WireEvent] = []
            try await source.loadKeys(openingEventsAfter: Position(done), through: Position(through))
            try await source.log.scan(after: Position(done), through: Position(through), filter: .all, chunkSize: chunkSize) {
                envelope, metadata, payload in
                events.append(try WireEvent(envelope: envelope, metadata: metadata, payload: payload, of: source))
                return true
            }
            let chunk = try await restore(events)
            report.written += chunk.written
            report.alreadyPresent += chunk.alreadyPresent
            done = through
            progress(done)
        }
        return report
    }
}
