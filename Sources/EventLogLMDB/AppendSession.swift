import EventLog
import BinaryCoding
import LMDB

/// The work of one write transaction: decides each append against the stream's head, writes
/// records and advances chain heads, then writes the touched heads once at the end.
///
/// Records go to the end of the `events` database with `MDB_APPEND`, so they fill fresh pages in
/// order. The only other pages a batch dirties are those of the heads it touched (one small
/// record per stream and subject), of names seen for the first time, and of the id index: the
/// right edge of its time-ordered tree, or wherever a client's own ids fall.
struct AppendSession {
    let txn: WriteTransaction
    /// A cursor on `events`, kept for the whole transaction: appending through it skips the
    /// setup `mdb_put` repeats for every record.
    let events: Cursor
    let databases: LogDatabases
    /// The writer's state, moved in for the transaction and handed back by ``finish()``.
    var state: WriterState
    let recordedAt: Timestamp
    private var touchedStreams: [UInt32] = []
    private var touchedSubjects: [UInt32] = []
    /// A checkpoint's value, encoded.
    private var scratch = ByteWriter(capacity: 64)
    /// One id, for the journal.
    var idScratch = ByteWriter(capacity: 24)
    /// Cursors on the time-ordered id tree and the id journal, kept for the transaction: their
    /// puts go at the right edge, where the cursor already is.
    let orderedIds: Cursor
    let idJournal: Cursor
    /// The ids not yet folded into `ids.other`, committed so far.
    let journal: IdJournal
    /// This transaction's journal entries (ids that are not time-ordered), to hand to the
    /// journal once committed, and to look up meanwhile.
    var journalEntries: [(UUIDKey, UInt64)] = []
    var journalIndex: [UUIDKey: UInt64] = [:]
    /// The transaction folded the journal into `ids.other`.
    var folded = false
    /// The run of time-ordered ids this transaction is writing, not yet in `ids.ordered`, and
    /// the newest id indexed before it (its ids are all newer).
    var run: OrderedIdRuns.Run?
    var runFloor: UUIDKey?
    /// The positions of the ids of every run this transaction wrote, the open one included.
    var runIds = TransactionRunIds()
    private(set) var eventsWritten = 0
    /// When a commit observer is attached: every event written, as the observer will see it.
    private(set) var written: [CommittedBatch.Event] = []
    let recordsEvents: Bool

    init(
        txn: WriteTransaction, events: Cursor, databases: LogDatabases, state: consuming WriterState, recordedAt: Timestamp,
        recordsEvents: Bool, journal: IdJournal, orderedIds: Cursor, idJournal: Cursor
    ) throws {
        self.txn = txn
        self.journal = journal
        self.orderedIds = orderedIds
        self.idJournal = idJournal
        self.recordsEvents = recordsEvents
        self.events = events
        self.databases = databases
        self.state = state
        self.recordedAt = recordedAt
        try self.state.begin(txn, databases)
    }

    /// Appends one request, or answers why not (a conflict leaves nothing written). Throws only
    /// for storage failures, which abort the whole transaction.
    mutating func apply(_ append: PreparedBatch.Append, of batch: PreparedBatch) throws -> Result<AppendResult, EventStoreError> {
        let repeated = try repeatedIds(of: append, in: batch)
        if !repeated.isEmpty { return try previousAppend(matching: append, of: batch, found: repeated) }
        let existing = try state.existingNumber(.stream, append.stream, hash: append.streamHash, txn, databases)
        var current: UInt64?
        if let existing {
            let index = try state.loadHead(.stream, existing, txn, databases)
            let count = state.streams.count(index)
            current = count == 0 ? nil : count - 1
        }
        switch append.expectedVersion {
        case .any: break
        case .noStream where current == nil: break
        case .streamExists where current != nil: break
        case .exactly(let version) where current == version: break
        default:
            return .failure(.wrongExpectedVersion(stream: append.stream, expected: append.expectedVersion, actual: current))
        }
        if let condition = append.subjectCondition {
            var latest: UInt64 = 0
            if let number = try state.existingNumber(.subject, condition.subject, hash: append.subjectConditionHash, txn, databases) {
                latest = state.subjects.latestPosition(try state.loadHead(.subject, number, txn, databases))
            }
            if latest != condition.lastPosition.rawValue {
                return .failure(.subjectMoved(subject: condition.subject, expected: condition.lastPosition, actual: latest == 0 ? nil : Position(latest)))
            }
        }
        let stream = try existing ?? state.number(.stream, append.stream, hash: append.streamHash, txn, databases)
        let streamIndex = try state.loadHead(.stream, stream, txn, databases)
        if state.streams.touch(streamIndex, serial: state.serial) { touchedStreams.append(stream) }
        let first = state.headPosition + 1
        var streamVersion: UInt64 = 0
        for eventIndex in append.events {
            streamVersion = try write(batch.events[eventIndex], of: batch, stream: stream, at: streamIndex, named: append.stream)
        }
        eventsWritten += append.events.count
        return .success(AppendResult(
            firstPosition: Position(first), lastPosition: Position(state.headPosition),
            streamVersion: streamVersion, alreadyWritten: false))
    }

