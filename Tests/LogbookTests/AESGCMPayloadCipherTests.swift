import DemoData
import EventLog
import Foundation
@testable import Logbook
import LogbookTesting
import Sodium
import Synchronization
import Testing

/// The AES-256-GCM payload format (`aes256-gcm/v3`) on its own: its stored form is exactly the
/// documented one; what it seals opens only with the same key, id, type and schema version and
/// unchanged bytes; and its nonces — a salt per open and a counter — never repeat within an open,
/// even when the counter runs out, nor across two opens of one store.
@Suite("Payload cipher: AES-256-GCM", .enabled(if: AES256GCM.isAvailable, "this CPU has no AES-NI and CLMUL"))
struct AESGCMPayloadCipherTests {
    static let id = UUID(uuidString: "0192f1c2-7a3b-7cde-8f01-23456789abcd")!

    @Test("new stores are made in aes256-gcm/v3 on this CPU, and their keys carry the expanded AES state")
    func currentFormat() async throws {
        #expect(PayloadFormat.current == .perUserAESGCM)
        try await withTemporaryDirectory { directory in
            let store = try UserKeyStore(directory: directory, creatingWith: .current, readOnly: false, durability: .noSync)
            defer { store.close() }
            guard case .key(let key)? = try store.ensureKeys(for: ["u"])["u"] else {
                Issue.record("no key was made")
                return
            }
            #expect(key.isPreparedForAES256GCM)
        }
    }

    @Test("the stored form is exactly as documented: nonce = salt ‖ counter (big-endian), then AES-256-GCM with additional data = id ‖ schema version (big-endian) ‖ type")
    func layout() throws {
        let key = try SymmetricKey(bytes: (0..<32).map { UInt8(0x40 + $0) }).preparedForAES256GCM()
        let sequence = try AESGCMPayloadCipher.NonceSequence(drawSalt: { 0xA0A1_A2A3_A4A5_A6A7 })
        _ = try sequence.reserve(5)
        let block = try sequence.reserve(3)
        let nonce = block.nonce(2)
        #expect(nonce == hexBytes("a0a1a2a3a4a5a6a7") + [0, 0, 0, 7])
        let payload = Array("{\"displayName\":\"Ada\"}".utf8)
        let aad = hexBytes("0192f1c27a3b7cde8f0123456789abcd") + [0x00, 0x01, 0x02, 0x03] + Array("user.registered".utf8)
        let expected = nonce + (try AES256GCM.seal(payload.span, key: key, nonce: nonce.span, authenticating: aad.span, prefixedBy: [UInt8]().span))
        let sealed = try AESGCMPayloadCipher.seal(payload.span, key: key, nonce: nonce.span, eventId: Self.id, type: "user.registered", schemaVersion: 0x0001_0203)
        #expect(sealed == expected)
        #expect(sealed.count == payload.count + AESGCMPayloadCipher.overhead)
        #expect(try AESGCMPayloadCipher.open(sealed.span, key: key, eventId: Self.id, type: "user.registered", schemaVersion: 0x0001_0203) == payload)
    }

