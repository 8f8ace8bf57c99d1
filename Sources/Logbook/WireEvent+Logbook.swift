public import EventLog
public import LogbookDomain

extension WireEvent {
    /// The wire form of a stored event of `logbook` (its payload opened, decoded and upcast).
    public init(_ recorded: RecordedEvent, of logbook: Logbook) throws(LogbookError) {
        try self.init(envelope: recorded.envelope, metadata: recorded.metadata.span, payload: recorded.payload.span, of: logbook)
    }

    /// The wire form of an event of `logbook` seen by a scan: its envelope and its borrowed bytes.
    public init(envelope e: EventEnvelope, metadata: Span<UInt8>, payload: Span<UInt8>, of logbook: Logbook) throws(LogbookError) {
        guard let type = EventType(rawValue: e.type) else { throw .coding(.unknownEventType(e.type)) }
        let event = try logbook.payloads.open(e, payload) { (plaintext) throws(LogbookError) -> DomainEvent? in
            guard let plaintext else { return nil }
            do throws(DomainCodingError) {
                return try BinaryEventCodec.decode(type, schemaVersion: e.schemaVersion, payload: plaintext)
            } catch {
                throw .coding(error)
            }
        }
        var metadataText = "{}"
        if !metadata.isEmpty {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(metadata.count)
            for index in metadata.indices { bytes.append(metadata[index]) }
            metadataText = String(decoding: bytes, as: UTF8.self)
        }
        self.init(stored: e, type: type, metadata: metadataText, event: event)
    }
}
