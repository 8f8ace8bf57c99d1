import Foundation
import LogbookTestSupport
import LogbookTesting
import LMDB
import Testing

/// A value put as two parts copied straight into the space LMDB reserves for it.
@Suite("LMDB put of a value in two parts")
struct ConcatenatingPutTests {
    @Test("each value reads back as its two parts joined, whatever their lengths, on a page or on overflow pages")
    func roundTrip() async throws {
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            defer { env.close() }
            let db = try env.openDatabase(named: "records")
            // Lengths across the empty part, word boundaries, the longest record head and values larger than a page.
            let lengths = [0, 1, 7, 8, 9, 116, 4_000, 20_000]
            var expected: [UInt64: [UInt8]] = [:]
            try env.write { txn in
                try txn.withCursor(db) { cursor in
                    var key: UInt64 = 0
                    for first in lengths {
                        for second in lengths {
                            key += 1
                            // Bytes that differ by key and by part, so a swapped or shifted part shows.
                            let a = (0..<first).map { UInt8(truncatingIfNeeded: Int(key) &* 31 &+ $0 &* 7) }
                            let b = (0..<second).map { UInt8(truncatingIfNeeded: Int(key) &* 17 &+ $0 &* 13 &+ 5) }
                            try cursor.put(key: key, concatenating: a.span, b.span, options: .append)
                            expected[key] = a + b
                        }
                    }
                }
            }
            let stored = try env.read { txn in
                try expected.keys.map { key in (key, try txn.get(db, key: key) { $0.copiedBytes() }) }
            }
            #expect(stored.count == lengths.count * lengths.count)
            for (key, bytes) in stored { #expect(bytes == expected[key], "key \(key)") }
        }
    }

    @Test("an append below the last key is LMDB's key-exists error and the transaction writes nothing")
    func appendOutOfOrderRefused() async throws {
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            defer { env.close() }
            let db = try env.openDatabase(named: "records")
            let part: [UInt8] = [1, 2, 3]
            #expect {
                try env.write { txn in
                    try txn.withCursor(db) { cursor in
                        try cursor.put(key: 5, concatenating: part.span, part.span, options: .append)
                        try cursor.put(key: 3, concatenating: part.span, part.span, options: .append)
                    }
                }
            } throws: { error in
                (error as? LMDBError)?.code == .keyExists && (error as? LMDBError)?.operation.contains("records") == true
            }
            #expect(try env.read { txn in try txn.get(db, key: 5) { $0.count } } == nil)
        }
    }

    @Test("a cursor used after its transaction's closure is a typed error, not a write into freed pages")
    func finishedCursorRefused() async throws {
        try await withTemporaryDirectory { path in
            let env = try Environment(path: path)
            defer { env.close() }
            let db = try env.openDatabase(named: "records")
            let escaped = try env.write { txn in try txn.withCursor(db) { $0 } }
            let part: [UInt8] = [9]
            #expect(throws: LMDBUsageError.transactionFinished) {
                try escaped.put(key: 1, concatenating: part.span, part.span)
            }
        }
    }
}
