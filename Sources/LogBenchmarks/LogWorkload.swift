public import DemoData
public import EventLog
import Foundation


/// The fixed workload of `logbook-bench log`: event i (from 1) goes to stream `user-%08d` of
/// (i−1) mod 10,000 and subject (i−1) mod 1,000, with a 64-byte payload and a time-ordered
/// (version 7) id, as the log and Logbook make them — or, with ``clientIds``, a random version 4
/// id, as a client that chooses its own ids would send.
public struct LogWorkload: Sendable {
    public let events: Int
    public let streams = 10_000
    public let subjects = 1_000
    public let payloadSize = 64
    public let types = ["bench.started", "bench.sampled", "bench.finished", "bench.edited"]
    let streamNames: [String]
    let subjectNames: [String]
    let payload: [UInt8]
    public let base = Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000, utcOffsetSeconds: 3600)

    /// Random version-4 ids instead of time-ordered ones.
    public let clientIds: Bool

    public init(events: Int, clientIds: Bool = false) {
        self.events = events
        self.clientIds = clientIds
        streamNames = (0..<10_000).map { "user-" + String(repeating: "0", count: 8 - String($0).count) + String($0) }
        subjectNames = (0..<1_000).map { "u-" + String($0) }
        payload = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    public func stream(_ i: Int) -> String { streamNames[(i - 1) % streams] }
    public func streamIndex(_ i: Int) -> Int { (i - 1) % streams }
    public func subjectIndex(_ i: Int) -> Int { (i - 1) % subjects }
    public func typeIndex(_ i: Int) -> Int { (i - 1) % types.count }

    /// Event `i` of the workload.
    public func event(_ i: Int, random: inout SplitMix64) -> ProposedEvent {
        let occurredAt = Timestamp(microsecondsSinceEpoch: base.microsecondsSinceEpoch + Int64(i) * 1000, utcOffsetSeconds: 3600)
        return ProposedEvent(
            eventId: clientIds ? random.uuid() : random.timeOrderedUUID(at: occurredAt.instant), type: types[typeIndex(i)],
            subject: subjectNames[subjectIndex(i)], occurredAt: occurredAt, payload: payload)
    }
}
