/// A command route an event type's declaration gives (`route` in `Schemas/declarations`): the
/// HTTP layer registers each, and the API document lists it, with no code of its own.
public struct DeclaredRoute: Sendable, Hashable {
    /// The event type whose payload the body is.
    public let type: EventType
    /// The HTTP method (`POST`, `PUT`, `PATCH`, `DELETE`).
    public let method: String
    /// The path, relative to the API's root, with `{parameters}`.
    public let path: String
    /// One sentence for the API document.
    public let summary: String
    /// Only administrators may call it (catalog management); otherwise the path names `{user}`.
    public let administrators: Bool
    /// The payload fields the path fills in (`{placeId}` → `placeId`).
    public let pathFields: [String]
    /// The domain rules the command can break (422).
    public let rules: [DomainRule]
    /// An empty body is a body of no fields.
    public let emptyBodyAllowed: Bool
    /// The route takes a body (false: the path says everything, as in `DELETE …/goals/{date}`).
    public let hasBody: Bool
}