    @Test("seal then open gives the payload back; another key, id, type, schema version or a flipped bit does not open; a cut payload is an error, not a trap")
    func roundTripAndTampering() throws {
        let key = try SymmetricKey.random().preparedForAES256GCM()
        let sequence = try AESGCMPayloadCipher.NonceSequence()
        let payload = Array("a distinctive payload".utf8)
        let nonce = try sequence.reserve(1).nonce(0)
        let sealed = try AESGCMPayloadCipher.seal(
            payload.span, key: key, nonce: nonce.span, eventId: Self.id, type: "user.registered", schemaVersion: 1)
        #expect(sealed.range(of: payload) == nil, "the plaintext shows through")
        func opens(_ bytes: [UInt8], with other: SymmetricKey? = nil, id: UUID = Self.id, type: String = "user.registered", version: UInt32 = 1) -> Bool {
            (try? AESGCMPayloadCipher.open(bytes.span, key: other ?? key, eventId: id, type: type, schemaVersion: version)) == payload
        }
        #expect(opens(sealed))
        #expect(!opens(sealed, with: try SymmetricKey.random()))
        #expect(!opens(sealed, id: .timeOrdered()))
        #expect(!opens(sealed, type: "goal.set"))
        #expect(!opens(sealed, version: 2))
        for index in sealed.indices {
            var flipped = sealed
            flipped[index] ^= 0x01
            #expect(!opens(flipped), "a flipped bit at \(index) opened")
        }
        for length in [0, 11, 12, AESGCMPayloadCipher.overhead - 1] {
            #expect(throws: SodiumError.self) {
                try AESGCMPayloadCipher.open(Array(sealed.prefix(length)).span, key: key, eventId: Self.id, type: "user.registered", schemaVersion: 1)
            }
        }
    }

    @Test("8 threads reserving 200,000 nonces in blocks of 1–64 never get one twice; a salt whose counters would run out is replaced before any repeats")
    func noncesNeverRepeat() async throws {
        let sequence = try AESGCMPayloadCipher.NonceSequence()
        let taken = await withTaskGroup(of: [[UInt8]].self) { group in
            for thread in 0..<8 {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(thread))
                    var mine: [[UInt8]] = []
                    while mine.count < 25_000 {
                        let count = Int(rng.next() % 64) + 1
                        let block = try! sequence.reserve(count)
                        for index in 0..<count { mine.append(block.nonce(index)) }
                    }
                    return mine
                }
            }
            return await group.reduce(into: [[UInt8]]()) { $0 += $1 }
        }
        let total = Set(taken).count
        #expect(total == taken.count && total >= 200_000)

        // A known sequence of salts: the counters of the first run out, and the block that would
        // cross the end comes whole from the next salt.
        let salts = Mutex<[UInt64]>([1, 2, 3])
        let running = try AESGCMPayloadCipher.NonceSequence(drawSalt: { salts.withLock { $0.removeFirst() } })
        let almostAll = try running.reserve(Int(AESGCMPayloadCipher.NonceSequence.countersPerSalt) - 2)
        #expect(almostAll.salt == 1 && almostAll.first == 0)
        let last = try running.reserve(2)
        #expect(last.salt == 1 && last.first == UInt32.max - 1)
        // Every counter of the first salt is taken: an empty block names none and takes nothing.
        #expect(try running.reserve(0).count == 0)
        let crossing = try running.reserve(3)
        #expect(crossing.salt == 2 && crossing.first == 0)
        #expect(Set([last.nonce(0), last.nonce(1), crossing.nonce(0), crossing.nonce(1), crossing.nonce(2)]).count == 5)
    }

    @Test("one store, one event: sealed twice in one open and once in another, three different stored forms, and each opens")
    func sealingsDifferWithinAndAcrossOpens() async throws {
        try await withTemporaryDirectory { directory in
            let store = try UserKeyStore(directory: directory, creatingWith: .perUserAESGCM, readOnly: false, durability: .noSync)
            defer { store.close() }
            let event = ProposedEvent(
                eventId: Self.id, type: "user.profile_updated", subject: "u", occurredAt: Timestamp(microsecondsSinceEpoch: 1), payload: Array("same".utf8))
            func sealed(_ keys: PayloadKeys) throws -> [UInt8] {
                var request = AppendRequest(stream: "user-u", events: [event])
                try keys.seal(&request)
                return request.events[0].payload
            }
            let one = try PayloadKeys(store: store)
            let other = try PayloadKeys(store: store)
            let forms = [try sealed(one), try sealed(one), try sealed(other)]
            #expect(Set(forms).count == 3)
            #expect(Set(forms.map { Array($0.prefix(12)) }).count == 3, "two sealings shared a nonce")
            let envelope = EventEnvelope(
                position: Position(1), stream: "user-u", streamVersion: 0, recordedAt: event.occurredAt,
                header: EventHeader(eventId: Self.id, type: event.type, schemaVersion: 1, subject: "u", occurredAt: event.occurredAt))
            for form in forms {
                let opened = try one.open(envelope, form.span) { (plaintext) throws(LogbookError) -> [UInt8] in
                    guard let plaintext else { return [] }
                    return plaintext.indices.map { plaintext[$0] }
                }
                #expect(opened == Array("same".utf8))
            }
        }
    }

    @Test("a request whose events alternate between users seals each event under its own user's key")
    func eachEventUnderItsOwnUsersKey() async throws {
        try await withTemporaryDirectory { directory in
            let store = try UserKeyStore(directory: directory, creatingWith: .perUserAESGCM, readOnly: false, durability: .noSync)
            defer { store.close() }
            let keys = try PayloadKeys(store: store)
            // Runs of one user, then another, and back again; and right after "jos\u{e9}" a user
            // whose id is the same text in another normal form: other bytes, so another user.
            let users = ["jos\u{e9}", "jos\u{e9}", "jose\u{301}", "b", "jos\u{e9}", "c", "c", "b"]
            let events = users.enumerated().map { index, user in
                ProposedEvent(type: "steps.sampled", subject: user, occurredAt: Timestamp(microsecondsSinceEpoch: Int64(index)), payload: [UInt8(index)])
            }
            var request = AppendRequest(stream: "s", events: events)
            try keys.seal(&request)
            for (index, event) in request.events.enumerated() {
                let envelope = EventEnvelope(position: Position(UInt64(index + 1)), stream: "s", streamVersion: UInt64(index), recordedAt: event.occurredAt, header: event.header)
                let opened = try keys.open(envelope, event.payload.span) { (plaintext) throws(LogbookError) -> [UInt8] in
                    guard let plaintext else { return [] }
                    return plaintext.indices.map { plaintext[$0] }
                }
                #expect(opened == [UInt8(index)], "event \(index) of \(users[index])")
                // Under another user's name the same bytes do not open.
                var other = envelope
                other.header.subject = users[index].hasSameBytes(as: "b") ? "jos\u{e9}" : "b"
                #expect(throws: (any Error).self, "event \(index) opened under another user's key") {
                    _ = try keys.open(other, event.payload.span) { (_) throws(LogbookError) in 0 }
                }
            }
        }
    }
}
