extension Duration {
    /// The duration in whole microseconds, saturating at `Int64.max` (a retention or time limit
    /// set in code can be anything).
    package var microseconds: Int64 {
        let (seconds, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? .max : seconds.addingReportingOverflow(components.attoseconds / 1_000_000_000_000).partialValue
    }
}