    /// Writes one event of `batch` (borrowed from it, not copied) to the end of the log and to
    /// its chains and the id index; returns its stream version.
    @inline(__always)
    private mutating func write(
        _ event: borrowing PreparedBatch.Event, of batch: borrowing PreparedBatch,
        stream: UInt32, at streamIndex: Int, named streamName: String
    ) throws -> UInt64 {
        let position = state.nextPosition()
        let (version, links) = state.streams.append(streamIndex, position: position)
        var subject: UInt32 = 0
        var subjectSequence: UInt64 = 0
        var subjectLinks = ChainLinks.first
        if let name = event.header.subject {
            subject = try state.number(.subject, name, hash: event.subjectHash, txn, databases)
            let subjectIndex = try state.loadHead(.subject, subject, txn, databases)
            (subjectSequence, subjectLinks) = state.subjects.append(subjectIndex, position: position)
            if state.subjects.touch(subjectIndex, serial: state.serial) { touchedSubjects.append(subject) }
        }
        let type = try state.number(.type, event.header.type, hash: event.typeHash, txn, databases)
        let head = RecordCodec.head(
            position: position, typeNumber: type, streamNumber: stream, streamVersion: version,
            streamLinks: links, subjectNumber: subject, subjectSequence: subjectSequence, subjectLinks: subjectLinks,
            occurredMicros: event.occurredMicros, recordedAt: event.recordedAt ?? recordedAt, tailHash: event.tailHash)
        // The record goes straight into the page LMDB reserves for it: the head from the stack,
        // the tail from the batch's buffer.
        let tail = batch.tails.bytes.span.extracting(event.tail)
        try head.withBytes { headBytes in try events.put(key: position, concatenating: headBytes, tail, options: .append) }
        try index(event, at: position)
        if recordsEvents {
            written.append(CommittedBatch.Event(
                envelope: EventEnvelope(
                    position: Position(position), stream: streamName, streamVersion: version,
                    recordedAt: event.recordedAt ?? recordedAt, header: event.header),
                metadata: batch.tails.bytes[event.metadata], payload: batch.tails.bytes[event.payload],
                decoded: event.decoded))
        }
        return version
    }

    /// Stores a checkpoint in this transaction.
    mutating func store(_ checkpoint: Checkpoint) throws {
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.varint(checkpoint.position.rawValue)
        scratch.append(checkpoint.data)
        try txn.put(databases.checkpoints, key: checkpoint.name.utf8.span, value: scratch.bytes.span)
    }

    /// Writes every chain head the transaction advanced, in key order through one cursor (which
    /// then mostly stays on its page), and hands the state back.
    mutating func finish() throws {
        try closeRun()
        if journal.count + journalEntries.count >= journal.foldThreshold { try foldJournal() }
        touchedStreams.sort()
        touchedSubjects.sort()
        try txn.withCursor(databases.streamHeads) { cursor in
            for number in touchedStreams {
                try cursor.put(key: UInt64(number), value: state.streams.latestPosition(Int(number)))
            }
        }
        try txn.withCursor(databases.subjectHeads) { cursor in
            for number in touchedSubjects {
                try cursor.put(key: UInt64(number), value: state.subjects.latestPosition(Int(number)))
            }
        }
    }
}
