public import Foundation
import Synchronization

/// A keyed request being performed by ``Logbook/once(_:_:)``: the id its first event carries, and
/// — once the caller says how — the answer made of its command's result.
///
/// On a log several servers share, that answer is kept in the commit that appends the command's
/// events: it is kept if, and only if, the events are in the log, and a retry that reaches any
/// server answers the same bytes. Elsewhere (and for a request that appends nothing) the answer
/// the caller returns is kept after the request, as before.
public final class KeyedCall: Sendable {
    /// How an answer is made: from the command's result and the types of the events it appended.
    public typealias Respond = @Sendable (_ result: CommandResult, _ appendedTypes: [String]) throws -> StoredResponse

    /// The id the request's first event must carry (``IdempotentRequest/eventId``).
    public let eventId: UUID
    let request: IdempotentRequest
    private let state = Mutex<State>(State())

    private struct State {
        var respond: Respond?
        var kept: RequestKeyStore.Entry?
        var keptByThisCall = false
    }

    init(request: IdempotentRequest) {
        self.request = request
        eventId = request.eventId
    }

    /// Says how the request's answer is made from its command's result and the types of the
    /// events the command appended (the same answer the caller will return for that result).
    /// Called again, it replaces the earlier way.
    public func answer(with respond: @escaping Respond) {
        state.withLock { $0.respond = respond }
    }

    /// How the answer is made, if the caller said.
    var respond: Respond? { state.withLock { $0.respond } }

    /// Records the answer that stands under the request's key once its events were committed.
    func recordKept(_ entry: RequestKeyStore.Entry, byThisCall: Bool) {
        state.withLock { state in
            state.kept = entry
            state.keptByThisCall = byThisCall
        }
    }

    /// The answer kept with the request's events, and whether this call made it (false: another
    /// request under the same key kept one first).
    var kept: (entry: RequestKeyStore.Entry, byThisCall: Bool)? {
        state.withLock { state in state.kept.map { ($0, state.keptByThisCall) } }
    }
}
