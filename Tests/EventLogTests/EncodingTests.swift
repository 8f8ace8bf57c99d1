@testable import EventLog
@testable import EventLogLMDB
import BinaryCoding
import DemoData
import Foundation
import Logbook
import Testing

@Suite("Timestamps, dates, checksums and chains")
struct EncodingTests {
    @Test("RFC 3339 timestamps round-trip canonically and keep their offset")
    func timestamps() throws {
        let cases: [(String, String)] = [
            ("2026-11-20T07:42:10+01:00", "2026-11-20T07:42:10+01:00"),
            ("2026-11-20T06:42:10.513Z", "2026-11-20T06:42:10.513Z"),
            ("2026-11-20T06:42:10.5Z", "2026-11-20T06:42:10.500Z"),
            ("2026-11-20T06:42:10.000001+00:00", "2026-11-20T06:42:10.000001Z"),
            ("1969-12-31T23:59:59.999-11:30", "1969-12-31T23:59:59.999-11:30"),
            ("2024-02-29t12:00:00z", "2024-02-29T12:00:00Z"),
        ]
        for (input, canonical) in cases {
            let timestamp = try Timestamp(parsing: input)
            #expect(timestamp.rfc3339 == canonical)
            #expect(try Timestamp(parsing: timestamp.rfc3339) == timestamp)
        }
        let tokyo = try Timestamp(parsing: "2026-11-20T07:00:00+09:00")
        let utc = try Timestamp(parsing: "2026-11-19T22:00:00Z")
        #expect(tokyo.instant == utc.instant)
        #expect(tokyo != utc)
        #expect(tokyo.localDate.description == "2026-11-20")
        #expect(utc.localDate.description == "2026-11-19")
        #expect(tokyo.localSecondOfDay == 7 * 3600)
        for bad in ["2026-11-20", "2026-11-20T07:42:10", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
                    "2026-11-20T24:00:00Z", "2026-11-20T07:42:10.1234567Z", "2026-11-20T07:42:10+19:00",
                    "2026-11-20T07:42:10+01:00junk", "2026-11-20T07:42:10.Z"] {
            #expect(throws: TimestampParseError.self, "\(bad)") { try Timestamp(parsing: bad) }
        }
    }

    @Test("the fast timestamp parser agrees with the full one on 40,000 seeded texts: canonical ones, and each with one byte changed, dropped or added")
    func fastTimestampParserAgrees() throws {
        var random = SplitMix64(seed: 11)
        let alphabet = Array("0123456789-:.TtZz+ x".utf8)
        var accepted = 0
        for n in 0..<10_000 {
            // Years 1 through 9999 (a day's margin for the offset); whole seconds, milliseconds or microseconds.
            let day: Int64 = 86_400_000_000
            var micros = Int64.random(in: (-62_135_596_800_000_000 + day)...(253_402_300_799_999_999 - day), using: &random)
            micros -= micros % [1_000_000, 1_000, 1][n % 3]
            let offset = Int32(Int(random.next() % 2_161) - 1_080) * 60
            let stamp = Timestamp(microsecondsSinceEpoch: micros, utcOffsetSeconds: offset)
            let text = Array(stamp.rfc3339.utf8)
            var variants = [text]
            let at = Int(random.next() % UInt64(text.count))
            var changed = text
            changed[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            variants.append(changed)
            var dropped = text
            dropped.remove(at: at)
            variants.append(dropped)
            var added = text
            added.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
            variants.append(added)
            for variant in variants {
                let full = try? Timestamp(everyForm: variant[...])
                let fast = Timestamp.canonical(variant.span)
                if let fast {
                    accepted += 1
                    #expect(fast == full, "\(String(decoding: variant, as: UTF8.self))")
                }
                let parsed = try? Timestamp(rfc3339: variant[...])
                #expect(parsed == full, "\(String(decoding: variant, as: UTF8.self))")
            }
        }
        #expect(accepted > 10_000)
    }

    @Test("civil dates: days since the epoch, weekdays, leap years")
    func civilDates() throws {
        #expect(CivilDate(daysSinceEpoch: 0).description == "1970-01-01")
        #expect(try #require(CivilDate(parsing: "2000-03-01")).daysSinceEpoch == 11017)
        #expect(CivilDate(daysSinceEpoch: -1).description == "1969-12-31")
        #expect(try #require(CivilDate(parsing: "2026-11-22")).isoWeekday == 7)
        #expect(try #require(CivilDate(parsing: "2026-11-23")).isoWeekday == 1)
        #expect(CivilDate(parsing: "2025-02-29") == nil)
        #expect(CivilDate(parsing: "2024-02-29") != nil)
        #expect(CivilDate(parsing: "1900-02-29") == nil)
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let days = Int(random.next() % 2_000_000) - 700_000
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            #expect(CivilDate(parsing: date.description) == date)
        }
    }

