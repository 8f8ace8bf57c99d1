import Foundation
@testable import Logbook
import LogbookTesting
import Synchronization
import Testing

/// The key cache against an erasure: a key read from the key store just before the user is
/// erased must not be cached after the erasure cached the tombstone, or every later reader — the
/// rebuild after the erasure included — would open the erased user's payloads again.
@Suite("Key cache and erasure")
struct KeyCacheRaceTests {
    @Test("an erasure that comes while a key is being read leaves the user erased in the cache")
    func erasureDuringKeyRead() async throws {
        try await withTemporaryDirectory { directory in
            // A user id no other test uses: the hook is process-wide and acts for this one only.
            let user = "race-\(UUID().uuidString.lowercased())"
            do {
                let maker = try UserKeyStore(directory: directory, creatingWith: .current, readOnly: false, durability: .noSync)
                _ = try maker.ensureKeys(for: [user])
                maker.close()
            }
            // A store whose cache is empty: its first look-up reads the key.
            let store = try UserKeyStore(directory: directory, creatingWith: .current, readOnly: false, durability: .noSync)
            defer { store.close() }
            let erased = Atomic<Bool>(false)
            let reading = Atomic<Bool>(false)
            // Paused between reading the key and caching it, the reader gives the erasure 300 ms to
            // finish; an erasure that can finish then would be cached before the reader's key.
            PrivacyTestHooks.onKeyRead { read in
                guard read == user else { return }
                reading.store(true, ordering: .sequentiallyConsistent)
                let deadline = ContinuousClock.now + .milliseconds(300)
                while !erased.load(ordering: .sequentiallyConsistent), ContinuousClock.now < deadline { usleep(1_000) }
            }
            defer { PrivacyTestHooks.onKeyRead(nil) }
            let reader = Task.detached { try store.entry(for: user) }
            while !reading.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(1)) }
            let eraser = Task.detached {
                try store.erase(user)
                erased.store(true, ordering: .sequentiallyConsistent)
            }
            let read = try await reader.value
            try await eraser.value
            #expect(read?.isErased == false, "the read began before the erasure")
            #expect(store.cachedEntry(for: user)?.isErased == true)
            #expect(try store.entry(for: user)?.isErased == true)
        }
    }
}
