import BinaryCoding
import DemoData
import EventLog
import Foundation
@testable import Logbook
@testable import LogbookDomain
import LogbookTestSupport
import LogbookTesting
import Testing

/// The registry is the one list of read models, and what each read model declares about itself
/// is true: the event types it says it reads are the only ones its fold depends on (cache
/// invalidation trusts that list), its names are unique, and every cached query reads something.
@Suite("Read-model registry")
struct RegistryTests {
    /// The canonical bytes of one in-memory read model's tables (names, keys and values in order).
    struct TableBytes: TableVisitor {
        var bytes: [UInt8] = []
        var records = 0
        mutating func visit<Key: TableKey, Value: TableValue>(_ table: inout ReadModelTable<Key, Value>) {
            bytes += Array(table.name.utf8) + [0]
            for (key, value) in table.cacheSnapshot.sorted(by: { $0.key < $1.key }) {
                guard let value else { continue }
                records += 1
                var writer = ByteWriter(capacity: 64)
                key.encode(into: &writer)
                writer.bytes.append(0xFF)
                value.encode(into: &writer)
                bytes += writer.bytes
            }
        }
    }

    /// A short fingerprint of read model `kind` after folding every one of `events` in memory,
    /// each handed to the model's own `apply` (not through ``ReadModelSet``, which hands a model
    /// only the types it reads): its record and byte counts and an FNV-1a hash of its canonical bytes.
    func fold(_ kind: ReadModelKind, _ events: [FoldEvent]) throws -> String {
        var model: any ReadModel = ReadModelRegistry.model(kind).init(ReadModelTables(inMemory: ()))
        for event in events { try model.apply(event, nil) }
        var bytes = TableBytes()
        try model.visitTables(&bytes)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes.bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\(bytes.records) records, \(bytes.bytes.count) bytes, fnv \(String(hash, radix: 16))"
    }

