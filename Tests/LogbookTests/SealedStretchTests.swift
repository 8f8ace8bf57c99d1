import DemoData
import EventLog
import EventLogLMDB
import Foundation
@testable import Logbook
import LogbookTesting
import Sodium
import Testing

/// Reading the log in stretches and opening their payloads in parts side by side: the same
/// envelopes and plaintexts, in the same order, as one scan that opens payloads one by one, for
/// any stretch length and number of parts; an erased user's payloads read as erased; and the
/// per-reader key memo never hands one user's key to another whose id has other bytes.
@Suite("Sealed stretches")
struct SealedStretchTests {
    /// Users whose events the log holds (the log takes names in NFC only; the memo's own test
    /// covers ids equal to Unicode but not in bytes).
    static let users = (0..<37).map { "user-\($0)" } + ["jos\u{e9}", "\u{1F3C3}-runner"]

    /// The bytes of an opened payload (nil: erased).
    static func copy(_ plaintext: Span<UInt8>?) -> [UInt8]? {
        guard let plaintext else { return nil }
        return plaintext.indices.map { plaintext[$0] }
    }

    @Test("stretches opened in parts give what one scan opening event by event gives, in log order; an erased user's payloads are nil", arguments: [
        (stretch: 700 as UInt64, parts: 2), (stretch: 4_096, parts: 3), (stretch: 100, parts: 2), (stretch: 10_000, parts: 1),
    ])
    func sameAsOneScan(stretch: UInt64, parts: Int) async throws {
        try await withTemporaryDirectory { root in
            let keys = try PayloadKeys(encryptingWithKeysIn: root + "/keys", format: .current)
            defer { keys.close() }
            let log = try LMDBEventStore(path: root + "/log")
            var random = SplitMix64(seed: 48)
            var plaintexts: [[UInt8]] = []
            for batch in 0..<6 {
                var requests: [AppendRequest] = []
                for n in 0..<500 {
                    let user = Self.users[Int(random.next() % UInt64(Self.users.count))]
                    let payload = (0..<Int(random.next() % 90)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    plaintexts.append(payload)
                    let event = ProposedEvent(
                        type: "test.sample", subject: user,
                        occurredAt: Timestamp(microsecondsSinceEpoch: Int64(batch * 500 + n) * 1_000_000), payload: payload)
                    requests.append(AppendRequest(stream: "stream-\(user)-\(n % 3)", events: [event]))
                }
                for index in requests.indices { try keys.seal(&requests[index]) }
                for result in try await log.append(batch: requests) { _ = try result.get() }
            }
            try keys.destroyKey(of: "user-5")

            var expected: [(EventEnvelope, [UInt8]?)] = []
            try log.scan { envelope, _, payload in
                try keys.open(envelope, payload) { (plaintext) throws(LogbookError) in
                    expected.append((envelope, Self.copy(plaintext)))
                }
                return true
            }
            #expect(expected.count == plaintexts.count)
            for (index, (envelope, plaintext)) in expected.enumerated() {
                #expect(plaintext == (envelope.subject == "user-5" ? nil : plaintexts[index]), "position \(envelope.position)")
            }

            let head = try await log.headPosition().rawValue
            var after: UInt64 = 0
            var seen: [(EventEnvelope, [UInt8]?)] = []
            while after < head {
                let read = try await SealedStretch.read(log, after: after, through: min(after + stretch, head))
                let opened = try await read.opened(with: keys, parts: parts, start: { _ in [(EventEnvelope, [UInt8]?)]() }) {
                    (events, envelope, plaintext) throws(LogbookError) in events.append((envelope, Self.copy(plaintext)))
                }
                #expect(opened.count == max(1, min(parts, read.count / SealedStretch.smallestPart)))
                seen += opened.flatMap(\.self)
                after = read.through
            }
            #expect(seen.count == expected.count)
            for (got, want) in zip(seen, expected) {
                #expect(got.0 == want.0)
                #expect(got.1 == want.1, "position \(want.0.position)")
            }
            await log.close()
        }
    }

    @Test("a stretch that keeps some events opens only those, and a payload that does not open is an error naming its position")
    func keptAndDamaged() async throws {
        try await withTemporaryDirectory { root in
            let keys = try PayloadKeys(encryptingWithKeysIn: root + "/keys", format: .current)
            defer { keys.close() }
            let log = try LMDBEventStore(path: root + "/log")
            var requests = (0..<600).map { n in
                AppendRequest(stream: "s-\(n % 7)", events: [ProposedEvent(
                    type: n % 2 == 0 ? "test.even" : "test.odd", subject: "u-\(n % 11)",
                    occurredAt: Timestamp(microsecondsSinceEpoch: Int64(n)), payload: Array("event \(n)".utf8))])
            }
            for index in requests.indices { try keys.seal(&requests[index]) }
            // Event 451's payload is event 462's, sealed under the same user's key for another event
            // id: its additional data does not match. It lies in the second part, a child task's.
            requests[451].events[0].payload = requests[462].events[0].payload
            for result in try await log.append(batch: requests) { _ = try result.get() }

            let evens = try await SealedStretch.read(log, after: 0, through: 560) { $0.type == "test.even" }
            #expect(evens.count == 280)
            let parts = try await evens.opened(with: keys, parts: 2, start: { _ in [String]() }) { (texts, _, plaintext) throws(LogbookError) in
                if let bytes = Self.copy(plaintext) { texts.append(String(decoding: bytes, as: UTF8.self)) }
            }
            #expect(parts.count == 2)
            #expect(parts.flatMap(\.self) == stride(from: 0, to: 560, by: 2).map { "event \($0)" })

            let damaged = try await SealedStretch.read(log, after: 0, through: 600)
            let error = await #expect(throws: LogbookError.self) {
                _ = try await damaged.opened(with: keys, parts: 2, start: { _ in 0 }) { (count, _, _) throws(LogbookError) in count += 1 }
            }
            #expect(error.map { "\($0)" }?.contains("position 452") == true, "\(String(describing: error))")
            await log.close()
        }
    }

