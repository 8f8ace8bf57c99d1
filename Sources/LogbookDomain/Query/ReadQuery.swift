/// One question a user's read models answer, declared as a value beside the read model that
/// answers it: which cache keeps its answers, the parameters that tell answers apart, what an
/// answer costs to keep, and the read itself (one transaction, or memory for as-of answers).
///
/// The embedded `Logbook` answers any of them the same way (`Logbook.answer(_:user:asOf:)`):
/// cached with exact invalidation, or folded in memory as of a past moment, on the query threads
/// and charged to the user. A new query is therefore one declaration in its read model's file,
/// not a method of its own in every layer.
public struct ReadQuery<Answer: Sendable>: Sendable {
    /// The query's name, unique among the queries of its cache: the first word of its cache key,
    /// so two queries kept in one cache never share an entry.
    public let name: String
    /// The cache that keeps the answers; its read models are the ones the read may touch.
    public let cached: CachedQuery
    /// The parameters, as the part of the cache key that tells one answer from another of the
    /// same user and query (each parameter written so that no two values read alike).
    public let parameters: String
    /// What keeping an answer costs the cache, in bytes (an estimate).
    package let cost: @Sendable (Answer) -> Int
    /// The read: the answer for `user` from the read models, in `txn` (nil: in memory).
    package let read: @Sendable (inout ReadModelSet, String, (any TableReader)?) throws -> Answer

    /// The query `name`, kept in `cached` under `parameters`, costing `cost` bytes an answer, read by `read`.
    package init(
        _ name: String, cached: CachedQuery, parameters: String, cost: @escaping @Sendable (Answer) -> Int,
        read: @escaping @Sendable (inout ReadModelSet, String, (any TableReader)?) throws -> Answer
    ) {
        self.name = name
        self.cached = cached
        self.parameters = parameters
        self.cost = cost
        self.read = read
    }
}
