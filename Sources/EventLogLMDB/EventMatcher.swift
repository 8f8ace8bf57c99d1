import EventLog
import LMDB

/// An ``EventFilter`` compiled against the interned numbers of one log, so matching a record is a
/// set lookup on its header, with stream-prefix answers remembered per stream number.
struct EventMatcher {
    private let typeNumbers: Set<UInt32>?
    private let streamPrefix: String?
    /// The subject's interned number; 0 (no event has it) when the log has never seen the subject.
    private let subjectNumber: UInt32?
    private var prefixAnswers: [UInt32: Bool] = [:]

    /// Compiles `filter`; event types the log has never seen can match nothing.
    init(_ filter: EventFilter, resolver: NameResolver, txn: ReadTransaction) throws {
        if let types = filter.eventTypes {
            var numbers = Set<UInt32>()
            for type in types {
                if let number = try resolver.number(.type, type, in: txn) { numbers.insert(number) }
            }
            typeNumbers = numbers
        } else {
            typeNumbers = nil
        }
        streamPrefix = filter.streamPrefix.flatMap { $0.isEmpty ? nil : $0 }
        if let subject = filter.subject {
            subjectNumber = try resolver.number(.subject, subject, in: txn) ?? 0
        } else {
            subjectNumber = nil
        }
    }

    @inline(__always)
    mutating func matches(_ header: RecordHeader, reader: LogReader, position: UInt64) throws -> Bool {
        if let typeNumbers, !typeNumbers.contains(header.typeNumber) { return false }
        if let subjectNumber, subjectNumber == 0 || header.subjectNumber != subjectNumber { return false }
        guard let streamPrefix else { return true }
        if let known = prefixAnswers[header.streamNumber] { return known }
        let name = try reader.resolver.name(.stream, header.streamNumber, in: reader.txn, at: position)
        let answer = name.hasPrefix(streamPrefix)
        if prefixAnswers.count >= 65_536 { prefixAnswers.removeAll(keepingCapacity: true) }
        prefixAnswers[header.streamNumber] = answer
        return answer
    }
}

extension LogReader {
    /// Visits the records from `start` (inclusive) in `direction`, at most `scanLimit` of them,
    /// calling `body` for those `matcher` accepts until it returns false.
    ///
    /// Returns the last position examined and whether the scan reached the end of the log.
    func scan(
        from start: UInt64, direction: ReadDirection, scanLimit: Int, matcher: inout EventMatcher,
        _ body: (Span<UInt8>, RecordHeader, UInt64) throws -> Bool
    ) throws -> (scannedThrough: UInt64?, reachedEnd: Bool) {
        try txn.withCursor(databases.events) { cursor in
            var onRecord = direction == .forward ? try cursor.seek(atOrAfter: start) : try cursor.seek(atOrBefore: start)
            var scanned = 0
            var last: UInt64?
            while onRecord {
                guard let position = cursor.currentKey else {
                    throw EventStoreError.corruption(position: Position(0), reason: "an events key is not 8 bytes")
                }
                let keepGoing = try cursor.withCurrentValue { span in
                    let header = try RecordCodec.decodeVerified(span, position: position)
                    guard try matcher.matches(header, reader: self, position: position) else { return true }
                    return try body(span, header, position)
                }
                last = position
                scanned += 1
                if !keepGoing || scanned >= scanLimit {
                    let more = direction == .forward ? try cursor.next() : try cursor.previous()
                    return (last, !more)
                }
                onRecord = direction == .forward ? try cursor.next() : try cursor.previous()
            }
            return (last, true)
        }
    }

    /// A page of the whole log.
    func readAll(from start: UInt64, direction: ReadDirection, limit: Int, scanLimit: Int, filter: EventFilter) throws -> LogPage {
        guard limit > 0 else { return LogPage(events: [], scannedThrough: nil, reachedEnd: false) }
        var matcher = try EventMatcher(filter, resolver: resolver, txn: txn)
        var events: [RecordedEvent] = []
        let (scanned, reachedEnd) = try scan(
            from: start, direction: direction, scanLimit: max(scanLimit, limit), matcher: &matcher
        ) { span, header, position in
            events.append(try recordedEvent(span, header, position: position))
            return events.count < limit
        }
        return LogPage(events: events, scannedThrough: scanned.map { Position($0) }, reachedEnd: reachedEnd)
    }
}
