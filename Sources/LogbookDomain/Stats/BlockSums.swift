import BinaryCoding
import EventLog

/// What the stats summary sums of one block of a user's days (``DayBlock``), kept by the
/// activities fold as the block's entries in the user's list of counted workouts stand: per
/// activity type with a counted workout in the block, the workouts summed with their bests
/// (``SummaryAccumulator``) and the type's first local day. A summary over years then reads one
/// record per block, whatever the number of workouts in it.
///
/// The fold adds a workout as it is listed and takes one off by subtraction; when the one taken
/// off held a best or its type's first day, it sums the block's entries again. The sums are
/// exact integers and the bests a total order, so the record is the same whichever way it came
/// about: it equals the sum of the block's entries.
struct BlockSums: TableValue {
    /// One activity type's share of the block.
    struct TypeSums {
        var type: ActivityType
        var sums: SummaryAccumulator
        /// The local day (days since 1970) of the type's first workout in the block.
        var firstDay: Int32
    }

    /// In ``ActivityType`` order, each type once, none without workouts.
    private(set) var types: [TypeSums] = []

    init() {}

    /// No workout is summed.
    var isEmpty: Bool { types.isEmpty }

    /// The local day of the block's first workout, of `type` or of any.
    func firstDay(of type: ActivityType?) -> Int32? {
        types.filter { type == nil || $0.type == type }.map(\.firstDay).min()
    }

    /// Adds the block's workouts of `type` (all, if nil) into `accumulator`.
    func add(_ type: ActivityType?, into accumulator: inout SummaryAccumulator) throws(LogbookError) {
        for entry in types where type == nil || entry.type == type { try accumulator.add(entry.sums) }
    }

    /// Adds a workout listed in the block.
    mutating func add(_ w: SummaryWorkout) throws(LogbookError) {
        let day = Int32(w.date.daysSinceEpoch)
        if let index = types.firstIndex(where: { $0.type == w.type }) {
            try types[index].sums.add(w)
            types[index].firstDay = min(types[index].firstDay, day)
            return
        }
        let first = CivilDate(daysSinceEpoch: Int(DayBlock.first(of: day)))
        var sums = SummaryAccumulator(from: first, to: first.adding(days: Int(DayBlock.length) - 1))
        try sums.add(w)
        let order = Self.order(w.type)
        let index = types.firstIndex { Self.order($0.type) > order } ?? types.count
        types.insert(TypeSums(type: w.type, sums: sums, firstDay: day), at: index)
    }

    /// Takes off a workout listed in the block: true, or false (and nothing changed) when it held
    /// a best or its type's first day in the block, or no workout of its type is summed here —
    /// the block must then be summed again from its entries.
    mutating func remove(_ w: SummaryWorkout) throws(LogbookError) -> Bool {
        guard let index = types.firstIndex(where: { $0.type == w.type }), Int32(w.date.daysSinceEpoch) != types[index].firstDay,
              try types[index].sums.remove(w) else { return false }
        // The last workout of a type holds its longest, so a type is never emptied here.
        return true
    }

    private static func order(_ type: ActivityType) -> Int { ActivityType.allCases.firstIndex(of: type) ?? 0 }

    func encode(into w: inout ByteWriter) {
        w.varint(UInt64(types.count))
        for entry in types {
            w.enumeration(entry.type)
            w.date(CivilDate(daysSinceEpoch: Int(entry.firstDay)))
            entry.sums.encode(into: &w)
        }
    }

    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        let count = try ByteReader.varint(s, &o)
        // The fold removes a block's record when its last workout goes: a stored one sums at least one.
        guard (1...UInt64(ActivityType.allCases.count)).contains(count) else { throw DecodeFailure(reason: "\(count) activity types in a block's sums") }
        var block: Int32?
        for _ in 0..<count {
            let type = try FieldReader.enumeration(s, &o, ActivityType.self)
            let day = Int32(try FieldReader.date(s, &o).daysSinceEpoch)
            let first = DayBlock.first(of: day)
            guard block == nil || block == first, types.last.map({ Self.order($0.type) < Self.order(type) }) ?? true else {
                throw DecodeFailure(reason: "a block's sums out of order or spanning blocks")
            }
            block = first
            let from = CivilDate(daysSinceEpoch: Int(first))
            let sums = try SummaryAccumulator(decoding: s, &o, from: from, to: from.adding(days: Int(DayBlock.length) - 1))
            guard sums.bucket.workouts > 0 else { throw DecodeFailure(reason: "a block's sums of a type without workouts") }
            types.append(TypeSums(type: type, sums: sums, firstDay: day))
        }
        guard o == s.count else { throw DecodeFailure(reason: "\(s.count - o) bytes after a block's sums") }
    }
}
