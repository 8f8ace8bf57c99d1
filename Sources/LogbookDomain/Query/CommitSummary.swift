import EventLog

/// What one commit changed, for the query caches: which users' data, by which event types.
struct CommitSummary: Sendable {
    var position: UInt64 = 0
    /// Users whose events were committed, with the types of those events.
    var users: [String: EventTypeSet] = [:]
    /// Catalog events change every user's places.
    var catalogChanged = false
    var isEmpty: Bool { users.isEmpty && !catalogChanged }

    /// Notes what a folded event changes.
    mutating func add(_ fold: FoldEvent) {
        if let user = fold.envelope.subject {
            users[user, default: EventTypeSet()].insert(fold.event.type)
        } else if fold.event.type.family == .catalog {
            catalogChanged = true
        }
    }
}
