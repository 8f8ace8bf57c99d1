import AsyncHTTPClient
import ChildProcesses
import EventLog
import Foundation
import Logbook
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import NIOCore
import Testing

/// A real `logbook serve` delivering webhooks, killed with SIGKILL in the middle of delivering
/// and started again on the same store: every acknowledged event reaches the receiver, in
/// order, and only batches around the kill arrive twice.
@Suite("Webhook crash safety")
struct WebhookCrashTests {
    @Test("SIGKILL mid-delivery: nothing lost, order kept, duplicates only around the kill")
    func killMidDelivery() async throws {
        let receiver = WebhookReceiver(secret: WebhookTests.secret)
        try await receiver.start()
        try await withTemporaryDirectory { path in
            // A generous time limit per POST: the suite loads this machine, and an answer past the limit
            // would be sent again (a duplicate this test would see as a rewind before the kill).
            // The receiver listens on loopback: the opt-in to receivers on this machine.
            let options = ["--webhook-timeout-seconds", "300", "--webhook-allow-private"]
            let (first, firstBase) = try await ServerProcessTests.startServer(path: path + "/data", options)
            defer { if first.isRunning { first.send(SIGKILL) } }
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let admin = try await TokenKeys(secret: testSecret).token(user: "root", admin: true)
            let token = try await TokenKeys(secret: testSecret).token(user: "ana")
            @Sendable func post(_ base: String, _ uri: String, _ body: String, as bearer: String) async throws -> (UInt, [String: Any]) {
                var request = HTTPClientRequest(url: base + uri)
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: body))
                let response = try await client.execute(request, timeout: .seconds(30))
                let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
                return (response.status.code, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
            }
            /// Appends `count` step samples from `from`, returning the acknowledged positions.
            @Sendable func steps(_ base: String, _ from: Int, _ count: Int) async throws -> [UInt64] {
                var acknowledged: [UInt64] = []
                for index in from..<(from + count) {
                    let minute = String(format: "%02d", index % 60), hour = String(format: "%02d", (index / 60) % 24)
                    let body = #"{"samples":[{"start":"2026-11-17T\#(hour):\#(minute):00Z","end":"2026-11-17T\#(hour):\#(minute):30Z","count":5,"source":"w"}]}"#
                    guard let (status, object) = try? await post(base, "/users/ana/steps", body, as: token), status == 201 else { break }
                    acknowledged.append(UInt64(try #require(object["firstPosition"] as? Int)))
                }
                return acknowledged
            }
            let registered = try await post(firstBase, "/users/ana", #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#, as: token)
            #expect(registered.0 == 201)
            let made = try await post(firstBase, "/admin/webhooks", #"{"url":"\#(receiver.url)","secret":"\#(WebhookTests.secret)","users":["ana"],"after":0}"#, as: admin)
            try #require(made.0 == 201, "\(made.1)")

            // Appends flow; once batches are arriving, the server is killed mid-stream.
            var acknowledged = [UInt64(1)]
            // Four writers, each its own hours of the day (so no two samples overlap).
            let appending = Task {
                try await withThrowingTaskGroup(of: [UInt64].self) { group in
                    for writer in 0..<4 { group.addTask { try await steps(firstBase, writer * 300, 300) } }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
            }
            try await eventually("batches arriving") { receiver.deliveries.count >= 20 }
            first.send(SIGKILL)
            #expect(try await ServerProcessTests.exited(first) == .signal(SIGKILL))
            acknowledged += try await appending.value
            let beforeKill = receiver.deliveries.count
            #expect(acknowledged.count > 1, "appends were flowing when the server was killed")

            let (server, base) = try await ServerProcessTests.startServer(path: path + "/data", options)
            defer { if server.isRunning { server.terminate() } }
            acknowledged += try await steps(base, 1200, 30)
            try await eventually("every acknowledged event delivered", timeout: .seconds(300)) {
                Set(receiver.positions).isSuperset(of: acknowledged)
            }
            server.terminate()
            #expect(try await ServerProcessTests.exited(server) == .exit(0))
            try await client.shutdown()

            let deliveries = receiver.deliveries
            #expect(deliveries.allSatisfy { $0.signed })
            // Order: each batch is in log order, and each starts right after what came before it,
            // or (once, after the restart) goes back to resend from the checkpoint.
            var seen = Set<UInt64>()
            var highest: UInt64 = 0
            var rewinds = 0
            for delivery in deliveries {
                #expect(delivery.positions == delivery.positions.sorted() && Set(delivery.positions).count == delivery.positions.count)
                guard let first = delivery.positions.first else { continue }
                if first <= highest {
                    rewinds += 1
                    #expect(delivery.sequence >= beforeKill, "a batch went back before the kill: \(delivery.delivery)")
                }
                for position in delivery.positions where seen.contains(position) {
                    // A duplicate is only an event delivered before the kill, sent again after it.
                    #expect(deliveries.first { $0.positions.contains(position) }!.sequence < beforeKill, "position \(position) twice")
                }
                seen.formUnion(delivery.positions)
                highest = max(highest, delivery.positions.last!)
            }
            #expect(rewinds <= 1)
            // Nothing was delivered that the log does not hold.
            let logbook = try await Logbook.open(path: path + "/data")
            let head = try await logbook.log.headPosition().rawValue
            await logbook.close()
            #expect(seen.allSatisfy { $0 <= head })
            #expect(Set(1...head).subtracting(seen).isEmpty, "every event of ana's up to the head was delivered")
        }
        await receiver.stop()
    }
}
