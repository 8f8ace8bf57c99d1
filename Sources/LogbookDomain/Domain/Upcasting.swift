import BinaryCoding
import EventLog

/// Turning payloads written in an older schema version into today's values.
///
/// `steps.recorded` version 1 (the phone-only app) named one `source` for the whole event;
/// version 2 names the source of each sample, so a phone and a watch can report together. A
/// version-1 event reads as version 2 with the event's source copied into every sample. Stored
/// events are never rewritten.
package enum Upcasting {
    /// Reads a version-1 `steps.recorded` payload: source, then samples without sources.
    static func stepsRecordedV1(_ s: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> StepsRecorded {
        let source = try ByteReader.string(s, &o)
        let count = try ByteReader.int(s, &o)
        guard count <= s.count else { throw DecodeFailure(reason: "\(count) samples") }
        var samples: [StepSample] = []
        samples.reserveCapacity(count)
        var previousStart: Int64 = 0
        for _ in 0..<count {
            let start = try FieldReader.timestamp(s, &o), end = try FieldReader.timestamp(s, &o)
            // Version 2 stores a start as a delta from the one before and an end from its start:
            // times no 64-bit delta holds are damage, refused here rather than trapping when the
            // event is written again (an import's spill, a restore).
            guard !start.instant.subtractingReportingOverflow(previousStart).overflow,
                  !end.instant.subtractingReportingOverflow(start.instant).overflow else {
                throw DecodeFailure(reason: "a step sample's times are too far apart")
            }
            previousStart = start.instant
            samples.append(StepSample(start: start, end: end, count: try FieldReader.int(s, &o), source: source))
        }
        return StepsRecorded(samples: samples)
    }

    /// Reads a version-1 `steps.recorded` `data` object: one `source` for the event, samples of
    /// `start`, `end` and `count` (at least one); each sample gets the event's source.
    static func stepsRecordedV1JSON(_ r: inout JSONReader) throws(JSONReadError) -> StepsRecorded {
        var samples: [StepSample]?
        var source: String?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "source": try r.read(&source)
            case "samples":
                try r.once(samples)
                samples = try r.readElements(items: 1...Int.max) { (r) throws(JSONReadError) in try sampleV1(&r) }
            default: throw r.unknownField()
            }
        }
        var all = try r.required(samples, "samples")
        let shared = try r.required(source, "source")
        for index in all.indices { all[index].source = shared }
        return StepsRecorded(samples: all)
    }

    private static func sampleV1(_ r: inout JSONReader) throws(JSONReadError) -> StepSample {
        var start: Timestamp?, end: Timestamp?, count: Int?
        try r.readObject { (r, key) throws(JSONReadError) in
            switch key {
            case "start": try r.read(&start)
            case "end": try r.read(&end)
            case "count": try r.read(&count, within: 0...Int.max)
            default: throw r.unknownField()
            }
        }
        return StepSample(start: try r.required(start, "start"), end: try r.required(end, "end"), count: try r.required(count, "count"), source: "")
    }

    /// The version-1 payload of a single-source `steps.recorded` event (for fixtures and tests).
    static func encodeStepsRecordedV1(source: String, samples: [StepSample]) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.string(source)
        w.varint(UInt64(samples.count))
        for sample in samples { w.timestamp(sample.start); w.timestamp(sample.end); w.int(sample.count) }
        return w.bytes
    }
}
