import ChildProcesses
@testable import Logbook
@testable import LogbookDomain
import BinaryCoding
import EventLog
import Foundation
import LogbookTestSupport
import LogbookTesting
import Testing

/// The JSON wire form against the JSON Schemas in `Schemas/events`, golden fixtures in
/// `Schemas/fixtures`, and the version-1 events that must replay like their upcast form.
@Suite("Wire form and schemas", .serialized)
struct SchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Schemas/fixtures")

    static func id(_ n: Int) -> UUID { UUID(uuidString: "00000000-0000-4000-8000-\(String(format: "%012d", n))")! }

    /// The example `data` of `type` (its declaration's), as an event.
    static func example(_ type: EventType, _ json: String) -> DomainEvent {
        do {
            return try JSONEventCodec.decode(type, schemaVersion: type.currentSchemaVersion, bytes: Array(json.utf8))
        } catch {
            preconditionFailure("the declared example of \(type.rawValue) does not read: \(error)")
        }
    }

    static func wire(_ event: DomainEvent, _ index: Int) -> WireEvent {
        WireEvent(
            position: UInt64(index + 1), stream: event.stream(user: "u-1"), streamVersion: 0, eventId: id(index + 1),
            subject: event.type == .placeAdded ? nil : "u-1", occurredAt: at("2026-11-20T08:00:00+01:00"),
            recordedAt: at("2026-11-20T07:00:00.513Z"), correlationId: index == 2 ? id(900) : nil,
            metadata: index == 2 ? #"{"client":"ios","version":"2.1"}"# : "{}", event: event)
    }

    @Test("every type has a timeline line of its own: written for it, or its declaration's template, never its bare name")
    func timelineLines() {
        for event in Self.samples {
            let line = TimelineDescriptions.describe(event, occurredAt: at("2026-11-20T08:00:00+01:00"), context: nil)
            #expect(line != event.type.rawValue, "\(event.type.rawValue) has no timeline line: give its declaration a `timeline` template")
            #expect(!line.contains("{") && !line.isEmpty, "\(event.type.rawValue): \(line)")
        }
        #expect(TimelineDescriptions.describe(.placesReset, occurredAt: at("2026-11-20T08:00:00+01:00"), context: nil)
            == "Reset the places: every place back in the deck, visits cleared")
    }

    @Test("every type has a sample, and each sample's line is its golden fixture and survives a round trip")
    func goldenFixtures() throws {
        #expect(Set(Self.samples.map(\.type)) == Set(EventType.allCases))
        let update = ProcessInfo.processInfo.environment["LOGBOOK_UPDATE_FIXTURES"] == "1"
        for (index, event) in Self.samples.enumerated() {
            let line = Self.wire(event, index).jsonLine
            let file = Self.fixtures.appendingPathComponent("\(event.type.rawValue).v\(event.type.currentSchemaVersion).json")
            if update { try (line + "\n").write(to: file, atomically: true, encoding: .utf8) }
            let golden = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .newlines)
            #expect(line == golden, "\(event.type.rawValue) no longer writes its fixture")
            let parsed = try WireEvent(jsonLine: line)
            #expect(parsed == Self.wire(event, index))
            #expect(parsed.jsonLine == line)
            // And the binary storage form round-trips too.
            let payload = BinaryEventCodec.encode(event)
            #expect(try BinaryEventCodec.decode(event.type, schemaVersion: event.type.currentSchemaVersion, payload: payload.span) == event)
        }
    }

    @Test("a tombstone (an erased user's event) is its envelope with null data and erased: true, and round-trips byte for byte")
    func tombstoneFixture() throws {
        let line = try String(contentsOf: Self.fixtures.appendingPathComponent("user.registered.v1-tombstone.json"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        let parsed = try WireEvent(jsonLine: line)
        #expect(parsed.isErased && parsed.type == .userRegistered && parsed.subject == "u-1")
        #expect(parsed.jsonLine == line)
        #expect(parsed.proposed.payload.isEmpty)
        for broken in [line.replacingOccurrences(of: #""data":null"#, with: #""data":{}"#),
                       line.replacingOccurrences(of: #","erased":true"#, with: ""),
                       line.replacingOccurrences(of: #""erased":true"#, with: #""erased":false"#),
                       line.replacingOccurrences(of: #""erased":true"#, with: #""erased":1"#),
                       line.replacingOccurrences(of: #""erased":true"#, with: #""erased":"true""#),
                       line.replacingOccurrences(of: #""subject":"u-1""#, with: #""subject":null"#)] {
            #expect(throws: LogbookError.self, "\(broken)") { try WireEvent(jsonLine: broken) }
        }
    }

    @Test("what the code emits validates against the schemas, and every schema has fixtures")
    func schemasValidate() throws {
        try withTemporaryFile { path in
            let lines = Self.samples.enumerated().map { Self.wire($0.element, $0.offset).jsonLine }
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let (status, output) = try run("python3", [Self.root.appendingPathComponent("tools/validate-schemas.py").path, path])
            #expect(status == 0, "\(output)")
        }
        // The checker is real: an event that breaks its schema fails it.
        try withTemporaryFile { path in
            var bad = Self.wire(.goalSet(GoalSet(date: day("2026-11-25"), steps: 12_000)), 0).jsonLine
            bad = bad.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":0,\"extra\":true")
            try bad.write(toFile: path, atomically: true, encoding: .utf8)
            let (status, output) = try run("python3", [Self.root.appendingPathComponent("tools/validate-schemas.py").path, path])
            #expect(status == 1)
            #expect(output.contains("extra") && output.contains("0 is less than the minimum"), "\(output)")
        }
    }

    @Test("the generated codecs, payload types and schemas are what the declarations give (regenerate: tools/make-events)")
    func generatedCodeMatchesDeclarations() throws {
        let (status, output) = try run("python3", [Self.root.appendingPathComponent("tools/make-events").path, "--check"])
        #expect(status == 0, "\(output)")
    }

    @Test("wire input errors name the field that is wrong")
    func wireErrors() throws {
        let good = Self.wire(.goalSet(GoalSet(date: day("2026-11-25"), steps: 12_000)), 0).jsonLine
        func expectError(_ line: String, _ check: (LogbookError) -> Bool) {
            do {
                _ = try WireEvent(jsonLine: line)
                Issue.record("accepted: \(line)")
            } catch {
                #expect(check(error), "\(error)")
            }
        }
        expectError("not json") { $0.field == "event" && $0.message == "not JSON: not a JSON value (column 1)" }
        expectError(good.replacingOccurrences(of: "\"stream\"", with: "\"strem\"")) { $0.field == "strem" && $0.message == "unknown field (column 15)" }
        expectError(good.replacingOccurrences(of: "\"goal.set\"", with: "\"goal.smashed\"")) { $0 == .coding(.unknownEventType("goal.smashed")) }
        expectError(good.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":\"many\"")) {
            if case .invalidJSON(_, let field, _)? = $0.codingError { return field == "data.steps" }
            return false
        }
        expectError(good.replacingOccurrences(of: "\"steps\":12000", with: "\"steps\":12000,\"color\":1")) {
            if case .invalidJSON(_, let field, let reason)? = $0.codingError { return field == "data.color" && reason.hasPrefix("unknown field (column ") }
            return false
        }
        expectError(good.replacingOccurrences(of: "\"2026-11-20T08:00:00+01:00\"", with: "\"yesterday\"")) {
            if $0.code == .invalidArgument, let name = $0.field { return name == "occurredAt" }
            return false
        }
        expectError(good.replacingOccurrences(of: "\"schemaVersion\":1", with: "\"schemaVersion\":7")) {
            $0 == .coding(.unknownSchemaVersion(type: "goal.set", version: 7))
        }
    }

    @Test("version-1 step events, binary and JSON, replay to the same read models as their upcast form")
    func upcasting() async throws {
        let hex = try String(contentsOf: Self.fixtures.appendingPathComponent("steps.recorded.v1.bin.hex"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let v1Payload = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        let fromBinary = try BinaryEventCodec.decode(.stepsRecorded, schemaVersion: 1, payload: v1Payload.span)
        let jsonLine = try String(contentsOf: Self.fixtures.appendingPathComponent("steps.recorded.v1-phone-app.json"), encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        let fromJSON = try WireEvent(jsonLine: jsonLine)
        #expect(fromJSON.event == fromBinary)
        #expect(fromJSON.schemaVersion == 2, "read events come out in the current version")
        guard case .stepsRecorded(let upcast) = fromBinary else { Issue.record("not steps"); return }
        #expect(upcast.samples.map(\.source) == ["phone", "phone", "phone"])
        #expect(upcast.samples.map(\.count) == [40, 75, 12])
        #expect(Upcasting.encodeStepsRecordedV1(source: "phone", samples: upcast.samples) == v1Payload)

        // Raw payloads appended to the log itself, as a store from before payload encryption holds them.
        func replay(_ payload: [UInt8], version: UInt32) async throws -> [String] {
            try await withLogbook({ $0.payloadEncryption = .plaintext }) { logbook, _ in
                try await logbook.execute(.registerUser(user: "u-1", UserRegistered(displayName: "Old", timeZone: "Europe/Berlin")),
                                          context: when("2026-11-20T08:00:00+01:00"))
                let event = ProposedEvent(
                    type: EventType.stepsRecorded.rawValue, schemaVersion: version, subject: "u-1",
                    occurredAt: at("2026-11-20T09:10:00+01:00"), payload: payload)
                _ = try await logbook.log.append([event], to: "steps-u-1")
                #expect(try await logbook.weeklyStats(user: "u-1", containing: day("2026-11-20")).steps == 127)
                return try logbook.digests().map(\.sha256)
            }
        }
        let old = try await replay(v1Payload, version: 1)
        let new = try await replay(BinaryEventCodec.encode(fromBinary), version: 2)
        #expect(old == new)
    }

    @Test("version-1 workout events (laps of distance and time only) read as version 2, binary and JSON")
    func workoutUpcasting() throws {
        // The golden version-1 lines still read, and come out in version 2 with the same values.
        for name in ["workout.imported.v1.json", "workout.finished.v1.json"] {
            let line = try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8).trimmingCharacters(in: .newlines)
            let event = try WireEvent(jsonLine: line)
            #expect(event.schemaVersion == 2)
            #expect(event.jsonLine == line.replacingOccurrences(of: "\"schemaVersion\":1", with: "\"schemaVersion\":2"))
        }
        // Binary: version 1 wrote each lap as distance and moving time, and nothing after the title.
        let finished = WorkoutFinished(workoutId: "w-1", endedAt: at("2026-11-20T07:42:10+01:00"), distanceMeters: 2000,
                                       movingSeconds: 600, laps: [Lap(distanceMeters: 1000, movingSeconds: 290), Lap(distanceMeters: 1000, movingSeconds: 310)])
        var v1 = ByteWriter(capacity: 64)
        v1.string("w-1"); v1.timestamp(at("2026-11-20T07:42:10+01:00")); v1.int(2000); v1.int(600)
        v1.byte(0); v1.byte(0); v1.byte(0)
        v1.byte(1); v1.varint(2); v1.int(1000); v1.int(290); v1.int(1000); v1.int(310)
        #expect(try BinaryEventCodec.decode(.workoutFinished, schemaVersion: 1, payload: v1.bytes.span) == .workoutFinished(finished))
        // A version-2 lap with its extra fields does not read as version 1: the layouts differ.
        #expect(BinaryEventCodec.encode(.workoutFinished(finished)) != v1.bytes)
        let imported = WorkoutImported(workoutId: "w-3", activityType: .ride, startedAt: at("2026-11-19T17:00:00-05:00"),
                                       endedAt: at("2026-11-19T18:00:00-05:00"), distanceMeters: 25300, movingSeconds: 3400,
                                       source: WorkoutSource(kind: .garmin, sourceId: "g-1"))
        let v2 = BinaryEventCodec.encode(.workoutImported(imported))
        #expect(try BinaryEventCodec.decode(.workoutImported, schemaVersion: 1, payload: Array(v2.dropLast(2)).span) == .workoutImported(imported))
    }

    @Test("track columns of the wrong length, and unknown columns, are refused with the field named")
    func trackWireErrors() throws {
        let good = Self.samples.firstIndex { $0.type == .workoutTrackRecorded }.map { Self.wire(Self.samples[$0], $0).jsonLine }!
        for (bad, field) in [
            (good.replacingOccurrences(of: "\"heartRate\":[121,null,124]", with: "\"heartRate\":[121,null]"), "data.samples.heartRate"),
            (good.replacingOccurrences(of: "\"points\":3", with: "\"points\":3,\"temperature\":[1,2,3]"), "data.samples.temperature"),
        ] {
            #expect(bad != good)
            do {
                _ = try WireEvent(jsonLine: bad)
                Issue.record("accepted: \(bad)")
            } catch {
                if case .invalidJSON(_, let named, _)? = error.codingError { #expect(named == field) } else { Issue.record("\(error)") }
            }
        }
    }

    func withTemporaryFile(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
        let child = try ChildProcess("/usr/bin/env", [program] + arguments, errors: true)
        let output = child.readToEnd()
        return (child.wait().status, String(decoding: output, as: UTF8.self))
    }
}
