import EventLog
import Logbook
import LogbookDomain

/// One POST of a webhook: its events in log order, in the wire form (decrypted; tombstones for
/// erased users), as `{"webhook":"<id>","delivery":"<first>-<last>","events":[…]}`. The
/// delivery id stays the same across retries and replays, so a receiver can drop a batch it has
/// already seen.
struct WebhookBatch: Sendable {
    let webhookId: String
    /// The positions of its first and last event.
    let first: UInt64
    let last: UInt64
    let count: Int
    let body: [UInt8]

    var deliveryId: String { "\(first)-\(last)" }

    /// The batch of the longest prefix of `events` (at least one) whose body stays within
    /// `maxBytes`, and how many events it took; or the error of an event that has no wire form.
    static func make(webhookId: String, events: ArraySlice<RecordedEvent>, maxBytes: Int, of logbook: Logbook) throws -> (WebhookBatch, taken: Int) {
        var encoded: [UInt8] = []
        var taken = 0
        for event in events {
            var one: [UInt8] = []
            try WireEvent(event, of: logbook).appendJSON(to: &one)
            if taken > 0, encoded.count + one.count + 1 > maxBytes { break }
            if taken > 0 { encoded.append(UInt8(ascii: ",")) }
            encoded += one
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
        return (WebhookBatch(webhookId: webhookId, first: first, last: last, count: taken, body: body), taken)
    }
}
