import BinaryCoding
import EventLog

/// What the workout milestones need of one user's collectibles ledger, kept as entries come and
/// go so a query reads one record instead of the whole ledger: the entries counted, the metres
/// in total (held at the largest integer rather than overflowing), the longest entry's metres,
/// and where each workout milestone was earned (the first entry, in ledger order, to reach it).
///
/// An entry past every key the ledger has held is added here alone; anything else (an entry
/// taking another's place in the order, or one leaving from before a milestone it may have
/// earned, with the longest distance, or after the total saturated) has the totals worked out
/// again from the ledger, as if the entries had come in order.
struct LedgerTotals: TableValue, Equatable {
    /// Where a milestone was earned: the ledger key's position and workout, and the entry's date.
    struct Earned: Equatable {
        var position: UInt64
        var workoutId: String
        var date: CivilDate
    }

    /// The workout milestones, in the order they are stored.
    static let workoutMilestones: [Milestone] = [.firstWorkout, .first5k, .marathon, .tenWorkouts, .total100km]

    var count = 0
    var total = 0
    var longest = 0
    /// The greatest ledger key (position, workout) ever added, present or not.
    var highWater: (position: UInt64, workoutId: String)?
    /// By milestone, in ``workoutMilestones``' order: nil while not earned.
    var earned: [Earned?] = Array(repeating: nil, count: LedgerTotals.workoutMilestones.count)

    init() {}

    static func == (a: LedgerTotals, b: LedgerTotals) -> Bool {
        a.count == b.count && a.total == b.total && a.longest == b.longest && a.earned == b.earned
            && a.highWater?.position == b.highWater?.position && a.highWater?.workoutId == b.highWater?.workoutId
    }

    /// Whether `key` comes after every key added so far (so adding it keeps the ledger's order).
    func follows(_ key: UserPositionWorkoutKey) -> Bool {
        guard let highWater else { return true }
        return highWater.position != key.position ? highWater.position < key.position
            : highWater.workoutId.utf8.lexicographicallyPrecedes(key.workoutId.utf8)
    }

    /// Adds the entry at `key`, which comes after every entry in the totals.
    mutating func append(_ key: UserPositionWorkoutKey, _ entry: LedgerEntry) {
        count += 1
        total = total.saturatingAdd(entry.distanceMeters)
        longest = max(longest, entry.distanceMeters)
        highWater = (key.position, key.workoutId)
        for (index, milestone) in Self.workoutMilestones.enumerated() where earned[index] == nil {
            let reached = switch milestone {
            case .firstWorkout: true
            case .first5k, .marathon: entry.distanceMeters >= milestone.target
            case .tenWorkouts: count >= milestone.target
            default: total >= milestone.target
            }
            if reached { earned[index] = Earned(position: key.position, workoutId: key.workoutId, date: entry.date) }
        }
    }

    /// Takes out the entry at `key`; false if the totals must be worked out again instead (the
    /// entry may have earned a milestone or held the longest distance, or the total saturated).
    mutating func remove(_ key: UserPositionWorkoutKey, _ entry: LedgerEntry) -> Bool {
        let before = earned.compactMap { $0 }.contains { earned in
            earned.position != key.position ? key.position < earned.position
                : !earned.workoutId.utf8.lexicographicallyPrecedes(key.workoutId.utf8)
        }
        guard !before, entry.distanceMeters < longest, total != .max, total != .min, count > 0 else { return false }
        count -= 1
        total -= entry.distanceMeters
        return true
    }

    /// The milestones earned and the measures on the way to them: workouts counted, the longest
    /// one's metres, the metres in total.
    var milestones: (earned: [Collectible], measures: [String: Int]) {
        var collected: [Collectible] = []
        for (index, milestone) in Self.workoutMilestones.enumerated() {
            if let at = earned[index] { collected.append(Collectible(milestone, position: at.position, date: at.date)) }
        }
        let measures = [
            Milestone.firstWorkout.id: count, Milestone.tenWorkouts.id: count,
            Milestone.first5k.id: longest, Milestone.marathon.id: longest, Milestone.total100km.id: total,
        ]
        return (collected, measures)
    }

    func encode(into w: inout ByteWriter) {
        w.int(count); w.int(total); w.int(longest)
        if let highWater {
            w.byte(1); w.varint(highWater.position); w.string(highWater.workoutId)
        } else {
            w.byte(0)
        }
        for at in earned {
            guard let at else {
                w.byte(0)
                continue
            }
            w.byte(1); w.varint(at.position); w.string(at.workoutId); w.date(at.date)
        }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        count = try FieldReader.int(s, &o)
        total = try FieldReader.int(s, &o)
        longest = try FieldReader.int(s, &o)
        if try ByteReader.byte(s, &o) == 1 { highWater = (try ByteReader.varint(s, &o), try ByteReader.string(s, &o)) }
        for index in earned.indices where try ByteReader.byte(s, &o) == 1 {
            earned[index] = Earned(position: try ByteReader.varint(s, &o), workoutId: try ByteReader.string(s, &o), date: try FieldReader.date(s, &o))
        }
        guard o == s.count else { throw DecodeFailure(reason: "bytes after ledger totals") }
    }
}
