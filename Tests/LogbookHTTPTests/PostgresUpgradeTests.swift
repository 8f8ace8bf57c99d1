import AsyncHTTPClient
import Foundation
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// `POST /admin/rebuild?mode=background` on a real `logbook serve --postgres`: the read models
/// that follow the PostgreSQL log are built again beside the live ones while clients write and
/// read; every query answers 200 from a complete version and no write is lost by the switch.
@Suite("Upgrades in the background on a server following PostgreSQL", .serialized, .timeLimit(.minutes(10)))
struct PostgresUpgradeTests {
    /// The steps acknowledged so far and the position of the last one.
    struct Acknowledged: Sendable {
        var count = 0
        var position: UInt64 = 0
    }

    /// What the writer, the reader and the test share.
    final class Load: Sendable {
        /// Steps whose append has begun.
        let begun = Atomic<Int>(300)
        let acknowledged = Mutex(Acknowledged(count: 300))
        let stop = Atomic<Bool>(false)
        let upgrading = Atomic<Bool>(false)
        let readsDuringUpgrades = Atomic<Int>(0)
    }

    @Test("upgrades under steady writes and reads: no 503, no answer from a half-built version, no write lost")
    func upgradeUnderLoad() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await withTemporaryDirectory { root in
            let server = try await PostgresServerTests.serve(url, readModels: root + "/rm")
            defer { server.process.terminate() }
            let base = server.base
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let user = try await TokenKeys(secret: testSecret).token(user: "ana")
            let admin = try await TokenKeys(secret: testSecret).token(user: "op", admin: true)
            @Sendable func call(_ method: HTTPMethod, _ uri: String, _ body: String? = nil, token: String) async throws
                -> (status: UInt, text: String, position: UInt64?)
            {
                var request = HTTPClientRequest(url: base + uri)
                request.method = method
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Content-Type", value: "application/json")
                if let body { request.body = .bytes(ByteBuffer(string: body)) }
                let response = try await client.execute(request, timeout: .seconds(60))
                let text = String(buffer: try await response.body.collect(upTo: 8 << 20))
                return (response.status.code, text, response.headers.first(name: "X-Logbook-Position").flatMap(UInt64.init))
            }
            @Sendable func step(_ index: Int) async throws -> UInt64? {
                let time = "2026-11-17T\(String(format: "%02d:%02d:%02d", index / 3600, index / 60 % 60, index % 60))"
                let answer = try await call(.POST, "/users/ana/steps",
                                            #"{"samples":[{"start":"\#(time)Z","end":"\#(time).5Z","count":1,"source":"phone"}]}"#, token: user)
                #expect(answer.status == 201, "\(answer.text)")
                return answer.position
            }
            let registered = try await call(.POST, "/users/ana", #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#, token: user)
            #expect(registered.status == 201, "\(registered.text)")
            // Some history for the upgrades to fold.
            for index in 0..<300 { _ = try await step(index) }

            let load = Load()
            let writer = Task {
                var index = 300
                while !load.stop.load(ordering: .relaxed) {
                    load.begun.store(index + 1, ordering: .relaxed)
                    guard let position = try await step(index) else { return }
                    index += 1
                    load.acknowledged.withLock { $0 = Acknowledged(count: index, position: position) }
                }
            }
            let reader = Task {
                var last = 0
                while !load.stop.load(ordering: .relaxed) {
                    let least = load.acknowledged.withLock { $0 }
                    let during = load.upgrading.load(ordering: .relaxed)
                    let week = try await call(.GET, "/users/ana/stats/weekly?date=2026-11-17&minPosition=\(least.position)", token: user)
                    let most = load.begun.load(ordering: .relaxed)
                    #expect(week.status == 200, "a query answered \(week.status) during an upgrade: \(week.text)")
                    let object = try JSONSerialization.jsonObject(with: Data(week.text.utf8)) as? [String: Any]
                    let steps = try #require(object?["steps"] as? Int)
                    #expect(steps >= least.count && steps <= most, "steps \(steps) outside \(least.count)...\(most)")
                    #expect(steps >= last, "the answer went back from \(last) to \(steps)")
                    last = steps
                    if during && load.upgrading.load(ordering: .relaxed) { load.readsDuringUpgrades.add(1, ordering: .relaxed) }
                }
            }
            for _ in 0..<5 {
                load.upgrading.store(true, ordering: .relaxed)
                let answer = try await call(.POST, "/admin/rebuild?mode=background&projections=stats,timeline,profiles", token: admin)
                load.upgrading.store(false, ordering: .relaxed)
                #expect(answer.status == 200, "\(answer.text)")
                let lines = answer.text.split(separator: "\n")
                #expect(lines.last?.contains("\"digests\"") == true, "the upgrade did not end with digests: \(answer.text.suffix(300))")
            }
            let jobs = try await call(.GET, "/admin/jobs", token: admin)
            #expect(jobs.text.components(separatedBy: #""kind":"upgrade""#).count == 6, "\(jobs.text.prefix(400))")
            let projections = try await call(.GET, "/admin/projections", token: admin)
            #expect(projections.status == 200 && !projections.text.contains("\"upgrade\""), "\(projections.text)")
            let metrics = try await call(.GET, "/metrics", token: admin)
            #expect(metrics.text.contains("logbook_projection_upgrading{projection=\"stats\"}"), "\(metrics.text.prefix(200))")
            load.stop.store(true, ordering: .relaxed)
            try await writer.value
            try await reader.value
            #expect(load.readsDuringUpgrades.load(ordering: .relaxed) > 0, "no query was answered while an upgrade ran")
            let final = load.acknowledged.withLock { $0 }
            let week = try await call(.GET, "/users/ana/stats/weekly?date=2026-11-17&minPosition=\(final.position)", token: user)
            let object = try JSONSerialization.jsonObject(with: Data(week.text.utf8)) as? [String: Any]
            #expect(object?["steps"] as? Int == final.count, "an upgrade's switch lost a write: \(week.text.prefix(200))")
            let verify = try await call(.POST, "/admin/verify", token: admin)
            #expect(verify.status == 200 && verify.text.contains("\"allMatch\":true"), "\(verify.text.prefix(400))")
            try await client.shutdown()
        }
    }
}
