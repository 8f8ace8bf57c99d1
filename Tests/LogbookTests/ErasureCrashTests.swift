import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LMDB
import LogbookTestSupport
import LogbookTesting
import Testing

/// The erasure's crash window: a process killed after the key's tombstone is committed and before
/// the key store is compacted leaves the key's bytes in a freed LMDB page. The tombstone's
/// transaction records that a compaction is owed, and the next open pays it.
@Suite("Erasure crash window", .serialized)
struct ErasureCrashTests {
    /// The raw bytes stored for `user` in the key store at `path/keys`.
    private func storedKey(of user: String, in path: String) throws -> [UInt8]? {
        var options = EnvironmentOptions()
        options.readOnly = true
        options.maxDatabases = 4
        let environment = try Environment(path: path + "/keys", options: options)
        defer { environment.close() }
        let keys = try environment.openDatabase(named: "user-keys", create: false)
        return try environment.read { txn in try txn.get(keys, key: Array(user.utf8).span) { $0.copiedBytes() } }
    }

    /// The files of the key store that hold `bytes`.
    private func filesHolding(_ bytes: [UInt8], in path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path + "/keys").sorted().filter { file in
            try Data(contentsOf: URL(fileURLWithPath: path + "/keys/" + file)).range(of: Data(bytes)) != nil
        }
    }

    @Test("a child killed (SIGKILL) between the key's tombstone and the key store's compaction: the next open compacts, and the key's bytes are in no file of the key store")
    func killedBetweenTombstoneAndCompaction() async throws {
        try await withTemporaryDirectory { path in
            let logbook = try await Logbook.open(path: path)
            for user in ["gone", "stays"] {
                try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: "Name of \(user)", timeZone: "UTC")))
            }
            await logbook.close()
            let key = try #require(try storedKey(of: "gone", in: path))
            let kept = try #require(try storedKey(of: "stays", in: path))
            #expect(key.count == 32)
            #expect(try filesHolding(key, in: path) == ["data.mdb"], "the test would prove nothing: the key is not in the file to begin with")

            let (status, output) = try await runProgram(testHelperExecutable, ["erase-killed", "--path", path, "--user", "gone"], includeErrors: true)
            #expect(output.contains("tombstone written"), "the child did not reach the crash window: \(output)")
            #expect(status == SIGKILL, "the child was not killed in the window (status \(status)): \(output)")
            // The window is real: the tombstone is committed, and the key's bytes are still in a freed page.
            #expect(try storedKey(of: "gone", in: path) == [])
            #expect(try !filesHolding(key, in: path).isEmpty, "the key's bytes were gone before the open: the crash window was not hit")

            let reopened = try await Logbook.open(path: path)
            await #expect(throws: LogbookError.self) { _ = try await reopened.profile(user: "gone") }
            #expect(try await reopened.profile(user: "stays").displayName == "Name of stays")
            #expect(try reopened.payloads.store?.compactionOwed() == false)
            await reopened.close()
            #expect(try filesHolding(key, in: path).isEmpty, "the erased user's key is still in the key store")
            #expect(try filesHolding(kept, in: path) == ["data.mdb"], "the other user's key was lost")
        }
    }

    @Test("a compaction still owed is paid by the erasure's retry, too (not only on open)")
    func retryPaysAnOwedCompaction() async throws {
        try await withTemporaryDirectory { path in
            let store = try UserKeyStore(directory: path, creatingWith: .current, readOnly: false, durability: .noSync)
            defer { store.close() }
            _ = try store.ensureKeys(for: ["a", "b"])
            try store.withEnvironment { environment in
                // As a cut-off erasure leaves it: the tombstone and the debt, no compaction.
                let keys = try environment.openDatabase(named: "user-keys")
                let meta = try environment.openDatabase(named: "meta")
                try environment.write { txn in
                    try txn.put(keys, key: Array("a".utf8).span, value: [UInt8]().span)
                    try txn.put(meta, key: Array("compaction-owed".utf8).span, value: [UInt8(1)].span)
                }
            }
            #expect(try store.compactionOwed())
            #expect(try store.erase("a") == false, "a was erased already")
            #expect(try store.compactionOwed() == false)
        }
    }
}