    @Test("the key memo asks once per user, keeps users whose first slot is taken, tells apart ids that differ only in bytes, and starts again empty when half full")
    func keyMemo() throws {
        let key = try SymmetricKey.random()
        var asked: [String] = []
        // 16 events: a table of 32 slots, which holds 16 users.
        var memo = KeyMemo(events: 16)
        func entry(_ user: String) -> UserKeyStore.Entry? {
            memo.entry(for: user) { user in
                asked.append(user)
                // Compared as bytes: "jose\u{301}" is erased, "jos\u{e9}" (equal to Swift's String) is not.
                let bytes = Array(user.utf8)
                if user.hasPrefix("erased") || bytes.suffix(3) == [0x65, 0xCC, 0x81] { return .erased }
                return Array(user.utf8) == Array("nobody".utf8) ? nil : .key(key)
            }
        }
        #expect(entry("user-1")?.isErased == false)
        #expect(entry("user-1")?.isErased == false)
        #expect(asked == ["user-1"])
        // Canonically equivalent, other bytes, and one first slot: each is looked up as itself, then remembered.
        let (composed, decomposed) = (0..<100_000).lazy.map { ("kept-\($0)-jos\u{e9}", "kept-\($0)-jose\u{301}") }
            .first { KeyMemo.slot(of: $0.0, slots: 32) == KeyMemo.slot(of: $0.1, slots: 32) }!
        #expect(composed == decomposed, "Swift's String calls them equal")
        #expect(entry(composed)?.isErased == false)
        #expect(entry(decomposed)?.isErased == true)
        #expect(entry(composed)?.isErased == false)
        #expect(entry(decomposed)?.isErased == true)
        #expect(asked.map { Array($0.utf8) } == ["user-1", composed, decomposed].map { Array($0.utf8) })
        // Someone unknown is not remembered: asked again.
        #expect(entry("nobody") == nil)
        #expect(entry("nobody") == nil)
        #expect(asked.suffix(2).map { Array($0.utf8) } == [Array("nobody".utf8), Array("nobody".utf8)])
        // Fill the table to half (3 users so far, 13 more), and all are still remembered.
        let more = (2...14).map { "user-\($0)" }
        asked = []
        for user in more + more { #expect(entry(user)?.isErased == false) }
        #expect(entry("user-1")?.isErased == false)
        #expect(asked.map { Array($0.utf8) } == more.map { Array($0.utf8) })
        // The 17th user starts the table again: the earlier ones are asked again.
        asked = []
        #expect(entry("user-15")?.isErased == false)
        #expect(entry("user-1")?.isErased == false)
        #expect(entry("user-15")?.isErased == false)
        #expect(asked.map { Array($0.utf8) } == [Array("user-15".utf8), Array("user-1".utf8)])
    }
}
