/// CPU-heavy work a request does for one user besides reading the read models — encoding or
/// drawing an answer, turning a page of their events into JSON — runs where uncached queries run:
/// on the query threads, in the user's turn and charged to the user's CPU budget, never on the
/// pool that serves every request.
extension Logbook {
    /// Runs `body` on the query threads for `user` and returns what it returns.
    ///
    /// `admitted` says that this step follows work of the same request that was already admitted
    /// (the query whose answer it encodes): it waits its turn and is charged, but is not refused,
    /// so an answer computed is never thrown away for the encoding. A first step (`admitted`
    /// false) is refused with ``LogbookError/Code/busy`` as a query is, when the user has as much
    /// waiting as allowed or has spent their budget.
    public func work<T: Sendable>(for user: String, admitted: Bool = true, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await queryWork.run(user: user, continuing: admitted, body)
    }
}
