/// A receiver's answer to one outbound POST, read within bounds: its status decides (any 2xx takes
/// the batch), and at most ``maxBodyBytes`` of its body are read, then the rest is dropped. Nothing
/// the receiver sends (status text, headers, body) reaches what operators see: a failure is one of
/// ``DeliveryFailure``'s coarse categories.
package struct ReceiverAnswer: Sendable {
    /// The most of an answer's body read before it is dropped.
    package static let maxBodyBytes = 64 << 10

    /// The status code of the answer's head.
    package let status: Int
    /// Body bytes read so far (at most one part past ``maxBodyBytes``).
    package private(set) var bodyBytes = 0

    /// The answer whose head carried `status`.
    package init(status: Int) { self.status = status }

    /// Counts a part of the body of `count` bytes; false once more than ``maxBodyBytes`` have
    /// come, when the reader stops (the connection is dropped with the rest).
    package mutating func read(_ count: Int) -> Bool {
        let (sum, overflow) = bodyBytes.addingReportingOverflow(max(count, 0))
        bodyBytes = overflow ? .max : sum
        return bodyBytes <= Self.maxBodyBytes
    }

    /// Nil when the receiver took the batch (2xx); else the failure, by the status's class only.
    package var failure: DeliveryFailure? {
        (200..<300).contains(status) ? nil : .answered(statusClass: (100..<600).contains(status) ? status / 100 : 0)
    }
}

/// Why a delivery failed, as operators are told (the status of a webhook, its dead letters, a
/// refused replay): a few coarse categories, so the answers do not map a network. Whether a port
/// is closed, filtered or slow, whether a name exists, which status exactly a service answered —
/// none of it shows; the server's log at debug level has the details.
package enum DeliveryFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stored URL cannot be called (it predates the checks made when a webhook is made).
    case invalidURL
    /// The host is, or resolves only to, addresses the policy refuses (``AddressPolicy``).
    case addressRefused
    /// No usable answer within the time limit: the name did not resolve, no connection, TLS
    /// failed, the answer was not HTTP, or it came too late.
    case noAnswer(within: Duration)
    /// The receiver answered outside 2xx: the status's class (1 to 5; 0 for a code outside 100…599).
    case answered(statusClass: Int)
    /// The webhook's secret does not open with the store's key: nothing can be signed.
    case secretUnavailable
    /// The sending side stopped.
    case notRunning

    package var description: String {
        switch self {
        case .invalidURL: "not sent: the webhook's URL cannot be called (delete it and make it again with a valid one)"
        case .addressRefused: "not sent: the receiver's address is not public (receivers on this machine's networks need the operator's opt-in: logbook serve --webhook-allow-private)"
        case .noAnswer(let limit): "no answer within \(Self.seconds(limit)): the receiver could not be reached or did not answer in time"
        case .answered(let statusClass):
            switch statusClass {
            case 3: "the receiver answered 3xx (redirects are not followed)"
            case 1, 2, 4, 5: "the receiver answered \(statusClass)xx"
            default: "the receiver answered a status outside HTTP's range"
            }
        case .secretUnavailable: "not sent: the webhook's secret does not open with this store's key (rotate it to a new one)"
        case .notRunning: "not sent: the webhook dispatcher is not running"
        }
    }

    /// `limit` in whole seconds (at least 1), or milliseconds below a second.
    private static func seconds(_ limit: Duration) -> String {
        let (seconds, attoseconds) = limit.components
        if seconds < 1 { return "\(max(attoseconds / 1_000_000_000_000_000, 0)) ms" }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }
}
