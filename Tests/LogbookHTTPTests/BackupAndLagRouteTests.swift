import EventLog
import Foundation
import HTTPTypes
import Logbook
@testable import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Synchronization
import Testing

/// `POST /admin/backup` and the lag in seconds that `/metrics` and `admin/projections` report.
@Suite("Backup route and lag in seconds")
struct BackupAndLagRouteTests {
    @Test("POST /admin/backup writes a restorable backup under the backup directory; names are checked, reused ones refused, admins only")
    func backupRoute() async throws {
        try await withTemporaryDirectory { backups in
            try await withServer({ $0.backupDirectory = backups }) { server in
                let registered = try await server.call(.post, "/users/ana", as: "ana", body: #"{"displayName":"Ana","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
                #expect(registered.status == .created)
                #expect(try await server.call(.post, "/admin/backup?name=nightly", as: "ana").status == .forbidden)
                let made = try await server.call(.post, "/admin/backup?name=nightly", as: "op", admin: true)
                #expect(made.status == .ok, "\(made.text)")
                let manifest = made.json["manifest"] as? [String: Any]
                #expect(manifest?["head"] as? Int == 1)
                #expect(made.json["directory"] as? String == backups + "/nightly")
                #expect(try await server.call(.post, "/admin/backup?name=nightly", as: "op", admin: true).status == .conflict)
                for name in ["../escape", ".hidden", "a/b", String(repeating: "x", count: 101)] {
                    let refused = try await server.call(.post, "/admin/backup?name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", as: "op", admin: true)
                    #expect(refused.status == .badRequest, "\(name): \(refused.text)")
                }
                let detached = try await server.call(.post, "/admin/backup?wait=false", as: "op", admin: true)
                #expect(detached.status == .accepted)
                #expect(detached.json["kind"] as? String == "backup")
                let restored = backups + "/restored"
                let check = try await Logbook.restore(backup: backups + "/nightly", to: restored)
                #expect(check.head == 1 && check.verification.allSatisfy(\.matches))
                #expect(try FileManager.default.contentsOfDirectory(atPath: backups).count == 3)
            }
        }
        try await withServer { server in
            let refused = try await server.call(.post, "/admin/backup", as: "op", admin: true)
            #expect(refused.status == .conflict, "no backup directory configured: \(refused.text)")
        }
    }

    @Test("DELETE /users/{user} erases the user (themself or an administrator): a retry writes nothing, their reads are gone, their writes refused")
    func eraseRoute() async throws {
        try await withServer { server in
            for user in ["ana", "bob"] {
                let registered = try await server.call(.post, "/users/\(user)", as: user, body: #"{"displayName":"Somebody","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
                #expect(registered.status == .created)
            }
            #expect(try await server.call(.delete, "/users/bob", as: "ana").status == .forbidden)
            let erased = try await server.call(.delete, "/users/ana", as: "ana")
            #expect(erased.status == .created, "\(erased.text)")
            #expect(erased.json["stream"] as? String == "user-ana")
            let again = try await server.call(.delete, "/users/ana", as: "ana")
            #expect(again.status == .ok && again.json["alreadyApplied"] as? Bool == true, "\(again.text)")
            #expect(try await server.call(.get, "/users/ana/profile", as: "ana").status == .notFound)
            let refused = try await server.call(.post, "/users/ana", as: "ana", body: #"{"displayName":"Again","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
            #expect(refused.status == .unprocessableContent && refused.json["rule"] as? String == "user_erased", "\(refused.text)")
            let events = try await server.call(.get, "/users/ana/events", as: "ana")
            #expect(events.text.contains("\"erased\":true") && !events.text.contains("Somebody"), "\(events.text)")
            #expect(try await server.call(.delete, "/users/bob", as: "op", admin: true).status == .created)
            #expect(try await server.call(.delete, "/users/carl", as: "op", admin: true).status == .unprocessableContent)
        }
    }

    @Test("lag in seconds is the age of the oldest event not yet taken, by the Logbook's clock: for read models and for the slowest subscription")
    func lagInSeconds() async throws {
        let clock = SettableClock(Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000))
        try await withServer(logbook: { $0.clock = clock; $0.log.clock = clock }) { server in
            for (index, user) in ["a", "b", "c"].enumerated() {
                clock.set(Timestamp(microsecondsSinceEpoch: 1_795_000_000_000_000 + Int64(index) * 10_000_000))
                try await server.logbook.execute(.registerUser(user: user, UserRegistered(displayName: user, timeZone: "UTC")))
            }
            clock.set(Timestamp(microsecondsSinceEpoch: 1_795_000_060_000_000))
            let status = try await server.logbook.projectionStatus()
            #expect(status.allSatisfy { $0.lag == 0 && $0.lagSeconds == 0 }, "inline read models never wait")
            #expect(try await server.logbook.secondsWaiting(after: Position(1)) == 50, "event 2 was recorded 50 s before now")
            #expect(try await server.logbook.secondsWaiting(after: Position(3)) == 0, "nothing after the head")

            let live = LiveSubscriptions()
            let ticket = live.register(at: 1)
            let metrics = String(decoding: await LogbookMetrics().exposition(of: server.logbook, subscriptions: live), as: UTF8.self)
            for line in ["logbook_subscriptions 1", "logbook_subscription_lag_events 2", "logbook_subscription_lag_seconds 50",
                         "logbook_projection_lag_seconds{projection=\"stats\"} 0"] {
                #expect(metrics.contains(line), "\(line) missing from /metrics")
            }
            live.advance(ticket, to: 3)
            let caughtUp = String(decoding: await LogbookMetrics().exposition(of: server.logbook, subscriptions: live), as: UTF8.self)
            #expect(caughtUp.contains("logbook_subscription_lag_seconds 0"), "\(caughtUp)")
            let projections = try await server.call(.get, "/admin/projections", as: "op", admin: true)
            #expect(projections.text.contains("\"lagSeconds\":0"), "\(projections.text)")
        }
    }
}

/// A clock the test sets.
final class SettableClock: LogClock, Sendable {
    private let current: Mutex<Timestamp>
    init(_ start: Timestamp) { current = Mutex(start) }
    func set(_ time: Timestamp) { current.withLock { $0 = time } }
    func now() -> Timestamp { current.withLock { $0 } }
}
