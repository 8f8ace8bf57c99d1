package import EventLog
package import Logbook
import LogbookDomain

/// One POST of a webhook: its events in log order, in the wire form (decrypted; tombstones for
/// erased users), as `{"webhook":"<id>","delivery":"<first>-<last>","events":[…]}`. The
/// delivery id stays the same across retries and replays, so a receiver can drop a batch it has
/// already seen.
package struct WebhookBatch: Sendable {
    let webhookId: String
    /// The positions of its first and last event.
    package let first: UInt64
    package let last: UInt64
    let count: Int
    package let body: [UInt8]

    var deliveryId: String { "\(first)-\(last)" }

    /// What ``make(webhookId:events:maxBytes:of:)`` makes of the events at hand.
    package enum Made: Sendable {
        /// A batch of the first `taken` events.
        case batch(WebhookBatch, taken: Int)
        /// The first event has no wire form (a type this build does not know, a payload that
        /// does not open): it cannot be sent, and this says why.
        case unencodable(RecordedEvent, reason: String)
    }

    /// The batch of the longest prefix of `events` (at least one) whose events' wire forms, comma
    /// separated, stay within `maxBytes` and whose every event has a wire form; or, when the first
    /// event has none, why.
    package static func make(webhookId: String, events: ArraySlice<RecordedEvent>, maxBytes: Int, of logbook: Logbook) -> Made {
        var encoded: [UInt8] = []
        var taken = 0
        for event in events {
            let wire: WireEvent
            do {
                wire = try WireEvent(event, of: logbook)
            } catch {
                // Sent up to here; the event itself is reported on its own next time.
                if taken == 0 { return .unencodable(event, reason: "\(error)") }
                break
            }
            // Written in place, and taken back if it makes the batch too long.
            let end = encoded.count
            if taken > 0 { encoded.append(UInt8(ascii: ",")) }
            wire.appendJSON(to: &encoded)
            if taken > 0, encoded.count > maxBytes {
                encoded.removeSubrange(end...)
                break
            }
            taken += 1
        }
        let first = events[events.startIndex].position.rawValue
        let last = events[events.startIndex + taken - 1].position.rawValue
        var body = Array(#"{"webhook":""#.utf8) + Array(webhookId.utf8)
        body += #"","delivery":""#.utf8
        body += "\(first)-\(last)".utf8
        body += #"","events":["#.utf8
        body += encoded
        body += "]}".utf8
        return .batch(WebhookBatch(webhookId: webhookId, first: first, last: last, count: taken, body: body), taken: taken)
    }
}
