import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import LogbookTesting
import Testing

/// Ids are compared as bytes (the DomainRules and HostileInput articles). Swift's `String` compares
/// by canonical equivalence, so ids are accepted only in NFC: then every String-keyed table agrees
/// with the bytes the log stores. These tests hold the domain to that at each door: commands,
/// imports, and library queries whose caches are keyed by ids.
@Suite("Ids compared as bytes")
struct IdBytesTests {
    static let composed = "jos\u{e9}"
    static let decomposed = "jose\u{301}"

    @Test("the two spellings are equal Strings but different bytes, and only NFC is an id")
    func premise() {
        #expect(Self.composed == Self.decomposed)
        #expect(!Self.composed.utf8.elementsEqual(Self.decomposed.utf8))
        #expect(IdRule.violation(Self.composed) == nil)
        #expect(IdRule.violation(Self.decomposed)?.contains("NFC") == true)
        #expect(BytewiseString(Self.composed) != BytewiseString(Self.decomposed))
        #expect(Set([BytewiseString(Self.composed), BytewiseString(Self.decomposed)]).count == 2)
        // ASCII, precomposed scripts and astral scalars are NFC; a combining sequence with no precomposed form is too.
        for id in ["u-1", "日本", "😀", "Ελλάδα", "q\u{301}"] { #expect(IdRule.violation(id) == nil, "\(id)") }
        for id in ["A\u{30A}", "\u{212B}", "e\u{301}x"] { #expect(IdRule.violation(id) != nil, "\(id)") }
    }

    @Test("two texts have the same bytes exactly when every byte matches, at any length and any position of a difference")
    func sameBytesAtEveryPosition() {
        for length in 0...40 {
            // Separate storage for each text (lengths past 15 bytes are heap strings), so no
            // comparison is decided by sharing one buffer.
            let bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasSameBytes(as: String(decoding: bytes, as: UTF8.self)), "length \(length)")
            #expect(!text.hasSameBytes(as: String(decoding: bytes + [UInt8(ascii: "a")], as: UTF8.self)), "length \(length)")
            for position in 0..<length {
                var changed = bytes
                changed[position] = UInt8(ascii: "Z")
                #expect(!text.hasSameBytes(as: String(decoding: changed, as: UTF8.self)), "length \(length), byte \(position)")
            }
        }
    }

    @Test("commands with an id in another normal form are refused by name and write nothing")
    func commandsRefuse() async throws {
        try await withLogbook { logbook, _ in
            let profile = UserRegistered(displayName: "José", timeZone: "Europe/Madrid", weekStart: .monday, units: .metric)
            _ = try await logbook.execute(.registerUser(user: Self.composed, profile), context: when("2026-11-20T08:00:00Z"))
            let head = try await logbook.log.headPosition()
            await #expect { _ = try await logbook.execute(.registerUser(user: Self.decomposed, profile), context: when("2026-11-20T08:01:00Z")) } throws: { error in
                guard let error = error as? LogbookError, error.code == .invalidArgument else { return false }
                return error.field == "user" && error.description.contains("NFC")
            }
            #expect(try await logbook.log.headPosition() == head)
        }
    }

    @Test("a library query for the other spelling never answers the cached answer of the user it resembles")
    func cachesKeyByBytes() async throws {
        try await withLogbook { logbook, _ in
            let profile = UserRegistered(displayName: "José", timeZone: "Europe/Madrid", weekStart: .monday, units: .metric)
            _ = try await logbook.execute(.registerUser(user: Self.composed, profile), context: when("2026-11-20T08:00:00Z"))
            #expect(try await logbook.profile(user: Self.composed).displayName == "José")  // now cached
            await #expect { _ = try await logbook.profile(user: Self.decomposed) } throws: { error in
                (error as? LogbookError)?.code == .notFound
            }
        }
    }

    @Test("an imported line whose ids are not in NFC is refused, naming the field")
    func importsRefuse() throws {
        let line = #"{"position":1,"stream":"catalog","streamVersion":0,"eventId":"0190f1a2-0000-7000-8000-000000000001","type":"place.added","schemaVersion":1,"subject":null,"occurredAt":"2026-11-20T08:00:00Z","recordedAt":"2026-11-20T08:00:00Z","correlationId":null,"causationId":null,"metadata":{},"data":{"placeId":"caf\#u{65}\#u{301}","name":"Café","category":"restaurant","subcategory":"bistro","latitude":48.1,"longitude":11.5}}"#
        #expect { _ = try WireEvent(jsonLine: line) } throws: { error in
            String(describing: error).contains("placeId") && String(describing: error).contains("NFC")
        }
        let composedLine = line.replacingOccurrences(of: "cafe\u{301}", with: "caf\u{e9}")
        #expect(throws: Never.self) { _ = try WireEvent(jsonLine: composedLine) }
    }
}
