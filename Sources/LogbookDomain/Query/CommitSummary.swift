import EventLog

/// What one commit changed, for the query caches: which users' data, by which event types.
package struct CommitSummary: Sendable {
    package var position: UInt64 = 0
    /// Users whose events were committed, with the types of those events.
    package var users: [String: EventTypeSet] = [:]
    /// Catalog events change every user's places.
    package var catalogChanged = false
    package var isEmpty: Bool { users.isEmpty && !catalogChanged }

    /// Nothing changed yet, as of `position`.
    package init(position: UInt64 = 0) {
        self.position = position
    }

    /// Notes what a folded event changes.
    package mutating func add(_ fold: FoldEvent) {
        if let user = fold.envelope.subject {
            users[user, default: EventTypeSet()].insert(fold.event.type)
        } else if fold.event.type.family == .catalog {
            catalogChanged = true
        }
    }
}
