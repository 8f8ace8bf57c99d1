package import LMDB
package import LogbookDomain

extension ReadModelStore {
    /// Deletes every record of `owners` from the tables of `kinds`, the live ones and the next
    /// ones (an upgrade stopped midway may hold them too): in each table, the key ranges its key
    /// type says a user owns (``RecordOwner``). Returns how many records went.
    ///
    /// It costs what the owners own — one seek per range, then their records — whatever the
    /// tables hold besides. Both sets of tables must be of the running code's version (their keys
    /// are read by its key types).
    package func forget(_ owners: [RecordOwner], in kinds: Set<ReadModelKind>, _ txn: WriteTransaction) throws -> Int {
        var forgotten = 0
        for kind in kinds.sorted() {
            for owner in owners {
                for (table, prefixes) in kind.ownedPrefixes(owner) where !prefixes.isEmpty {
                    // A read-only store that never upgraded shares one set: deleting twice finds nothing the second time.
                    for slot in databases.indices {
                        guard let database = databases[slot][kind]?[table] else { continue }
                        for prefix in prefixes { forgotten += try deleteRange(withPrefix: prefix, in: database, txn) }
                    }
                }
            }
        }
        return forgotten
    }

    /// Deletes the records whose keys start with `prefix`; returns how many.
    private func deleteRange(withPrefix prefix: [UInt8], in database: Database, _ txn: WriteTransaction) throws -> Int {
        var keys: [[UInt8]] = []
        try txn.withCursor(database) { cursor in
            var more = try cursor.seek(atOrAfter: prefix.span)
            while more {
                let key = try cursor.withCurrent { key, _ -> [UInt8]? in
                    guard key.count >= prefix.count else { return nil }
                    for index in prefix.indices where key[index] != prefix[index] { return nil }
                    return key.copiedBytes()
                }
                guard let key else { break }
                keys.append(key)
                more = try cursor.next()
            }
        }
        for key in keys { _ = try txn.delete(database, key: key.span) }
        return keys.count
    }
}
