public import Foundation

extension ProposedEvent {
    /// Parses an event id from its text form (as sent by clients), refusing anything that is not
    /// a UUID and the nil UUID, with a typed error naming the text.
    public static func eventID(parsing text: String) throws(EventStoreError) -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw .invalidEventID(text, reason: "not a UUID (expected 8-4-4-4-12 hexadecimal digits)")
        }
        guard id != UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) else {
            throw .invalidEventID(text, reason: "the nil UUID is not an event id")
        }
        return id
    }
}
