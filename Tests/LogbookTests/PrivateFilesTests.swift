import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Testing

/// Every file holding user data is its owner's alone (the Privacy article): 0600 files, 0700
/// directories, whatever the umask — a store, its key store and idempotency answers, a backup, a
/// restore.
@Suite("Files holding user data are private")
struct PrivateFilesTests {
    /// Every file and directory under `root` (itself included) whose mode lets anyone but the owner in.
    static func widerThanOwner(under root: String) throws -> [String] {
        var found: [String] = []
        func check(_ path: String) throws {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.uint32Value ?? 0o777
            let isDirectory = attributes[.type] as? FileAttributeType == .typeDirectory
            if mode & 0o077 != 0 || mode != (isDirectory ? 0o700 : 0o600) { found.append("\(path) \(String(mode, radix: 8))") }
        }
        try check(root)
        for relative in FileManager.default.subpaths(atPath: root) ?? [] { try check(root + "/" + relative) }
        return found
    }

    @Test("a store, its backup and a restore of it hold only 0600 files in 0700 directories, even under umask 000")
    func storeBackupRestore() async throws {
        let previous = umask(0)
        defer { umask(previous) }
        try await withTemporaryDirectory { directory in
            let store = directory + "/store", backup = directory + "/backup", restored = directory + "/restored"
            var configuration = LogbookConfiguration()
            configuration.log.durability = .relaxed
            let logbook = try await Logbook.open(path: store, configuration: configuration)
            do {
                let profile = UserRegistered(displayName: "Ana", timeZone: "Europe/Berlin", weekStart: .monday, units: .metric)
                _ = try await logbook.execute(.registerUser(user: "ana", profile), context: when("2026-11-20T08:00:00Z"))
                _ = try await logbook.verify()
                _ = try await logbook.backup(to: backup)
            } catch {
                await logbook.close()
                throw error
            }
            await logbook.close()
            _ = try await Logbook.restore(backup: backup, to: restored)
            for root in [store, backup, restored] {
                #expect(try Self.widerThanOwner(under: root) == [], "\(root)")
            }
        }
    }

    @Test("a store made before files were private is narrowed to 0600 when opened for writing")
    func oldStoresAreNarrowed() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory + "/store"
            try await withLogbookAt(store) { _ in }
            for name in ["data.mdb", "lock.mdb"] {
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store + "/" + name)
            }
            try await withLogbookAt(store) { _ in }
            for name in ["data.mdb", "lock.mdb"] {
                let mode = try FileManager.default.attributesOfItem(atPath: store + "/" + name)[.posixPermissions] as? NSNumber
                #expect(mode?.uint32Value == 0o600, "\(name)")
            }
        }
    }

    @Test("scratch directories are made 0700 under any umask")
    func scratchDirectories() throws {
        let previous = umask(0)
        defer { umask(previous) }
        let path = try PrivateFiles.temporaryDirectory(prefix: "logbook-private-test-")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try Self.widerThanOwner(under: path) == [])
        #expect(PrivateFiles.createFile(atPath: path + "/f"))
        #expect(try Self.widerThanOwner(under: path) == [])
    }

    private func withLogbookAt(_ path: String, _ body: (Logbook) async throws -> Void) async throws {
        let logbook = try await Logbook.open(path: path)
        do { try await body(logbook) } catch {
            await logbook.close()
            throw error
        }
        await logbook.close()
    }
}
