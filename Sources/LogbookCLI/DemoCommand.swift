import DemoData
import ArgumentParser
import EventLog
import Foundation
import Logbook
import LogbookHTTP

/// `logbook demo`: generates the realistic demo data set into a Logbook (unless it is already
/// there), shows what the read models answer for one user, and serves it over HTTP with
/// ready-made tokens and example requests.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Generate the demo data set into ./data (once), show one user's read models, and serve it on localhost.")

    @Option(help: "Directory of the Logbook.")
    var path = "./data"

    @Flag(name: .customLong("no-serve"), help: "Generate and show, but do not start the server.")
    var noServe = false

    @OptionGroup var server: ServerOptions

    @Option(help: "Users to generate (each has 12 weeks of workouts, steps, goals and places).")
    var users = 20

    @Option(help: "Seed of the generated data.")
    var seed: UInt64 = 2026

    func validate() throws {
        guard (1...5000).contains(users) else { throw ValidationError("--users must be between 1 and 5000.") }
    }

    /// The demo's secret: the configured one, or a fresh random one (32 bytes as hex) printed
    /// with the tokens; nil with --insecure-no-auth.
    private func demoSecret() throws -> String? {
        guard !server.insecureNoAuth else { return nil }
        return try server.tokens.secret()
            ?? (0..<32).map { _ in String(UInt8.random(in: 0...255), radix: 16).leftPadded(2, with: "0") }.joined()
    }

    func run() async throws {
        var configuration = LogbookConfiguration()
        configuration.log.durability = .noSync  // regenerable data; closing flushes
        var logbook = try await Logbook.open(path: path, configuration: configuration)
        if try await logbook.log.headPosition() == .start {
            print("generating \(users) users × 12 weeks into \(path) …")
            let started = ContinuousClock.now
            let report = try await DemoDataGenerator(seed: seed, users: users).run(on: logbook)
            let head = try await logbook.log.headPosition()
            print("  \(head) events from \(report.commands) commands in \(ContinuousClock.now - started); "
                + "rejected by rule: \(report.rejected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        }
        await logbook.close()
        var live = LogbookConfiguration()
        server.configure(&live)
        logbook = try await Logbook.open(path: path, configuration: live)
        do {
            try await show(logbook)
        } catch {
            await logbook.close()
            throw error
        }
        if noServe {
            await logbook.close()
            return
        }
        let options = server
        let secret = try demoSecret()
        let tokens = try await DemoTokens(secret: secret, audience: options.tokens.audience, issuer: options.tokens.issuer)
        try await options.serve(logbook, secret: secret) { port in
            tokens.announce(host: options.host, port: port)
        }
    }

    /// The training week of the first user who trains (the Training article): plan against done, zones, load.
    private func showTraining(_ logbook: Logbook, week: CivilDate) async throws {
        let user = DemoDataGenerator.userId(1)
        guard (try? await logbook.profile(user: user)) != nil else { return }
        print("")
        TrainingText.printWeek(try await logbook.trainingWeek(user: user, containing: week, today: week.adding(days: 3)))
    }

    private func show(_ logbook: Logbook) async throws {
        let user = DemoDataGenerator.userId(0)
        let profile = try await logbook.profile(user: user)
        let week = CivilDate(year: 2026, month: 10, day: 28)!
        print("\n\(profile.displayName) (\(user), \(profile.timeZone), weeks start \(profile.weekStart.rawValue))")
        let stats = try await logbook.weeklyStats(user: user, containing: week)
        print("week of \(stats.from): \(stats.steps) steps, \(stats.totals.workouts) workouts, \(stats.totals.distanceMeters / 1000) km")
        for day in stats.days {
            let bar = String(repeating: "▇", count: min(40, day.steps / 1000))
            print("  \(day.date)  \(String(day.steps).leftPadded(6)) steps  \(bar)")
        }
        let goals = try await logbook.goalWeek(user: user, containing: week)
        print("goals met \(goals.daysMet)/7; streak \(goals.streaks.current), longest \(goals.streaks.longest)")
        let saved = try await logbook.savedPlaces(user: user, category: .restaurant)
        print("saved restaurants: \(saved.map(\.place.name).joined(separator: ", "))")
        print("latest timeline:")
        for entry in try await logbook.timeline(user: user, limit: 5).entries {
            print("  #\(entry.position) \(entry.occurredAt)  \(entry.description)")
        }
        print("collectibles: \(try await logbook.collectibles(user: user).map(\.title).joined(separator: ", "))")
        try await showTraining(logbook, week: week)
        print("\nread-model digests:")
        for digest in try logbook.digests() {
            print("  \(digest.projection.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(digest.sha256.prefix(16))… at \(digest.position)")
        }
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

/// The tokens and example requests `demo` prints once the server listens.
struct DemoTokens: Sendable {
    let user: String
    let userToken: String
    let adminToken: String?
    /// A one-time console sign-in code (2 minutes, one use).
    let consoleCode: String?

    init(secret: String?, audience: String?, issuer: String?) async throws {
        user = DemoDataGenerator.userId(0)
        if let secret {
            let keys = await TokenKeys(secret: secret)
            userToken = try await keys.token(user: user, audience: audience, issuer: issuer)
            adminToken = try await keys.token(user: "operator", admin: true, audience: audience, issuer: issuer)
            consoleCode = try await keys.consoleCode(user: "operator", sessionLifetime: 900, audience: audience, issuer: issuer)
        } else {
            userToken = "none"
            adminToken = nil
            consoleCode = nil
        }
    }

    func announce(host: String, port: Int) {
        let base = "http://\(host):\(port)"
        let auth = "-H \"Authorization: Bearer $TOKEN\""
        Output.announce("""

        Logbook demo serving on \(base)  (Ctrl-C to stop)

        export TOKEN=\(userToken)        # \(user), valid 24 h
        \(adminToken.map { "export ADMIN=\($0)        # administrator" } ?? "(authentication is off)")

        Console in the browser: \(consoleCode.map { ConsoleURLCommand.link(base: base, code: $0) + "\n          (signs in once, within 2 minutes; later: logbook console-url --url \(base))" } ?? base + "/console/")

        curl -s \(auth) '\(base)/users/\(user)/stats/weekly?date=2026-10-28'
        curl -s \(auth) '\(base)/users/\(user)/stats/weekly.svg?date=2026-10-28' > week.svg
        curl -s \(auth) '\(base)/users/\(user)/goals/week?date=2026-10-28'
        curl -s \(auth) '\(base)/users/\(user)/timeline?limit=5'
        curl -s \(auth) '\(base)/users/\(user)/places/saved?category=restaurant'
        curl -s \(auth) -X PUT '\(base)/users/\(user)/goals/2026-12-01' -H 'Content-Type: application/json' -d '{"steps":12000}'
        curl -s \(auth) -X POST '\(base)/users/\(user)/steps' -H 'Content-Type: application/json' \\
             -d '{"samples":[{"start":"2026-11-22T08:00:00Z","end":"2026-11-22T08:01:00Z","count":95,"source":"phone"}]}'
        curl -s \(auth) '\(base)/users/\(user)/timeline?limit=3'
        curl -s -N -H "Authorization: Bearer $ADMIN" '\(base)/log/subscribe' -H 'Last-Event-ID: 100'
        curl -s '\(base)/metrics'

        API: Schemas/openapi.json
        """)
    }
}
