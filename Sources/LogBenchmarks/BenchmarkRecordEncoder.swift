import EventLog
import EventLogLMDB
import BinaryCoding
/// Encodes records exactly as the LMDB log stores them, for the raw-LMDB baseline: the same
/// bytes, without the log's logic.
struct BenchmarkRecordEncoder {
    private var tail = ByteWriter(capacity: 256)
    private var record = ByteWriter(capacity: 256)

    init() {}

    /// The last record encoded.
    var bytes: [UInt8] { record.bytes }

    /// Encodes `event` as the log would store it at `position`, with links to the previous event
    /// of its stream and subject `streamGap` and `subjectGap` positions earlier.
    mutating func encode(
        position: UInt64, event: ProposedEvent, recordedAt: Timestamp,
        typeNumber: UInt32, streamNumber: UInt32, streamVersion: UInt64, streamGap: UInt64,
        subjectNumber: UInt32, subjectSequence: UInt64, subjectGap: UInt64
    ) {
        tail.bytes.removeAll(keepingCapacity: true)
        RecordCodec.appendTail(of: event, to: &tail)
        let tailHash = RecordCodec.tailHash(tail.bytes.span)
        record.bytes.removeAll(keepingCapacity: true)
        let streamLinks = streamVersion == 0 ? ChainLinks.first
            : ChainLinks(previousDelta: streamGap, jumpVersionDelta: 1, jumpPositionDelta: streamGap)
        let subjectLinks = subjectSequence == 0 ? ChainLinks.first
            : ChainLinks(previousDelta: subjectGap, jumpVersionDelta: 1, jumpPositionDelta: subjectGap)
        RecordCodec.encode(
            into: &record, position: position, typeNumber: typeNumber, streamNumber: streamNumber,
            streamVersion: streamVersion, streamLinks: streamLinks, subjectNumber: subjectNumber,
            subjectSequence: subjectSequence, subjectLinks: subjectLinks,
            occurredMicros: event.occurredAt.microsecondsSinceEpoch, recordedAt: recordedAt,
            tail: tail.bytes[...], tailHash: tailHash)
    }
}
