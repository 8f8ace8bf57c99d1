import BinaryCoding
import EventLog

/// Turning payloads written in an older schema version into today's values.
///
/// `steps.recorded` version 1 (the phone-only app) named one `source` for the whole event;
/// version 2 names the source of each sample, so a phone and a watch can report together. A
/// version-1 event reads as version 2 with the event's source copied into every sample. Stored
/// events are never rewritten.
enum Upcasting {
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

    /// The version-1 payload of a single-source `steps.recorded` event (for fixtures and tests).
    static func encodeStepsRecordedV1(source: String, samples: [StepSample]) -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        w.string(source)
        w.varint(UInt64(samples.count))
        for sample in samples { w.timestamp(sample.start); w.timestamp(sample.end); w.int(sample.count) }
        return w.bytes
    }
}
