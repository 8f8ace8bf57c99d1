import BinaryCoding
import Crypto
import EventLog
package import LMDB
package import LogbookDomain

/// Where the read models live: their LMDB databases (beside the log, in its environment, or in
/// a scratch environment for `verify`) and the meta table holding each projection's checkpoint,
/// code version and state.
///
/// Each read model has two sets of tables. Queries read the **live** set; a background upgrade
/// builds the **next** set beside it (its own checkpoint, `<name>~next`) and, once caught up,
/// makes it live in one write transaction by flipping which set is live (the meta record
/// ``Slots``) — so a reader sees one complete version or the other, never a half-built one. The
/// set that was live is emptied afterwards.
package struct ReadModelStore: Sendable {
    package let environment: Environment
    /// Each slot's databases (slot 0: `rm.<name>.<table>`; slot 1: the same with `~1`), per read model.
    let databases: [[ReadModelKind: [String: Database]]]
    /// Each slot's tables for every read model, in registry order.
    private let tables: [[ReadModelTables]]
    package let meta: Database

    package init(environment: Environment) throws {
        self.environment = environment
        var slots: [[ReadModelKind: [String: Database]]] = []
        for slot in 0..<2 {
            var databases: [ReadModelKind: [String: Database]] = [:]
            for kind in ReadModelKind.allCases {
                var tables: [String: Database] = [:]
                for table in kind.tableNames {
                    let name = databaseName(projection: kind.rawValue, table: table) + (slot == 0 ? "" : "~1")
                    do {
                        tables[table] = try environment.openDatabase(named: name)
                    } catch let error as LMDBError where error.code == .notFound && slot == 1 {
                        // A read-only open of a store that never upgraded in the background: its
                        // second set was never made, and nothing reads it.
                        tables = slots[0][kind]!
                        break
                    }
                }
                databases[kind] = tables
            }
            slots.append(databases)
        }
        databases = slots
        tables = slots.map { slot in ReadModelKind.allCases.map { ReadModelTables(databases: slot[$0]!.mapValues(StoredTable.init)) } }
        meta = try environment.openDatabase(named: "rm.meta")
    }

    // MARK: Which set is live

    /// Which of its two sets of tables each read model reads and folds into live.
    package struct Slots: Sendable, Hashable {
        /// The read models whose live tables are the second set.
        package var second: Set<ReadModelKind> = []

        package init(second: Set<ReadModelKind> = []) { self.second = second }

        /// The slot (0 or 1) of `kind`'s live tables, or of its next ones.
        func slot(_ kind: ReadModelKind, _ build: Build) -> Int {
            (second.contains(kind) ? 1 : 0) ^ (build == .next ? 1 : 0)
        }
    }

    /// Which set of a read model's tables something reads or writes.
    package enum Build: Sendable, Hashable {
        /// The tables queries read and commits fold into.
        case live
        /// The tables a background upgrade builds beside them.
        case next
    }

    private static let slotsKey = Array("~slots".utf8)

    /// Which set of tables is live for each read model, as `txn` sees it.
    package func slots(_ txn: ReadTransaction) throws -> Slots {
        try txn.get(meta, key: Self.slotsKey.span) { span -> Slots in
            let names = String(decoding: span.copiedBytes(), as: UTF8.self).split(separator: ",")
            return Slots(second: Set(names.compactMap { ReadModelKind(rawValue: String($0)) }))
        } ?? Slots()
    }

    private func setSlots(_ slots: Slots, _ txn: WriteTransaction) throws {
        if slots.second.isEmpty {
            _ = try txn.delete(meta, key: Self.slotsKey.span)
        } else {
            let names = slots.second.sorted().map(\.rawValue).joined(separator: ",")
            try txn.put(meta, key: Self.slotsKey.span, value: Array(names.utf8).span)
        }
    }

    /// Read models over the tables `slots` names: the live ones, except the kinds in `next`,
    /// which are over their next tables. Every one is active unless `active` says otherwise.
    package func projectionSet(_ slots: Slots, next: Set<ReadModelKind> = [], active: Set<ReadModelKind>? = nil) -> ReadModelSet {
        let chosen = ReadModelKind.allCases.enumerated().map { index, kind in
            tables[slots.slot(kind, next.contains(kind) ? .next : .live)][index]
        }
        return ReadModelSet(tables: chosen, active: active)
    }

    /// The live read models, as `txn` sees them.
    package func projectionSet(_ txn: ReadTransaction, active: Set<ReadModelKind>? = nil) throws -> ReadModelSet {
        projectionSet(try slots(txn), active: active)
    }

    /// Makes the next tables of `kinds` live, their checkpoint at `position`, in `txn`: readers
    /// that began before see the old version whole, readers after the new one. The tables that
    /// were live are left for ``clearNext(_:_:)`` to empty once this commits.
    package func switchToNext(_ kinds: Set<ReadModelKind>, at position: UInt64, _ txn: WriteTransaction) throws {
        let old = try slots(txn)
        let slots = Slots(second: old.second.symmetricDifference(kinds))
        for kind in kinds {
            _ = try txn.delete(meta, key: Self.key(kind, .live, old).span)
            _ = try txn.delete(meta, key: Self.key(kind, .next, old).span)
            try put(.init(position: position, codeVersion: kind.codeVersion, rebuilding: false), key: Self.key(kind, .live, slots), txn)
        }
        try setSlots(slots, txn)
    }

    /// Empties the next tables of `kinds` (after a switch: the old version's) and forgets their
    /// next checkpoint.
    package func clearNext(_ kinds: Set<ReadModelKind>, _ txn: WriteTransaction) throws {
        for kind in kinds {
            try clear(kind, .next, txn)
            _ = try txn.delete(meta, key: Self.key(kind, .next, Slots()).span)
        }
    }

    // MARK: Checkpoints

    /// A projection's checkpoint: how far it has folded the log, with which code, and whether a
    /// rebuild is under way.
    package struct Checkpoint: Sendable, Hashable {
        package var position: UInt64
        package var codeVersion: Int
        package var rebuilding: Bool

        package init(position: UInt64, codeVersion: Int, rebuilding: Bool) {
            self.position = position
            self.codeVersion = codeVersion
            self.rebuilding = rebuilding
        }
    }

    /// The meta key of a read model's live checkpoint — its name while the first set is live,
    /// `<name>~1` while the second is (so a build from before the second set existed finds no
    /// checkpoint and rebuilds, rather than trusting the first set, emptied by the switch) — or
    /// of its next one (`<name>~next`).
    private static func key(_ kind: ReadModelKind, _ build: Build, _ slots: Slots) -> [UInt8] {
        switch build {
        case .next: Array((kind.rawValue + "~next").utf8)
        case .live: Array((slots.second.contains(kind) ? kind.rawValue + "~1" : kind.rawValue).utf8)
        }
    }

    /// The checkpoint of `kind`'s live tables (nil: none yet).
    package func checkpoint(_ kind: ReadModelKind, _ txn: ReadTransaction) throws -> Checkpoint? {
        try checkpoint(kind, .live, txn)
    }

    /// True if a rebuild owns none of `kinds`' live tables in `txn` and each has folded through
    /// `position`: a rebuild in place empties them and marks them as rebuilding in one commit,
    /// and unmarks them in the commit that catches them up, so in between they hold part of the
    /// log; read models that follow a log come back from a rebuild where it stopped, behind the
    /// others until they catch up.
    package func whole(_ kinds: Set<ReadModelKind>, through position: UInt64 = 0, _ txn: ReadTransaction) throws -> Bool {
        // Asked before every command: the live slots are read once, not once per read model.
        let slots = try slots(txn)
        return try kinds.allSatisfy { kind in
            guard let checkpoint = try storedCheckpoint(kind, key: Self.key(kind, .live, slots), txn) else { return true }
            return !checkpoint.rebuilding && checkpoint.position >= position
        }
    }

    package func setCheckpoint(_ kind: ReadModelKind, _ checkpoint: Checkpoint, _ txn: WriteTransaction) throws {
        try setCheckpoint(kind, .live, checkpoint, txn)
    }

    /// The checkpoint of `kind`'s live tables or of its next ones (nil: none yet).
    package func checkpoint(_ kind: ReadModelKind, _ build: Build, _ txn: ReadTransaction) throws -> Checkpoint? {
        try storedCheckpoint(kind, key: Self.key(kind, build, build == .live ? try slots(txn) : Slots()), txn)
    }

    /// The checkpoint of `kind` stored under `key` (nil: none yet).
    private func storedCheckpoint(_ kind: ReadModelKind, key: [UInt8], _ txn: ReadTransaction) throws -> Checkpoint? {
        try txn.get(meta, key: key.span) { span in
            var o = 0
            do {
                return Checkpoint(
                    position: try ByteReader.varint(span, &o), codeVersion: try ByteReader.int(span, &o),
                    rebuilding: try ByteReader.byte(span, &o) == 1)
            } catch {
                throw LogbookError.storage("undecodable checkpoint of \(kind.rawValue): \(error)")
            }
        }
    }

    package func setCheckpoint(_ kind: ReadModelKind, _ build: Build, _ checkpoint: Checkpoint, _ txn: WriteTransaction) throws {
        try put(checkpoint, key: Self.key(kind, build, build == .live ? try slots(txn) : Slots()), txn)
    }

    /// Moves the live checkpoints of `kinds` to `position` (not rebuilding), each with the code
    /// version `codeVersion` gives: what every commit folded inline or followed does.
    package func setLiveCheckpoints(
        _ kinds: some Sequence<ReadModelKind>, position: UInt64, codeVersion: (ReadModelKind) -> Int, _ txn: WriteTransaction
    ) throws {
        let slots = try slots(txn)
        for kind in kinds {
            try put(.init(position: position, codeVersion: codeVersion(kind), rebuilding: false), key: Self.key(kind, .live, slots), txn)
        }
    }

    private func put(_ checkpoint: Checkpoint, key: [UInt8], _ txn: WriteTransaction) throws {
        var w = ByteWriter(capacity: 16)
        w.varint(checkpoint.position)
        w.varint(UInt64(checkpoint.codeVersion))
        w.byte(checkpoint.rebuilding ? 1 : 0)
        try txn.put(meta, key: key.span, value: w.bytes.span)
    }

    /// Empties a projection's live tables, or its next ones.
    package func clear(_ kind: ReadModelKind, _ build: Build, _ txn: WriteTransaction) throws {
        let slot = try slots(txn).slot(kind, build)
        for database in databases[slot][kind]!.values { try txn.clear(database) }
    }

    // MARK: Digests

    /// Every read model's checkpoint (nil before its first fold) and digest, in registry order,
    /// as they stand in `txn`.
    package func checkpointsAndDigests(_ txn: ReadTransaction) throws -> [(kind: ReadModelKind, checkpoint: Checkpoint?, sha256: String)] {
        try ReadModelKind.allCases.map { kind in (kind, try checkpoint(kind, txn), try digest(kind, txn)) }
    }

    /// Visits every record of `kind`'s live tables: each table by name (`table`), then its
    /// records in key order (`record`).
    package func forEachLiveRecord(
        _ kind: ReadModelKind, _ txn: ReadTransaction, table: (String) throws -> Void,
        record: (_ key: Span<UInt8>, _ value: Span<UInt8>) throws -> Void
    ) throws {
        let slot = try slots(txn).slot(kind, .live)
        for name in kind.tableNames.sorted() {
            try table(name)
            try txn.withCursor(databases[slot][kind]![name]!) { cursor in
                var more = try cursor.first()
                while more {
                    try cursor.withCurrent { key, value in try record(key, value) }
                    more = try cursor.next()
                }
            }
        }
    }

    /// SHA-256 of a projection's canonical bytes: for each table (by name), every key and value
    /// in key order, each prefixed with its length. Identical whatever the history of writes.
    package func digest(_ kind: ReadModelKind, _ txn: ReadTransaction) throws -> String {
        var hasher = SHA256()
        func feed(_ bytes: [UInt8]) {
            let length = UInt32(bytes.count)
            hasher.update(data: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
            hasher.update(data: bytes)
        }
        feed(Array("\(kind.rawValue) v\(kind.codeVersion)".utf8))
        try forEachLiveRecord(kind, txn, table: { feed(Array($0.utf8)) }) { key, value in
            feed(key.copiedBytes())
            feed(value.copiedBytes())
        }
        return hasher.finalize().hex
    }
}
