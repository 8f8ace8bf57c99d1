import Foundation
import LogbookTestSupport
import LogbookTesting
import LMDB
import Testing

@Suite("LMDB environment")
struct EnvironmentTests {
    @Test("put, get and cursor round trip in a real environment")
    func roundTrip() async throws {
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            defer { env.close() }
            let db = try env.openDatabase(named: "numbers")
            try env.write { txn in
                for key: UInt64 in [3, 1, 2] {
                    try txn.put(db, key: key, value: Array("value \(key)".utf8).span)
                }
            }
            let value = try env.read { txn in try txn.get(db, key: 2) { $0.copiedBytes() } }
            #expect(value.map { String(decoding: $0, as: UTF8.self) } == "value 2")
            let missing = try env.read { txn in try txn.get(db, key: 9) { $0.count } }
            #expect(missing == nil)
            let keys = try env.read { txn in
                try txn.withCursor(db) { cursor in
                    var keys: [UInt64] = []
                    var more = try cursor.first()
                    while more {
                        keys.append(cursor.currentKey ?? 0)
                        more = try cursor.next()
                    }
                    return keys
                }
            }
            #expect(keys == [1, 2, 3])
        }
    }

    @Test("a throw inside write rolls everything back")
    func rollback() async throws {
        struct Abort: Error {}
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            defer { env.close() }
            let db = try env.openDatabase(named: "data")
            #expect(throws: Abort.self) {
                try env.write { txn in
                    try txn.put(db, key: 1, value: [1, 2, 3].span)
                    throw Abort()
                }
            }
            #expect(try env.read { txn in try txn.get(db, key: 1) { $0.count } } == nil)
        }
    }

    @Test("LMDB errors carry the code, LMDB's own message and the operation")
    func errorsCarryLMDBMessage() async throws {
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            defer { env.close() }
            let db = try env.openDatabase(named: "data")
            let tooLong = [UInt8](repeating: 7, count: 600)
            do {
                try env.write { txn in try txn.put(db, key: tooLong.span, value: [1].span) }
                Issue.record("a 600-byte key was accepted")
            } catch let error as LMDBError {
                #expect(error.code == .badValueSize)
                #expect(error.message.contains("MDB_BAD_VALSIZE"))
                #expect(error.operation.contains("mdb_put(data)"))
            }
            try env.write { txn in try txn.put(db, key: 5, value: [1].span, options: .append) }
            do {
                try env.write { txn in try txn.put(db, key: 4, value: [1].span, options: .append) }
                Issue.record("an out-of-order MDB_APPEND was accepted")
            } catch let error as LMDBError {
                #expect(error.code == .keyExists)
                #expect(error.message.contains("MDB_KEYEXIST"))
            }
        }
    }

    @Test("opening the same environment twice in one process is refused")
    func secondOpenRefused() async throws {
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            #expect(throws: LMDBUsageError.alreadyOpenInProcess(path: path)) { try Environment(path: path) }
            env.close()
            let reopened = try Environment(path: path)
            reopened.close()
        }
    }

    @Test("a transaction used after its closure is a typed error, not a crash")
    func escapedTransaction() async throws {
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            defer { env.close() }
            let db = try env.openDatabase(named: "data")
            let escaped = try env.read { txn in txn }
            #expect(throws: LMDBUsageError.transactionFinished) { try escaped.get(db, key: 1) { $0.count } }
        }
    }

    @Test("the map grows by itself from 1 MiB")
    func mapGrows() async throws {
        try await withTemporaryDirectory { path in
            var options = EnvironmentOptions()
            options.initialMapSize = 1 << 20
            let env = try Environment(path: path, options: options)
            defer { env.close() }
            let db = try env.openDatabase(named: "data")
            let value = [UInt8](repeating: 42, count: 1000)
            var key: UInt64 = 0
            for _ in 0..<40 {
                try env.write { txn in
                    for offset in 0..<1000 { try txn.put(db, key: key + UInt64(offset), value: value.span, options: .append) }
                }
                key += 1000
            }
            #expect(env.mapSize > 40_000_000)
            let count = try env.read { txn in try txn.statistics(db).entries }
            #expect(count == 40_000)
        }
    }

    @Test("a growth limit turns into MDB_MAP_FULL with the limit named")
    func growthLimit() async throws {
        try await withTemporaryDirectory { path in
            var options = EnvironmentOptions()
            options.initialMapSize = 1 << 20
            options.maxMapSize = 2 << 20
            let env = try Environment(path: path, options: options)
            defer { env.close() }
            let db = try env.openDatabase(named: "data")
            let value = [UInt8](repeating: 1, count: 4000)
            do {
                try env.write { txn in
                    for key in 0..<UInt64(2000) { try txn.put(db, key: key, value: value.span, options: .append) }
                }
                Issue.record("8 MB fit in a 2 MiB map")
            } catch let error as LMDBError {
                #expect(error.code == .mapFull)
                #expect(error.message.contains("2097152"))
            }
            #expect(try env.read { txn in try txn.statistics(db).entries } == 0)
        }
    }

    @Test("a read-only environment refuses writes")
    func readOnly() async throws {
        try await withTemporaryDirectory { path in
            let writer = try Environment(path: path)
            _ = try writer.openDatabase(named: "data")
            writer.close()
            var options = EnvironmentOptions()
            options.readOnly = true
            let reader = try Environment(path: path, options: options)
            defer { reader.close() }
            #expect(throws: LMDBUsageError.readOnlyEnvironment(path: path)) { try reader.write { _ in } }
        }
    }
}
