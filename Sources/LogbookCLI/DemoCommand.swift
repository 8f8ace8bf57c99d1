import ArgumentParser
import EventLog
import Foundation

/// `logbook demo`: appends a few events to a log under `./data` and reads them back.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Append a few events to the log in ./data and read them back.")

    @Option(help: "Directory of the log.")
    var path = "./data"

    func run() async throws {
        let store = try LMDBEventStore(path: path)
        do {
            let user = "u-demo"
            let now = Timestamp(Date(), utcOffsetSeconds: 3600)
            let workout = UUID().uuidString.lowercased()
            let payload = { (json: String) in Array(json.utf8) }
            let started = try await store.append(
                [ProposedEvent(type: "workout.started", subject: user, occurredAt: now,
                               payload: payload(#"{"workoutId":"\#(workout)","activityType":"run"}"#))],
                to: "workout-\(workout)", expectedVersion: .noStream)
            let finished = try await store.append(
                [ProposedEvent(type: "workout.finished", subject: user, occurredAt: now,
                               payload: payload(#"{"workoutId":"\#(workout)","distanceMeters":5012,"movingSeconds":1710}"#))],
                to: "workout-\(workout)", expectedVersion: .exactly(started.streamVersion))
            print("appended workout-\(workout) at positions \(started.firstPosition) and \(finished.firstPosition)")
            let head = try await store.headPosition()
            print("the log in \(path) holds \(head) events; the last \(min(5, head.rawValue)) of \(user)'s timeline:")
            let timeline = try await store.readSubject(user, from: head, direction: .backward, limit: 5)
            for event in timeline.reversed() {
                print("  #\(event.position) \(event.occurredAt) \(event.type) \(String(decoding: event.payload, as: UTF8.self))")
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
