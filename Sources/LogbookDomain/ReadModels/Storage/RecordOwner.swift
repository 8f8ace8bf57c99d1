import BinaryCoding

/// A user whose records are to be forgotten, with the ids of the workouts they recorded: what
/// ``TableKey/prefixes(ownedBy:)`` needs to name every record of theirs.
///
/// Every record of a read model belongs to one user or to no one. A user's own records are keyed
/// by the user's id first; a workout's records are keyed by the workout's id first and belong to
/// the user who recorded it (a workout's stream only ever holds its user's events); the shared
/// catalog's records belong to no one. So forgetting a user deletes a few key ranges from each
/// table, and costs what the user owns, not what the tables hold.
package struct RecordOwner: Sendable, Hashable {
    package var user: String
    package var workoutIds: [String]

    package init(user: String, workoutIds: [String]) {
        self.user = user
        self.workoutIds = workoutIds
    }

    /// The one prefix of the keys that start with the user's id.
    var userPrefixes: [[UInt8]] { [Self.prefix(user)] }

    /// The prefixes of the keys that start with one of the user's workouts' ids.
    var workoutPrefixes: [[UInt8]] { workoutIds.map(Self.prefix) }

    /// The bytes every key whose first component is `id` starts with.
    private static func prefix(_ id: String) -> [UInt8] {
        var writer = ByteWriter(capacity: id.utf8.count + 1)
        writer.keyString(id)
        return writer.bytes
    }
}

extension ReadModel {
    /// The key prefixes of `owner`'s records in each of the read model's tables (by table name;
    /// empty for a table whose records no user owns).
    static func ownedPrefixes(_ owner: RecordOwner) -> [(table: String, prefixes: [[UInt8]])] {
        var model = Self(ReadModelTables(inMemory: ()))
        var finder = OwnedPrefixes(owner: owner)
        try? model.visitTables(&finder)
        return finder.found
    }
}

extension ReadModelKind {
    /// The key prefixes of `owner`'s records in each of the read model's tables, by table name.
    package func ownedPrefixes(_ owner: RecordOwner) -> [(table: String, prefixes: [[UInt8]])] {
        ReadModelRegistry.model(self).ownedPrefixes(owner)
    }
}

private struct OwnedPrefixes: TableVisitor {
    let owner: RecordOwner
    var found: [(table: String, prefixes: [[UInt8]])] = []

    mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) {
        found.append((table.name, Key.prefixes(ownedBy: owner)))
    }
}