    @Test("every read model's fold depends only on the event types it declares it reads (so folds may hand it only those)")
    func readsAreHonest() async throws {
        try await withGeneratedLogbook(seed: 31, users: 3, weeks: 2) { logbook in
            // What two weeks of the generator leave out: every other event type, once.
            let user = DemoDataGenerator.userId(0)
            let now = when("2026-09-08T12:00:00+02:00")
            let start = at("2026-09-08T07:00:00+02:00")
            try await logbook.execute(.updateProfile(user: user, UserProfileUpdated(weekStart: .sunday, preferredStepSource: .set("watch"))), context: now)
            try await logbook.execute(.clearGoal(user: user, date: day("2026-09-01")), context: now)
            try await logbook.execute(.importWorkout(user: user, WorkoutImported(
                workoutId: "x-edited", activityType: .run, startedAt: start, endedAt: at("2026-09-08T08:00:00+02:00"),
                distanceMeters: 12_000, movingSeconds: 3_500, source: WorkoutSource(kind: .strava, sourceId: "x1"))), context: now)
            try await logbook.execute(.recordTrack(user: user, workoutId: "x-edited", TrackSamples(
                points: 3, offsetMillis: [0, 60_000, 120_000], latitudeE7: [475_000_000, 475_004_000, 475_008_000],
                longitudeE7: [85_000_000, 85_000_000, 85_000_000], altitudeCentimeters: [40_000, 40_500, 40_200],
                heartRate: [140, 152, 161])), context: now)
            try await logbook.execute(.editWorkout(user: user, WorkoutEdited(workoutId: "x-edited", title: "Long", activityType: .hike)), context: now)
            // The same hike from a second source: grouped, then preferred, then kept apart.
            try await logbook.execute(.importWorkout(user: user, WorkoutImported(
                workoutId: "x-twin", activityType: .hike, startedAt: start, endedAt: at("2026-09-08T08:00:00+02:00"),
                distanceMeters: 11_900, movingSeconds: 3_450, source: WorkoutSource(kind: .garmin, sourceId: "x2"))), context: now)
            try await logbook.execute(.updateProfile(user: user, UserProfileUpdated(preferredWorkoutSources: [.garmin])), context: now)
            try await logbook.execute(Command(user: user, event: .workoutKeptSeparate(
                WorkoutKeptSeparate(workoutId: "x-edited", otherWorkoutId: "x-twin"))), context: now)
            try await logbook.execute(.startWorkout(user: user, WorkoutStarted(workoutId: "x-discarded", activityType: .walk, startedAt: start)), context: now)
            try await logbook.execute(.discardWorkout(user: user, workoutId: "x-discarded"), context: now)
            try await logbook.execute(.resetPlaces(user: user), context: now)
            // Training (the Training article): heart-rate settings, targets and a plan, changed and removed in part.
            try await logbook.execute(.updateProfile(user: user, UserProfileUpdated(maxHeartRate: .set(190), restingHeartRate: .set(50))), context: now)
            for (id, name) in [("t-10k", "City 10K"), ("t-half", "Half")] {
                try await logbook.execute(Command(user: user, event: .targetSet(TargetSet(
                    targetId: id, name: name, activityType: .run, distanceMeters: 10_000, raceDate: day("2026-10-18")))), context: now)
            }
            try await logbook.execute(Command(user: user, event: .targetCleared(TargetCleared(targetId: "t-half"))), context: now)
            for (id, date) in [("p-1", "2026-09-08"), ("p-2", "2026-09-09"), ("p-3", "2026-09-10")] {
                try await logbook.execute(Command(user: user, event: .planWorkoutPlanned(PlannedWorkout(
                    plannedId: id, date: day(date), activityType: .run, kind: .easy, distanceMeters: 8_000))), context: now)
            }
            try await logbook.execute(.changePlannedWorkout(user: user, plannedId: "p-2", PlannedWorkoutChanges(kind: .tempo)), context: now)
            try await logbook.execute(Command(user: user, event: .planWorkoutRemoved(PlannedWorkoutReference(plannedId: "p-3"))), context: now)
            try await logbook.execute(.record(user: nil, .placeUpdated(PlaceUpdated(placeId: "p-r1", name: "Renamed", phone: .set("+49 30 1")))), context: now)
            // A week closed (the notification of stats.week_closed), by the closer as a server runs it.
            try await logbook.closeEndedWeeks(now: at("2026-09-15T12:00:00+02:00"))
            var events: [FoldEvent] = []
            try await logbook.log.scan(after: .start, through: nil, filter: .all, chunkSize: 4096) { envelope, _, payload in
                if let fold = try FoldEvent.decode(envelope, payload: payload, logbook.payloads) { events.append(fold) }
                return true
            }
            // A type the history above does not make (one declared since) is folded from its
            // declaration's sample, after the history, as the user's event (the catalog's, for a
            // catalog type): every type reaches the folds, with no change here.
            let template = try #require(events.last { $0.user == user })
            var position = events.last?.position ?? 0
            for sample in SchemaTests.samples where sample.type != .userErased && !events.contains(where: { $0.event.type == sample.type }) {
                position += 1
                var envelope = template.envelope
                envelope.position = Position(position)
                envelope.stream = sample.stream(user: user)
                envelope.header.eventId = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", position))!
                envelope.header.type = sample.type.rawValue
                envelope.header.schemaVersion = sample.type.currentSchemaVersion
                envelope.header.subject = sample.type.family == .catalog ? nil : user
                events.append(FoldEvent(position: position, envelope: envelope, event: sample))
            }
            // user.erased never reaches a fold: its user's key is destroyed right after it is appended.
            #expect(Set(events.map(\.event.type)) == Set(EventType.allCases).subtracting([.userErased]), "the history should hold every event type")
            for model in ReadModelRegistry.models {
                let all = try fold(model.kind, events)
                let read = try fold(model.kind, events.filter { model.reads($0.event.type) })
                #expect(!all.hasPrefix("0 records"), "\(model.kind) folded nothing")
                #expect(all == read, "\(model.kind)'s fold depends on an event type it does not declare in reads(_:)")
            }
        }
    }

    @Test("names are unique, the registry is the order of the kinds, and every cached query depends on something")
    func declarations() {
        // Folds find an event's readers, and type sets their bits, by the type's index.
        #expect(EventType.allCases.enumerated().allSatisfy { $0.offset == $0.element.index }, "EventType.index is each type's place in allCases")
        let names = ReadModelRegistry.models.map { $0.kind.rawValue }
        #expect(Set(names).count == names.count)
        #expect(ReadModelKind.allCases.map(\.rawValue) == names)
        #expect(ReadModelKind(rawValue: "stats") == .stats)
        #expect(ReadModelKind(rawValue: "nope") == nil)
        for model in ReadModelRegistry.models {
            let tables = model.tableNames
            #expect(!tables.isEmpty && Set(tables).count == tables.count, "\(model.kind): \(tables)")
            #expect(!model.readTypes.isEmpty)
        }
        for query in ReadModelRegistry.cachedQueries {
            #expect(!query.dependsOn.isEmpty, "\(query.name) depends on nothing")
            for kind in query.readModels { #expect(ReadModelRegistry.models.contains { $0.kind == kind }) }
        }
        // Catalog changes reach exactly the caches that read the catalog.
        #expect(CachedQuery.places.dependsOnCatalog && CachedQuery.timeline.dependsOnCatalog)
        #expect(!CachedQuery.stats.dependsOnCatalog && !CachedQuery.records.dependsOnCatalog)
    }
}
