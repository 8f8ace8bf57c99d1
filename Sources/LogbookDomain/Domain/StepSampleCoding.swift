import BinaryCoding
import EventLog

/// The compact storage form of step samples (`steps.recorded` version 2), the bulk of a log:
/// the sources once per event, then per sample its source's index and each time as a delta —
/// start from the previous sample's start, end from its own start, offsets from the previous
/// offset — in whole seconds when every time of the event is whole seconds. Per-minute samples
/// take about six bytes each.
enum StepSampleCoding {
    static func encode(_ samples: [StepSample], into w: inout ByteWriter) {
        var sources: [String] = []
        for sample in samples where !sources.contains(where: { $0.hasSameBytes(as: sample.source) }) { sources.append(sample.source) }
        let wholeSeconds = samples.allSatisfy { $0.start.instant % 1_000_000 == 0 && $0.end.instant % 1_000_000 == 0 }
        let unit: Int64 = wholeSeconds ? 1_000_000 : 1
        w.byte(wholeSeconds ? 1 : 0)
        w.varint(UInt64(sources.count))
        for source in sources { w.string(source) }
        w.varint(UInt64(samples.count))
        var previousStart: Int64 = 0
        var previousOffset: Int32 = 0
        for sample in samples {
            w.varint(UInt64(sources.firstIndex { $0.hasSameBytes(as: sample.source) }!))
            w.signedVarint((sample.start.instant - previousStart) / unit)
            w.signedVarint(Int64(sample.start.utcOffsetSeconds - previousOffset))
            w.signedVarint((sample.end.instant - sample.start.instant) / unit)
            w.signedVarint(Int64(sample.end.utcOffsetSeconds - sample.start.utcOffsetSeconds))
            w.int(sample.count)
            previousStart = sample.start.instant
            previousOffset = sample.start.utcOffsetSeconds
        }
    }

    static func decode(_ s: Span<UInt8>, _ o: inout Int) throws(DecodeFailure) -> [StepSample] {
        let unit: Int64 = try ByteReader.byte(s, &o) == 1 ? 1_000_000 : 1
        let sourceCount = try ByteReader.int(s, &o)
        guard sourceCount <= s.count else { throw DecodeFailure(reason: "\(sourceCount) sources") }
        var sources: [String] = []
        for _ in 0..<sourceCount { sources.append(try ByteReader.string(s, &o)) }
        let count = try ByteReader.int(s, &o)
        guard count <= s.count else { throw DecodeFailure(reason: "\(count) samples") }
        var samples: [StepSample] = []
        samples.reserveCapacity(count)
        var previousStart: Int64 = 0
        var previousOffset: Int64 = 0
        for _ in 0..<count {
            let source = try ByteReader.int(s, &o)
            guard source < sources.count else { throw DecodeFailure(reason: "sample source \(source) of \(sources.count)") }
            let start = try Self.moved(previousStart, by: ByteReader.signedVarint(s, &o), unit: unit)
            let startOffset = try Self.moved(previousOffset, by: ByteReader.signedVarint(s, &o), unit: 1)
            let end = try Self.moved(start, by: ByteReader.signedVarint(s, &o), unit: unit)
            let endOffset = try Self.moved(startOffset, by: ByteReader.signedVarint(s, &o), unit: 1)
            let steps = try FieldReader.int(s, &o)
            let offsets = -Int64(Timestamp.maxOffsetSeconds)...Int64(Timestamp.maxOffsetSeconds)
            guard offsets.contains(startOffset), offsets.contains(endOffset) else {
                throw DecodeFailure(reason: "UTC offset out of range")
            }
            samples.append(StepSample(
                start: Timestamp(microsecondsSinceEpoch: start, utcOffsetSeconds: Int32(startOffset)),
                end: Timestamp(microsecondsSinceEpoch: end, utcOffsetSeconds: Int32(endOffset)), count: steps, source: sources[source]))
            previousStart = start
            previousOffset = startOffset
        }
        return samples
    }

    /// `value` moved by `delta` units; a stored delta beyond 64 bits is damage, not a trap.
    private static func moved(_ value: Int64, by delta: Int64, unit: Int64) throws(DecodeFailure) -> Int64 {
        let (step, stepOverflow) = delta.multipliedReportingOverflow(by: unit)
        let (result, overflow) = value.addingReportingOverflow(step)
        guard !stepOverflow, !overflow else { throw DecodeFailure(reason: "a step sample's time is out of range") }
        return result
    }
}
