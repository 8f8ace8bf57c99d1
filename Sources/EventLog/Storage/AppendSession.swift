import LMDB

/// The work of one write transaction: decides each append against the stream's head, writes
/// records and advances chain heads, then writes the touched heads once at the end.
///
/// Records go to the end of the `events` database with `MDB_APPEND`, so they fill fresh pages in
/// order. The only other pages a batch dirties are those of the heads it touched (one small
/// record per stream and subject) and of names seen for the first time.
struct AppendSession {
    let txn: WriteTransaction
    let databases: LogDatabases
    let state: WriterState
    let recordedAt: Timestamp
    private var touchedStreams = Set<UInt32>()
    private var touchedSubjects = Set<UInt32>()
    private var scratch = ByteWriter(capacity: 4096)
    private(set) var eventsWritten = 0

    init(txn: WriteTransaction, databases: LogDatabases, state: WriterState, recordedAt: Timestamp) throws {
        self.txn = txn
        self.databases = databases
        self.state = state
        self.recordedAt = recordedAt
        try state.begin(txn)
    }

    /// Appends one request, or answers why not (a conflict leaves nothing written). Throws only
    /// for storage failures, which abort the whole transaction.
    mutating func apply(_ request: AppendRequest) throws -> Result<AppendResult, EventStoreError> {
        let existing = try state.existingNumber(.stream, request.stream, txn)
        var current: UInt64?
        if let existing {
            try state.loadHead(.stream, existing, txn)
            let count = state.streamHeads[existing]!.count
            current = count == 0 ? nil : count - 1
            if let current, let repeated = try previousAppend(matching: request, stream: existing, current: current) {
                return repeated
            }
        }
        switch request.expectedVersion {
        case .any: break
        case .noStream where current == nil: break
        case .streamExists where current != nil: break
        case .exactly(let version) where current == version: break
        default:
            return .failure(.wrongExpectedVersion(stream: request.stream, expected: request.expectedVersion, actual: current))
        }
        let stream = try existing ?? state.number(.stream, request.stream, txn)
        try state.loadHead(.stream, stream, txn)
        touchedStreams.insert(stream)
        let first = state.headPosition + 1
        var streamVersion: UInt64 = 0
        for event in request.events {
            let position = state.nextPosition()
            let (version, links) = state.streamHeads[stream]!.append(position: position)
            state.streamHeads[stream]!.remember(fingerprint: UUIDKey(event.eventId).fingerprint)
            streamVersion = version
            var subject: UInt32 = 0
            var subjectSequence: UInt64 = 0
            var subjectLinks = ChainLinks.first
            if let name = event.subject {
                subject = try state.number(.subject, name, txn)
                try state.loadHead(.subject, subject, txn)
                (subjectSequence, subjectLinks) = state.subjectHeads[subject]!.append(position: position)
                touchedSubjects.insert(subject)
            }
            scratch.bytes.removeAll(keepingCapacity: true)
            RecordCodec.encode(
                into: &scratch, position: position, event: event, recordedAt: event.recordedAt ?? recordedAt,
                typeNumber: try state.number(.type, event.type, txn), streamNumber: stream, streamVersion: version,
                streamLinks: links, subjectNumber: subject, subjectSequence: subjectSequence, subjectLinks: subjectLinks)
            try txn.put(databases.events, key: position, value: scratch.bytes.span, options: .append)
        }
        eventsWritten += request.events.count
        return .success(AppendResult(
            firstPosition: Position(first), lastPosition: Position(state.headPosition),
            streamVersion: streamVersion, alreadyWritten: false))
    }

    /// Stores a checkpoint in this transaction.
    mutating func store(_ checkpoint: Checkpoint) throws {
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.varint(checkpoint.position.rawValue)
        scratch.append(checkpoint.data)
        try txn.put(databases.checkpoints, key: checkpoint.name.utf8.span, value: scratch.bytes.span)
    }

    /// Writes every chain head the transaction advanced, in key order.
    mutating func finish() throws {
        for (chain, touched) in [(ChainKind.stream, touchedStreams), (.subject, touchedSubjects)] {
            let database = chain.heads(databases)
            for number in touched.sorted() {
                scratch.bytes.removeAll(keepingCapacity: true)
                let head = chain == .stream ? state.streamHeads[number]! : state.subjectHeads[number]!
                head.encode(into: &scratch)
                try txn.put(database, key: UInt64(number), value: scratch.bytes.span)
            }
        }
    }
}
