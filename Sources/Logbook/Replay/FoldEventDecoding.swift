package import EventLog

extension FoldEvent {
    /// The fold event of a stored event, or nil for event types Logbook does not know (a log
    /// may carry events of other applications; projections ignore them).
    package static func decode(_ envelope: EventEnvelope, payload: Span<UInt8>) throws(LogbookError) -> FoldEvent? {
        guard let type = EventType(rawValue: envelope.type) else { return nil }
        do {
            let event = try BinaryEventCodec.decode(type, schemaVersion: envelope.schemaVersion, payload: payload)
            return FoldEvent(position: envelope.position.rawValue, envelope: envelope, event: event)
        } catch {
            throw .coding(error)
        }
    }
}
