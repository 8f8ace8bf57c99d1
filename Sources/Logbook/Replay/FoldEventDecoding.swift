package import EventLog

extension FoldEvent {
    /// The fold event of a stored event, or nil for event types Logbook does not know (a log
    /// may carry events of other applications; projections ignore them) and for events of an
    /// erased user (every projection skips them: the Privacy article).
    package static func decode(_ envelope: EventEnvelope, payload: Span<UInt8>, _ payloads: PayloadKeys) throws(LogbookError) -> FoldEvent? {
        var memo: KeyMemo? = nil
        return try decode(envelope, payload: payload, payloads, remembering: &memo)
    }

    /// The same for a reader that decodes many events in turn: their users' keys are looked up
    /// through `memo` (when it is not nil), once per user.
    static func decode(
        _ envelope: EventEnvelope, payload: Span<UInt8>, _ payloads: PayloadKeys, remembering memo: inout KeyMemo?
    ) throws(LogbookError) -> FoldEvent? {
        guard EventType(rawValue: envelope.type) != nil else { return nil }
        var decoded: FoldEvent?
        try payloads.withOpened(envelope, payload, remembering: &memo) { (plaintext) throws(LogbookError) in
            decoded = try decode(envelope, plaintext: plaintext)
        }
        return decoded
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
