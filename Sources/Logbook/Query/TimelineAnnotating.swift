import EventLog
import LMDB

/// A read model that adds a note to some lines of the audit timeline ("Personal record: longest
/// distance"): the timeline asks every read model that conforms, in registry order, so a read
/// model adds its notes from its own file alone.
protocol TimelineAnnotating: ReadModel {
    /// The note for the event at `position` of `user`, if this read model has one.
    mutating func timelineNote(user: String, position: UInt64, _ txn: ReadTransaction?) throws -> String?
}

extension ProjectionSet {
    /// The notes every annotating read model has for one timeline line, in registry order.
    mutating func timelineNotes(user: String, position: UInt64, _ txn: ReadTransaction?) throws -> [String] {
        var notes: [String] = []
        try forEachMember { member in
            guard var annotating = member as? any TimelineAnnotating else { return }
            if let note = try annotating.timelineNote(user: user, position: position, txn) { notes.append(note) }
            member = annotating
        }
        return notes
    }
}
