import EventLog
import Foundation
import Logbook
import LogbookTestSupport
import LogbookTesting
import Synchronization
import Testing

/// Online backup and verified restore, on real LMDB environments: a backup taken while eight
/// writers append holds every write acknowledged before it began; a damaged, partial or
/// tampered backup is refused and leaves nothing behind.
@Suite("Backup and restore", .serialized)
struct BackupTests {
    static let users = (0..<8).map { "w\($0)" }

    func register(_ logbook: Logbook) async throws {
        for user in Self.users {
            try await logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "Europe/Berlin")))
        }
    }

    /// One step sample per call, each at its own minute, so every call appends one event.
    func steps(_ logbook: Logbook, _ user: String, _ index: Int) async throws -> CommandResult {
        let start = Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000 + Int64(index) * 60_000_000)
        return try await logbook.execute(.recordSteps(user: user, StepsRecorded(samples: [
            StepSample(start: start, end: Timestamp(microsecondsSinceEpoch: start.instant + 30_000_000), count: 10 + index % 1_000, source: "phone"),
        ])))
    }

    @Test("a backup during 8 concurrent writers restores every write acknowledged before it, verified, digests as in the manifest")
    func backupUnderConcurrentWriters() async throws {
        try await withLogbook { logbook, root in
            try await register(logbook)
            let acknowledged = Acknowledged()
            let backupStarted = acknowledged.backupStarted
            let backupDirectory = root + "-backup"
            defer { try? FileManager.default.removeItem(atPath: backupDirectory) }
            let manifest = try await withThrowingTaskGroup(of: BackupManifest?.self) { group in
                for (number, user) in Self.users.enumerated() {
                    group.addTask {
                        for index in 0..<300 {
                            let before = backupStarted.isSet
                            let result = try await steps(logbook, user, number * 1_000 + index)
                            acknowledged.entries.withLock { $0.append((result.lastPosition, !before)) }
                        }
                        return nil
                    }
                }
                group.addTask {
                    // Let the writers get going, then back up while they append.
                    while acknowledged.entries.withLock({ $0.count }) < 400 { try await Task.sleep(for: .milliseconds(2)) }
                    let beforeBackup = acknowledged.entries.withLock { $0.map(\.position).max() ?? 0 }
                    backupStarted.set()
                    let manifest = try await logbook.backup(to: backupDirectory)
                    #expect(manifest.head >= beforeBackup, "the backup's head is behind a write acknowledged before it began")
                    return manifest
                }
                var manifest: BackupManifest?
                for try await result in group { if let result { manifest = result } }
                return manifest!
            }
            let written = acknowledged.entries.withLock { $0 }
            #expect(written.count == 8 * 300)
            #expect(manifest.head < (written.map(\.position).max() ?? 0), "the writers did not go on during the backup")
            #expect(Set(manifest.files.map(\.name)) == ["data.mdb", "request-keys.mdb", "keys.mdb"])
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: backupDirectory)) == ["data.mdb", "request-keys.mdb", "keys.mdb", "manifest.json"])

            let restoredPath = root + "-restored"
            defer { try? FileManager.default.removeItem(atPath: restoredPath) }
            let check = try await Logbook.restore(backup: backupDirectory, to: restoredPath)
            #expect(check.head == manifest.head)
            #expect(check.verification.count == ReadModelKind.allCases.count && check.verification.allSatisfy(\.matches))
            let restored = try await Logbook.open(path: restoredPath)
            // Every acknowledged write up to the backup's head is there, byte for byte.
            for (position, _) in written where position <= manifest.head {
                let original = try await logbook.log.event(at: Position(position))
                let copy = try await restored.log.event(at: Position(position))
                #expect(copy != nil && copy == original, "position \(position) differs after restore")
            }
            #expect(try await restored.log.headPosition().rawValue == manifest.head)
            let digests = try restored.digests()
            for model in manifest.readModels {
                #expect(digests.first { $0.projection == model.projection }?.sha256 == model.sha256, "\(model.projection)")
            }
            // The restored store takes writes, and its log continues from the backup's head.
            let next = try await steps(restored, "w0", 99_999)
            #expect(next.lastPosition == manifest.head + 1)
            await restored.close()
        }
    }

    @Test("a truncated, bit-flipped, partial or tampered backup is refused with a typed error, and nothing is left at the target")
    func damagedBackupsAreRefused() async throws {
        try await withLogbook { logbook, root in
            try await register(logbook)
            for index in 0..<50 { _ = try await steps(logbook, "w1", index) }
            let good = root + "-good"
            defer { try? FileManager.default.removeItem(atPath: good) }
            let manifest = try await logbook.backup(to: good)
            let data = try Data(contentsOf: URL(fileURLWithPath: good + "/data.mdb"))

            func damaged(_ name: String, _ change: (String) throws -> Void) throws -> String {
                let copy = root + "-" + name
                try FileManager.default.copyItem(atPath: good, toPath: copy)
                try change(copy)
                return copy
            }
            let truncated = try damaged("truncated") { try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: $0 + "/data.mdb")) }
            let flipped = try damaged("flipped") { path in
                var bytes = data
                bytes[bytes.count / 3] ^= 0x01
                try bytes.write(to: URL(fileURLWithPath: path + "/data.mdb"))
            }
            let partial = try damaged("partial") { try FileManager.default.removeItem(atPath: $0 + "/manifest.json") }
            let missing = try damaged("missing") { try FileManager.default.removeItem(atPath: $0 + "/request-keys.mdb") }
            let tampered = try damaged("tampered") { path in
                var edited = manifest
                edited.head += 1
                try JSONEncoder().encode(edited).write(to: URL(fileURLWithPath: path + "/manifest.json"))
            }
            let garbled = try damaged("garbled") { try Data("{\"format\": 1".utf8).write(to: URL(fileURLWithPath: $0 + "/manifest.json")) }
            defer { for path in [truncated, flipped, partial, missing, tampered, garbled] { try? FileManager.default.removeItem(atPath: path) } }

            func refused(_ backup: String, _ expected: (BackupError) -> Bool) async {
                let target = root + "-target-\(UUID().uuidString)"
                do {
                    _ = try await Logbook.restore(backup: backup, to: target)
                    Issue.record("\(backup) was restored")
                } catch let error as BackupError {
                    #expect(expected(error), "\(error)")
                } catch {
                    Issue.record("not a BackupError: \(error)")
                }
                #expect(!FileManager.default.fileExists(atPath: target), "a refused restore left \(target)")
                let staged = (try? FileManager.default.contentsOfDirectory(atPath: (root as NSString).deletingLastPathComponent)) ?? []
                #expect(!staged.contains { $0.contains(".restoring-") }, "a refused restore left its staging directory")
            }
            await refused(truncated) { if case .sizeMismatch(name: "data.mdb", _, _) = $0 { true } else { false } }
            await refused(flipped) { if case .checksumMismatch(name: "data.mdb", _, _) = $0 { true } else { false } }
            await refused(partial) { if case .noManifest = $0 { true } else { false } }
            await refused(missing) { if case .missingFile(name: "request-keys.mdb") = $0 { true } else { false } }
            await refused(tampered) { if case .restoredStateDiffers(what: "head", _, _) = $0 { true } else { false } }
            await refused(garbled) { if case .unreadableManifest = $0 { true } else { false } }

            // The good one still restores; a second restore onto it is refused.
            let target = root + "-target"
            defer { try? FileManager.default.removeItem(atPath: target) }
            _ = try await Logbook.restore(backup: good, to: target)
            do {
                _ = try await Logbook.restore(backup: good, to: target)
                Issue.record("restored over an existing store")
            } catch let error as BackupError {
                #expect(error == .destinationNotEmpty(path: target))
            }
            // A backup into a directory that holds something is refused and touches nothing.
            do {
                _ = try await logbook.backup(to: good)
                Issue.record("backed up into a non-empty directory")
            } catch let error as BackupError {
                #expect(error == .destinationNotEmpty(path: good))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: good + "/data.mdb")) == data)
        }
    }

    @Test("logbook backup beside a running writer and logbook restore, from the command line")
    func commandLine() async throws {
        try await withLogbook { logbook, root in
            try await register(logbook)
            for index in 0..<20 { _ = try await steps(logbook, "w2", index) }
            let backup = root + "-cli-backup"
            let restored = root + "-cli-restored"
            defer {
                try? FileManager.default.removeItem(atPath: backup)
                try? FileManager.default.removeItem(atPath: restored)
            }
            // The Logbook stays open in this process (the writer): the command opens the store read-only.
            let (status, output) = try await runLogbook(["backup", "--path", root, "--to", backup, "--json"])
            #expect(status == 0, "\(output)")
            let manifest = try JSONDecoder().decode(BackupManifest.self, from: Data(output.utf8))
            #expect(manifest.head == (try await logbook.log.headPosition().rawValue))
            let (restoreStatus, restoreOutput) = try await runLogbook(["restore", "--from", backup, "--path", restored, "--json"])
            #expect(restoreStatus == 0, "\(restoreOutput)")
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: backup + "/request-keys.mdb"))
            let (badStatus, badOutput) = try await runLogbook(["restore", "--from", backup, "--path", root + "-cli-bad"], includeErrors: true)
            #expect(badStatus == 1)
            #expect(badOutput.contains("request-keys.mdb is 7 bytes"), "\(badOutput)")
        }
    }
}

/// What the writers of the concurrent backup test had acknowledged, and whether the backup had begun.
