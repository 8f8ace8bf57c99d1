/// One question a user's read models answer, declared as a value beside the read model that
/// answers it: which cache keeps its answers, the parameters that tell answers apart, what an
/// answer costs to keep, and the read itself (one transaction, or memory for as-of answers).
///
/// The embedded `Logbook` answers any of them the same way (`Logbook.answer(_:user:asOf:)`):
/// cached with exact invalidation, or folded in memory as of a past moment, on the query threads
/// and charged to the user. A new query is therefore one declaration in its read model's file,
/// not a method of its own in every layer.
public struct ReadQuery<Answer: Sendable>: Sendable {
    /// The cache that keeps the answers; its read models are the ones the read may touch.
    public let cached: CachedQuery
    /// The parameters, as the part of the cache key that tells one answer from another of the same user.
    public let parameters: String
    /// What keeping an answer costs the cache, in bytes (an estimate).
    package let cost: @Sendable (Answer) -> Int
    /// The read: the answer for `user` from the read models, in `txn` (nil: in memory).
    package let read: @Sendable (inout ReadModelSet, String, (any TableReader)?) throws -> Answer

    /// A query kept in `cached` under `parameters`, costing `cost` bytes an answer, read by `read`.
    package init(
        _ cached: CachedQuery, parameters: String, cost: @escaping @Sendable (Answer) -> Int,
        read: @escaping @Sendable (inout ReadModelSet, String, (any TableReader)?) throws -> Answer
    ) {
        self.cached = cached
        self.parameters = parameters
        self.cost = cost
        self.read = read
    }
}
