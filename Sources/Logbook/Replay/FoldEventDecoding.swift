package import EventLog

extension FoldEvent {
    /// The fold event of a stored event, or nil for event types Logbook does not know (a log
    /// may carry events of other applications; projections ignore them) and for events of an
    /// erased user (every projection skips them: the Privacy article).
    package static func decode(_ envelope: EventEnvelope, payload: Span<UInt8>, _ payloads: PayloadKeys) throws(LogbookError) -> FoldEvent? {
        guard EventType(rawValue: envelope.type) != nil else { return nil }
        return try payloads.open(envelope, payload) { (plaintext) throws(LogbookError) -> FoldEvent? in
            try decode(envelope, plaintext: plaintext)
        }
    }

    /// The same for a payload already opened (`plaintext`; nil: its user was erased).
    static func decode(_ envelope: EventEnvelope, plaintext: Span<UInt8>?) throws(LogbookError) -> FoldEvent? {
        guard let type = EventType(rawValue: envelope.type), let plaintext else { return nil }
        do throws(DomainCodingError) {
            let event = try BinaryEventCodec.decode(type, schemaVersion: envelope.schemaVersion, payload: plaintext)
            return FoldEvent(position: envelope.position.rawValue, envelope: envelope, event: event)
        } catch {
            throw .coding(error)
        }
    }
}