    @Test("XXH64 matches the reference implementation's vectors")
    func xxhash() {
        func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 { XXHash64.hash(bytes.span, from: 0, seed: seed) }
        let data = (0..<100).map { UInt8(($0 * 7 + 3) % 256) }
        #expect(hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(hash(data) == 0xA61F_8D4C_170F_E531)
        #expect(hash(data, seed: 42) == 0x7DD0_0BE8_513C_25A2)
        #expect(hash(Array(data[..<37]), seed: 0x9E37_79B9_7F4A_7C15) == 0x75D0_895F_8692_539F)
        // A hash from an offset is the hash of the bytes from there.
        for start in 0...data.count {
            #expect(XXHash64.hash(data.span, from: start, seed: 7) == hash(Array(data[start...]), seed: 7), "from \(start)")
        }
    }

    @Test("a tail's bytes beside its metadata and payload never exceed the room a batch reserves for them")
    func longestTailOverheadBounds() {
        let micros: [Int64] = [0, 1, -1, .max, .min]
        // The encoding takes any offset (validation refuses those beyond ±18:00 before): its extremes too.
        let offsets: [Int32] = [0, Timestamp.maxOffsetSeconds, -Timestamp.maxOffsetSeconds, .max, .min]
        let metadata: [[UInt8]] = [[], [1], Array(repeating: 7, count: 300)]
        var longest = 0
        for micro in micros {
            for offset in offsets {
                for meta in metadata {
                    for ids in [false, true] {
                        let event = ProposedEvent(
                            type: "t", schemaVersion: .max, occurredAt: Timestamp(microsecondsSinceEpoch: micro, utcOffsetSeconds: offset),
                            correlationId: ids ? UUID() : nil, causationId: ids ? UUID() : nil, metadata: meta, payload: [1, 2, 3])
                        var writer = ByteWriter(capacity: 0)
                        RecordCodec.appendTail(of: event, to: &writer)
                        longest = max(longest, writer.bytes.count - meta.count - event.payload.count)
                    }
                }
            }
        }
        // Exact but for the metadata's length: 300 bytes take 2 of the 10 bytes a length may take.
        #expect(longest == RecordCodec.longestTailOverhead - 8)
    }

    @Test("expected versions parse their wire forms and refuse anything else")
    func expectedVersionParsing() throws {
        #expect(try ExpectedVersion(parsing: "any") == .any)
        #expect(try ExpectedVersion(parsing: "no_stream") == .noStream)
        #expect(try ExpectedVersion(parsing: "stream_exists") == .streamExists)
        #expect(try ExpectedVersion(parsing: "42") == .exactly(42))
        for bad in ["", "-3", "+4", "4.0", "latest", "18446744073709551616", " 1"] {
            #expect(throws: EventStoreError.invalidExpectedVersion(bad)) { try ExpectedVersion(parsing: bad) }
        }
    }

    @Test("event ids parse from text; anything else is a typed error")
    func eventIDParsing() throws {
        let id = try ProposedEvent.eventID(parsing: "8F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9")
        #expect(id.uuidString == "8F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9")
        for bad in ["", "not-a-uuid", "8F1E2D3C4B5A49788695A4B3C2D1E0F9", "00000000-0000-0000-0000-000000000000"] {
            #expect(throws: EventStoreError.self, "\(bad)") { try ProposedEvent.eventID(parsing: bad) }
        }
    }

    @Test("Myers jump links find every version and position of a chain in few hops", arguments: [1, 2, 3, 7, 64, 1000, 5000])
    func chainNavigation(length: Int) throws {
        // Build a chain in memory: positions spread out as in a busy log.
        var head = ChainHead()
        var random = SplitMix64(seed: UInt64(length))
        var records: [UInt64: ChainLinks] = [:]
        var positions: [UInt64] = []
        var position: UInt64 = 0
        for _ in 0..<length {
            position += 1 + random.next() % 50
            let (version, links) = head.append(position: position)
            #expect(version == UInt64(positions.count))
            records[position] = links
            positions.append(position)
        }
        // Search as the reader does, counting hops.
        func locate(_ target: UInt64) -> (UInt64, Int) {
            var node = head.startNode(forVersion: target)!
            var hops = 0
            while node.version > target {
                let links = records[node.position]!
                if node.version - links.jumpVersionDelta >= target {
                    node = .init(version: node.version - links.jumpVersionDelta, position: node.position - links.jumpPositionDelta)
                } else {
                    node = .init(version: node.version - 1, position: node.position - links.previousDelta)
                }
                hops += 1
            }
            return (node.position, hops)
        }
        let bound = 4 * (Int(log2(Double(length))) + 2)
        for target in 0..<UInt64(length) {
            let (found, hops) = locate(target)
            #expect(found == positions[Int(target)])
            #expect(hops <= bound, "\(hops) hops to version \(target) of \(length)")
        }
        #expect(head.spine.count <= 2 * (Int(log2(Double(length))) + 2))
    }
}
