extension Logbook {
    /// Turns the query cache off (every query computed, nothing kept) or back on: for the
    /// projections benchmark, which measures queries both ways. Not part of the public API;
    /// `@_spi(Benchmarks) import Logbook` reaches it.
    @_spi(Benchmarks)
    public func setQueryCaching(_ on: Bool) {
        cache.setEnabled(on)
    }
}
