@testable import Logbook
@testable import LogbookDomain
import DemoData
import EventLog
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// The byte-level wire codec: the same bytes as the payloads' `Codable` form, round trips of
/// seeded random events, strictness on the cases a general-purpose parser lets through, and a
/// seeded fuzz run that must never crash and never accept what it cannot write back.
@Suite("Wire codec")
struct WireCodecTests {
    // MARK: random events

    struct Random {
        var rng: SplitMix64
        /// Keep values in the ranges the event schemas state (what the wire form of stored facts holds).
        var withinSchema: Bool
        init(_ seed: UInt64, withinSchema: Bool = false) {
            rng = SplitMix64(seed: seed)
            self.withinSchema = withinSchema
        }

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        mutating func bool() -> Bool { Bool.random(using: &rng) }
        mutating func maybe<T>(_ make: (inout Random) -> T) -> T? { bool() ? make(&self) : nil }
        mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }

        /// Text with the characters escaping cares about: quotes, backslashes, control
        /// characters, DEL, slashes, non-ASCII and astral scalars.
        mutating func text() -> String {
            let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{08}", "\u{0C}", "\u{00}", "\u{1F}",
                                              "\u{7F}", "é", "ß", "€", "\u{2028}", "\u{FEFF}", "😀", "𝄞"]
            var text = String.UnicodeScalarView()
            for _ in 0..<int(0...12) { text.append(pick(alphabet)) }
            return String(text)
        }

        mutating func id() -> String { "id-\(int(0...999_999))" + (bool() ? "é" : "") }

        mutating func timestamp() -> Timestamp {
            let micros = Int64(int(-2_000_000_000...4_000_000_000)) * 1_000_000 + Int64(pick([0, 0, 513_000, 1, 999_999]))
            return Timestamp(microsecondsSinceEpoch: micros, utcOffsetSeconds: Int32(pick([0, 3600, -18_000, 19_800, 64_800, -64_800])))
        }

        mutating func count() -> Int {
            pick([0, 1, 7, 10_000, int(0...Int(Int32.max)), Int.max] + (withinSchema ? [] : [-1, Int.min]))
        }

        mutating func date() -> CivilDate { CivilDate(daysSinceEpoch: int(-700_000...2_900_000)) }

        /// A number in `range` when held to the schemas, else also the extremes a codec must carry.
        mutating func double(within range: ClosedRange<Double>) -> Double {
            if withinSchema || bool() {
                return Double(int(Int(range.lowerBound * 1_000_000)...Int(range.upperBound * 1_000_000))) / 1_000_000
            }
            return pick([0, -0.0, 1e-7, 52.5244, -179.999_999_9, 1e21, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                         Double(bitPattern: rng.next() & 0x3FFF_FFFF_FFFF_FFFF)])
        }

        /// A track of 1–40 points in random columns (at least one), each value plausible or null.
        mutating func randomTrackSamples() -> TrackSamples {
            let points = int(1...40)
            var samples = TrackSamples(points: points)
            for column in TrackSamples.Column.allCases where bool() {
                samples[column] = (0..<points).map { _ in bool() ? int(column.plausible) : (bool() || withinSchema ? nil : 0) }
            }
            if !TrackSamples.Column.allCases.contains(where: { samples[$0] != nil }) { samples.heartRate = Array(repeating: 120, count: points) }
            return samples
        }

        /// A track part whose part and parts agree (the reader checks them).
        mutating func randomTrackRecorded() -> WorkoutTrackRecorded {
            let parts = int(1...3)
            return WorkoutTrackRecorded(workoutId: id(), part: int(0...(parts - 1)), parts: parts, samples: randomTrackSamples())
        }
    }

    static func wire(_ event: DomainEvent, _ random: inout Random) -> WireEvent {
        WireEvent(position: random.maybe { UInt64($0.int(1...Int.max)) }, stream: random.text(), streamVersion: UInt64(random.int(0...Int.max)),
                  eventId: random.rng.uuid(), subject: random.maybe { $0.text() }, occurredAt: random.timestamp(), recordedAt: random.timestamp(),
                  correlationId: random.maybe { $0.rng.uuid() }, causationId: random.maybe { $0.rng.uuid() },
                  metadata: random.pick(["{}", #"{"a":[1,-2.5e3,true,null,{"b":"é\n"}],"client":"ios"}"#]), event: event)
    }

    @Test("payloads write the bytes their Codable form writes, and read back to the same value (2,000 seeded events per type)")
    func matchesCodableAndRoundTrips() throws {
        var random = Random(20_261_123)
        for type in EventType.allCases {
            for _ in 0..<2000 {
                let event = random.event(type)
                let bytes = JSONEventCodec.encodedBytes(event)
                let reference = try Self.codableJSON(event)
                #expect(bytes == reference, "\(type.rawValue): \(String(decoding: bytes, as: UTF8.self)) ≠ \(String(decoding: reference, as: UTF8.self))")
                let decoded = try JSONEventCodec.decode(type, schemaVersion: type.currentSchemaVersion, bytes: bytes)
                #expect(decoded == event, "\(type.rawValue)")
                if bytes != reference || decoded != event { return }
            }
        }
    }

    @Test("wire lines of seeded random events read back to the same event, write the same bytes, and survive the compact form")
    func wireLinesRoundTrip() throws {
        var random = Random(7, withinSchema: true)
        for index in 0..<4000 {
            let type = EventType.allCases[index % EventType.allCases.count]
            var wire = Self.wire(random.event(type), &random)
            if index % 7 == 0 {
                let subject = wire.subject ?? "u-1"
                wire = WireEvent(tombstone: EventEnvelope(
                    position: wire.envelope.position, stream: wire.stream, streamVersion: wire.streamVersion, recordedAt: wire.recordedAt,
                    header: EventHeader(eventId: wire.eventId, type: type.rawValue, schemaVersion: type.currentSchemaVersion, subject: subject,
                                        occurredAt: wire.occurredAt)), type: type)
            }
            let line = wire.jsonLine
            let parsed = try WireEvent(jsonLine: line)
            #expect(parsed == wire, "\(line)")
            #expect(parsed.jsonLine == line)
            #expect(try WireEvent(compact: wire.compactBytes.span) == wire)
        }
    }

    @Test("stored facts are held to the schemas' value ranges; command bodies leave them to the domain rules, which name the rule")
    func schemaRanges() throws {
        let lines: [(DomainEvent, String)] = [
            (.workoutFinished(WorkoutFinished(workoutId: "w-1", endedAt: at("2026-11-20T07:42:10+01:00"), distanceMeters: -5, movingSeconds: 60)),
             "data.distanceMeters"),
            (.stepsRecorded(StepsRecorded(samples: [StepSample(start: at("2026-11-20T09:00:00Z"), end: at("2026-11-20T09:01:00Z"), count: -1, source: "p")])),
             "data.samples[0].count"),
            (.stepsRecorded(StepsRecorded(samples: [])), "data.samples"),
            (.goalSet(GoalSet(date: day("2026-11-25"), steps: 0)), "data.steps"),
            (.goalDefaultSet(GoalDefaultSet(steps: 5000, activeMinutes: 1441)), "data.activeMinutes"),
            (.placeAdded(PlaceAdded(placeId: "p", name: "n", category: .activity, subcategory: "s", latitude: 90.5, longitude: 0)), "data.latitude"),
            (.placeAdded(PlaceAdded(placeId: "p", name: "n", category: .activity, subcategory: "s", latitude: 0, longitude: 0, priceLevel: 5)),
             "data.priceLevel"),
            (.workoutTrackRecorded(WorkoutTrackRecorded(workoutId: "w", part: 0, parts: 1, samples: TrackSamples(points: 2, heartRate: [120, 301]))),
             "data.samples.heartRate[1]"),
        ]
        for (event, field) in lines {
            let line = SchemaTests.wire(event, 0).jsonLine
            guard case .invalidJSON(_, let named, let reason)? = Self.refusal(line)?.codingError else {
                Issue.record("accepted: \(line)")
                continue
            }
            #expect(named == field && reason.contains("(column "), "\(named): \(reason)")
            // The same payload as a command body decodes; the domain rules judge it.
            #expect(try JSONEventCodec.decode(event.type, schemaVersion: event.type.currentSchemaVersion, bytes: JSONEventCodec.encodedBytes(event)) == event)
        }
    }

    @Test("timestamps and dates write their one text form as bytes: known values, years outside 1…9999 too, and 20,000 round trips through the parser")
    func timeText() throws {
        let day: Int64 = 86_400_000_000
        let year1: Int64 = -62_135_596_800_000_000
        let known: [(Timestamp, String)] = [
            (Timestamp(microsecondsSinceEpoch: 0), "1970-01-01T00:00:00Z"),
            (Timestamp(microsecondsSinceEpoch: 1_500, utcOffsetSeconds: 3600), "1970-01-01T01:00:00.001500+01:00"),
            (Timestamp(microsecondsSinceEpoch: 513_000, utcOffsetSeconds: -18_000), "1969-12-31T19:00:00.513-05:00"),
            (Timestamp(microsecondsSinceEpoch: year1), "0001-01-01T00:00:00Z"),
            (Timestamp(microsecondsSinceEpoch: 253_402_300_799_999_999), "9999-12-31T23:59:59.999999Z"),
            // Beyond the years a timestamp parses from: still written (as the text form always wrote them), never a crash.
            (Timestamp(microsecondsSinceEpoch: 253_402_300_800_000_000), "10000-01-01T00:00:00Z"),
            (Timestamp(microsecondsSinceEpoch: year1 - day), "0000-12-31T00:00:00Z"),
            (Timestamp(microsecondsSinceEpoch: year1 - 367 * day), "00-1-12-31T00:00:00Z"),
        ]
        for (stamp, text) in known {
            var bytes: [UInt8] = []
            stamp.appendRFC3339(to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == text)
            #expect(stamp.rfc3339 == text)
        }
        var rng = SplitMix64(seed: 3)
        for _ in 0..<20_000 {
            let micros = Int64.random(in: (year1 + day)...(253_402_300_799_999_999 - day), using: &rng)
            let stamp = Timestamp(microsecondsSinceEpoch: micros, utcOffsetSeconds: Int32.random(in: -64_800...64_800, using: &rng) / 60 * 60)
            #expect(try Timestamp(parsing: stamp.rfc3339) == stamp)
            #expect(CivilDate(parsing: stamp.localDate.description) == stamp.localDate)
        }
    }

    @Test("metadata is kept canonical: keys sorted at every level, white space dropped, numbers as written")
    func metadataCanonical() throws {
        let line = SchemaTests.wire(.placesReset, 0).jsonLine
            .replacingOccurrences(of: #""metadata":{}"#, with: #""metadata": { "z" : [ 1.50 , {"y":1,"b":2} ], "a":"x\/y" , "é":null}"#)
        #expect(try WireEvent(jsonLine: line).metadata == #"{"a":"x/y","é":null,"z":[1.50,{"b":2,"y":1}]}"#)
        // Keys in the order JSONSerialization's .sortedKeys gave them (what earlier imports stored).
        let keys = ["B", "a", "x10", "x9", "é", "e", "Z", "_", "aa", "A", "b", "Ab", "aB", "1", "10", "2"]
        let reference = try JSONSerialization.data(withJSONObject: Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }), options: [.sortedKeys])
        let mixed = SchemaTests.wire(.placesReset, 0).jsonLine
            .replacingOccurrences(of: #""metadata":{}"#, with: "\"metadata\":{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}")
        #expect(try WireEvent(jsonLine: mixed).metadata == String(decoding: reference, as: UTF8.self))
    }

    /// The reason a line is refused, or nil when it reads.
    static func refusal(_ line: String) -> LogbookError? {
        do {
            _ = try WireEvent(jsonLine: line)
            return nil
        } catch {
            return error
        }
    }

    @Test("what a lenient parser lets through is refused, with the field and the column named")
    func strictness() throws {
        let good = SchemaTests.wire(.goalSet(GoalSet(date: day("2026-11-25"), steps: 12_000)), 0).jsonLine
        #expect(Self.refusal(good) == nil)
        func expectRefused(_ line: String, field: String, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard let error = Self.refusal(line) else { Issue.record("accepted: \(line)", sourceLocation: sourceLocation); return }
            let named: String
            let message: String
            if case .invalidJSON(_, let dataField, let why)? = error.codingError { named = dataField; message = why } else {
                named = error.field ?? ""; message = error.message
            }
            #expect(named == field && message.contains(reason) && message.contains("(column "), "\(error)", sourceLocation: sourceLocation)
        }
        expectRefused(good.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":12000,\"steps\":12001"), field: "data.steps", reason: "duplicate field")
        expectRefused(good.replacingOccurrences(of: "\"stream\":", with: "\"stream\":\"x\",\"stream\":"), field: "stream", reason: "duplicate field")
        expectRefused(good.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":1.0"), field: "data.steps", reason: "expected an integer")
        expectRefused(good.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":99999999999999999999"), field: "data.steps", reason: "out of range")
        expectRefused(good.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":true"), field: "data.steps", reason: "expected an integer")
        expectRefused(good.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":null"), field: "data.steps", reason: "must not be null")
        expectRefused(good.replacingOccurrences(of: "\"streamVersion\":0", with: "\"streamVersion\":-1"), field: "streamVersion", reason: "non-negative")
        expectRefused(good.replacingOccurrences(of: "\"date\":\"2026-11-25\"", with: "\"date\":\"2026-02-30\""), field: "data.date", reason: "yyyy-mm-dd")
        expectRefused(good.replacingOccurrences(of: "\"u-1\"", with: "\"u-\\ud800\""), field: "event", reason: "lone surrogate")
        expectRefused(good.replacingOccurrences(of: "\"u-1\"", with: "\"u-\\udc00\\ud800\""), field: "event", reason: "lone surrogate")
        expectRefused(good.replacingOccurrences(of: "\"u-1\"", with: "\"u-\u{01}\""), field: "event", reason: "control character")
        expectRefused(good + " x", field: "event", reason: "after the JSON value")
        expectRefused(good.replacingOccurrences(of: #""metadata":{}"#, with: #""metadata":"#
            + String(repeating: "[", count: 100) + String(repeating: "]", count: 100)), field: "metadata", reason: "expected an object")
        expectRefused(good.replacingOccurrences(of: #""metadata":{}"#, with: #""metadata":{"a":"#
            + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"), field: "event", reason: "nested more than")
        var invalidUTF8 = Array(good.utf8)
        let at = invalidUTF8.firstIndex(of: UInt8(ascii: "u"))!
        invalidUTF8.insert(contentsOf: [0xC3, 0x28], at: at)
        #expect(throws: LogbookError.self) { try WireEvent(jsonBytes: invalidUTF8) }
        // A surrogate pair is a character, not an error.
        let pair = try WireEvent(jsonLine: good.replacingOccurrences(of: "\"u-1\"", with: "\"u-\\ud83d\\ude00\""))
        #expect(pair.subject == "u-😀")
        // The data may come before the type: it is read once the type is known.
        let reordered = #"{"data":{"date":"2026-11-25","steps":12000},"type":"goal.set","schemaVersion":1,"stream":"goals-u-1","streamVersion":0,"#
            + #""eventId":"00000000-0000-4000-8000-000000000001","occurredAt":"2026-11-20T08:00:00+01:00","recordedAt":"2026-11-20T07:00:00.513Z"}"#
        #expect(try WireEvent(jsonLine: reordered).event == .goalSet(GoalSet(date: day("2026-11-25"), steps: 12_000)))
        let column = Self.refusal(reordered.replacingOccurrences(of: "12000", with: "\"x\""))
        #expect(column?.codingError == .invalidJSON(type: "goal.set", field: "data.steps", reason: "expected an integer (column 38)"), "\(String(describing: column))")
    }

    @Test("a seeded fuzz run over every fixture (truncations, byte mutations, splices, huge numbers) never crashes, and what it accepts writes back and reads the same")
    func fuzz() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: SchemaTests.fixtures.path).filter { $0.hasSuffix(".json") }.sorted()
        let lines = try fixtures.map { try Array(String(contentsOf: SchemaTests.fixtures.appendingPathComponent($0), encoding: .utf8).utf8.prefix { $0 != 0x0A }) }
        #expect(lines.count >= 25)
        var rng = SplitMix64(seed: 99)
        let tokens: [[UInt8]] = ["{", "}", "[", "]", ",", ":", "\"", "\\", "null", "true", "-", "1e400", "99999999999999999999999", "\\u0000",
                                 "\\ud800", "\u{FF}", "é", " ", "\"data\":{}", "\"erased\":true"].map { Array($0.utf8) }
        var accepted = 0, refused = 0
        for round in 0..<30_000 {
            var bytes = lines[Int(rng.next() % UInt64(lines.count))]
            switch round % 5 {
            case 0: bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
            case 1: for _ in 0...(rng.next() % 3) { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            case 2: bytes.insert(contentsOf: tokens[Int(rng.next() % UInt64(tokens.count))], at: Int(rng.next() % UInt64(bytes.count)))
            case 3:
                let start = Int(rng.next() % UInt64(bytes.count))
                bytes.removeSubrange(start..<min(bytes.count, start + Int(rng.next() % 12)))
            default:
                let other = lines[Int(rng.next() % UInt64(lines.count))]
                let cut = Int(rng.next() % UInt64(bytes.count)), from = Int(rng.next() % UInt64(other.count))
                bytes = Array(bytes.prefix(cut)) + other[from...]
            }
            do {
                let event = try WireEvent(jsonBytes: bytes)
                accepted += 1
                let again = try WireEvent(jsonBytes: event.jsonBytes)
                #expect(again == event && again.jsonBytes == event.jsonBytes, "\(String(decoding: bytes, as: UTF8.self))")
            } catch {
                refused += 1
            }
        }
        #expect(accepted > 100 && refused > 10_000, "accepted \(accepted), refused \(refused)")
    }

    @Test("an import with one fuzzed line among good ones writes nothing, whichever line is broken")
    func fuzzedImportWritesNothing() async throws {
        try await withTemporaryDirectory { directory in
            // Good lines make a good import: each stream's versions follow on from 0.
            var versions: [String: UInt64] = [:]
            let lines = SchemaTests.samples.enumerated().map { index, event in
                var wire = SchemaTests.wire(event, index)
                wire.envelope.streamVersion = versions[wire.envelope.stream, default: 0]
                versions[wire.envelope.stream] = wire.envelope.streamVersion + 1
                return wire.jsonLine
            }
            var rng = SplitMix64(seed: 5)
            for attempt in 0..<6 {
                var broken = lines.map { Array($0.utf8) }
                let victim = Int(rng.next() % UInt64(lines.count))
                let at = Int(rng.next() % UInt64(broken[victim].count - 1)) + 1
                // Each breaks a line wherever it lands: a raw control character, a byte that is never UTF-8, a cut.
                switch attempt % 3 {
                case 0: broken[victim].insert(0x01, at: at)
                case 1: broken[victim].insert(0xFF, at: at)
                default: broken[victim] = Array(broken[victim].prefix(at))
                }
                let file = directory + "/broken-\(attempt).ndjson"
                try Data(broken.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: file))
                let (status, output) = try await runLogbook(["import", "--path", directory + "/data", file], includeErrors: true)
                #expect(status != 0, "\(output)")
                #expect(output.contains("broken-\(attempt).ndjson:\(victim + 1)"), "\(output)")
                let (_, inspect) = try await runLogbook(["inspect", "--path", directory + "/data", "--json"], includeErrors: true)
                #expect(inspect.contains("\"headPosition\":0"), "\(inspect)")
            }
        }
    }
}
