import BinaryCoding
import EventLog

/// What one counted workout brings to a summary.
struct SummaryWorkout: Sendable {
    var id: String
    var startInstant: Int64
    /// The facts it was made of (kept with a best in ``BlockSums``).
    var facts: SummaryFacts
    /// The source's elapsed time, else end minus start, else the moving time.
    var elapsedSeconds: Int
    /// The source's average heart rate, else the track's mean.
    var heartRate: Int?

    var date: CivilDate { facts.date }
    var type: ActivityType { facts.type }
    var distanceMeters: Int { facts.distanceMeters }
    var movingSeconds: Int { facts.movingSeconds }
    var elevationGainMeters: Int? { facts.climbGainMeters }
    var activeKcal: Int? { facts.activeKcal }

    /// The largest distance, time, kilocalories and heart rate a stored workout may carry here:
    /// far beyond any the rules admit, and small enough that no sum of them overflows.
    static let quantityLimit = 1 << 32

    /// The workout `id`, started at `startInstant`, as its list entry's facts describe it; facts
    /// whose numbers no command could have written (a damaged store) are a storage error, not a
    /// trap.
    init(id: String, startInstant: Int64, _ facts: SummaryFacts) throws(LogbookError) {
        let quantities = [
            facts.distanceMeters, facts.movingSeconds, facts.elapsedSeconds ?? 0, facts.activeKcal ?? 0, facts.avgHeartRate ?? 0,
            facts.climbGainMeters ?? 0, facts.trackMeanHeartRate ?? 0,
        ]
        let (span, overflow) = (facts.endedAt ?? startInstant).subtractingReportingOverflow(startInstant)
        guard quantities.allSatisfy({ (0...Self.quantityLimit).contains($0) }), !overflow else {
            throw .storage("stored workout \(id) holds numbers out of range")
        }
        self.id = id
        self.facts = facts
        self.startInstant = startInstant
        if let elapsed = facts.elapsedSeconds {
            elapsedSeconds = elapsed
        } else if facts.endedAt != nil, span >= 0, span / 1_000_000 <= Self.quantityLimit {
            elapsedSeconds = Int(span / 1_000_000)
        } else {
            elapsedSeconds = facts.movingSeconds
        }
        heartRate = (facts.avgHeartRate ?? facts.trackMeanHeartRate).map { min($0, 1 << 16) }
    }

    var best: SummaryBest {
        SummaryBest(
            workoutId: id, date: date, activityType: type, distanceMeters: distanceMeters, movingSeconds: movingSeconds,
            paceSecondsPerKm: type.usesPace && distanceMeters > 0 ? Double(movingSeconds) / (Double(distanceMeters) / 1000) : nil,
            speedKmh: type == .ride && movingSeconds > 0 ? (Double(distanceMeters) / 1000) / (Double(movingSeconds) / 3600) : nil)
    }
}

/// Sums workouts into one bucket.
struct SummaryAccumulator {
    /// Workouts shorter than this never hold a fastest pace or speed (as personal records).
    static let fastestMinimumMeters = 1000

    private(set) var bucket: SummaryBucket
    private var heartRateWeighted = 0
    private var heartRateSeconds = 0
    private var longest: SummaryWorkout?
    private var fastestPace: SummaryWorkout?
    private var fastestSpeed: SummaryWorkout?

    init(from: CivilDate, to: CivilDate) { bucket = SummaryBucket(from: from, to: to) }

    /// Adds `w`. The sums are checked: a damaged store's numbers that would overflow them are a
    /// storage error, not a trap.
    mutating func add(_ w: SummaryWorkout) throws(LogbookError) {
        try addSums(of: w, times: 1)
        if longest.map({ Self.longer(w, than: $0) }) ?? true { longest = w }
        if w.distanceMeters >= Self.fastestMinimumMeters, w.movingSeconds > 0 {
            if w.type.usesPace, fastestPace.map({ Self.faster(w, than: $0) }) ?? true { fastestPace = w }
            if w.type == .ride, fastestSpeed.map({ Self.faster(w, than: $0) }) ?? true { fastestSpeed = w }
        }
    }

    /// Adds what `w` brings to the eight sums, `sign` times (-1: takes it off).
    private mutating func addSums(of w: SummaryWorkout, times sign: Int) throws(LogbookError) {
        let rated = w.heartRate != nil && w.movingSeconds > 0
        try addSums(
            sign, sign * w.distanceMeters, sign * w.movingSeconds, sign * w.elapsedSeconds, sign * (w.elevationGainMeters ?? 0),
            sign * (w.activeKcal ?? 0), rated ? sign * (w.heartRate ?? 0) * w.movingSeconds : 0, rated ? sign * w.movingSeconds : 0)
    }

    /// Adds the eight sums, all or none.
    private mutating func addSums(
        _ workouts: Int, _ distance: Int, _ moving: Int, _ elapsed: Int, _ climb: Int, _ kcal: Int, _ rateWeighted: Int, _ rateSeconds: Int
    ) throws(LogbookError) {
        func sum(_ a: Int, _ b: Int) throws(LogbookError) -> Int {
            let (total, overflow) = a.addingReportingOverflow(b)
            guard !overflow else { throw .storage("a stats summary's sums run out of range (a damaged store)") }
            return total
        }
        let sums = (
            try sum(bucket.workouts, workouts), try sum(bucket.distanceMeters, distance), try sum(bucket.movingSeconds, moving),
            try sum(bucket.elapsedSeconds, elapsed), try sum(bucket.elevationGainMeters, climb), try sum(bucket.activeKcal, kcal),
            try sum(heartRateWeighted, rateWeighted), try sum(heartRateSeconds, rateSeconds))
        (bucket.workouts, bucket.distanceMeters, bucket.movingSeconds, bucket.elapsedSeconds) = (sums.0, sums.1, sums.2, sums.3)
        (bucket.elevationGainMeters, bucket.activeKcal, heartRateWeighted, heartRateSeconds) = (sums.4, sums.5, sums.6, sums.7)
    }

    /// Takes off `w`, which ``add(_:)`` put in: true, or false (and nothing changed) when `w` holds
    /// one of the bests, since only summing the remaining workouts again finds the next one.
    mutating func remove(_ w: SummaryWorkout) throws(LogbookError) -> Bool {
        for best in [longest, fastestPace, fastestSpeed] where best?.id.hasSameBytes(as: w.id) == true { return false }
        try addSums(of: w, times: -1)
        return true
    }

    /// Adds another bucket's workouts (for the totals), with the sums checked as ``add(_:)`` checks them.
    mutating func add(_ other: SummaryAccumulator) throws(LogbookError) {
        let b = other.bucket
        try addSums(
            b.workouts, b.distanceMeters, b.movingSeconds, b.elapsedSeconds, b.elevationGainMeters, b.activeKcal,
            other.heartRateWeighted, other.heartRateSeconds)
        if let w = other.longest, longest.map({ Self.longer(w, than: $0) }) ?? true { longest = w }
        if let w = other.fastestPace, fastestPace.map({ Self.faster(w, than: $0) }) ?? true { fastestPace = w }
        if let w = other.fastestSpeed, fastestSpeed.map({ Self.faster(w, than: $0) }) ?? true { fastestSpeed = w }
    }

    /// The bucket with its average and bests.
    var result: SummaryBucket {
        var result = bucket
        result.avgHeartRate = heartRateSeconds > 0 ? (Double(heartRateWeighted) / Double(heartRateSeconds) * 10).rounded() / 10 : nil
        result.longest = longest?.best
        result.fastestPace = fastestPace?.best
        result.fastestSpeed = fastestSpeed?.best
        return result
    }

    /// Whether `a` comes before `b` when neither is better: the earlier start, then the id's bytes.
    private static func earlier(_ a: SummaryWorkout, _ b: SummaryWorkout) -> Bool {
        a.startInstant != b.startInstant ? a.startInstant < b.startInstant : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }

    static func longer(_ a: SummaryWorkout, than b: SummaryWorkout) -> Bool {
        if a.distanceMeters != b.distanceMeters { return a.distanceMeters > b.distanceMeters }
        if a.movingSeconds != b.movingSeconds { return a.movingSeconds > b.movingSeconds }
        return earlier(a, b)
    }

    /// Faster average: less time per metre, compared exactly (a.moving / a.distance < b.moving / b.distance).
    static func faster(_ a: SummaryWorkout, than b: SummaryWorkout) -> Bool {
        let left = a.movingSeconds.multipliedFullWidth(by: b.distanceMeters)
        let right = b.movingSeconds.multipliedFullWidth(by: a.distanceMeters)
        if left.high != right.high || left.low != right.low { return (left.high, left.low) < (right.high, right.low) }
        if a.distanceMeters != b.distanceMeters { return a.distanceMeters > b.distanceMeters }
        return earlier(a, b)
    }
}

extension SummaryAccumulator {
    /// Writes the sums and bests (not the bucket's days: whoever reads them back knows them).
    func encode(into w: inout ByteWriter) {
        for value in [bucket.workouts, bucket.distanceMeters, bucket.movingSeconds, bucket.elapsedSeconds, bucket.elevationGainMeters,
                      bucket.activeKcal, heartRateWeighted, heartRateSeconds] { w.int(value) }
        for best in [longest, fastestPace, fastestSpeed] {
            guard let best else {
                w.byte(0)
                continue
            }
            w.byte(1)
            w.string(best.id)
            w.int(Int(best.startInstant))
            var facts = ByteWriter()
            best.facts.encode(into: &facts)
            w.lengthPrefixed(facts.bytes)
        }
    }

    /// Reads what ``encode(into:)`` wrote, as the sums of the bucket `from` … `to`; a negative sum
    /// (a damaged store) is refused, and sums too large to add up fail when added.
    init(decoding s: Span<UInt8>, _ o: inout Int, from: CivilDate, to: CivilDate) throws(DecodeFailure) {
        self.init(from: from, to: to)
        var sums: [Int] = []
        for _ in 0..<8 {
            let value = try FieldReader.int(s, &o)
            guard value >= 0 else { throw DecodeFailure(reason: "a negative stored sum") }
            sums.append(value)
        }
        (bucket.workouts, bucket.distanceMeters, bucket.movingSeconds, bucket.elapsedSeconds) = (sums[0], sums[1], sums[2], sums[3])
        (bucket.elevationGainMeters, bucket.activeKcal, heartRateWeighted, heartRateSeconds) = (sums[4], sums[5], sums[6], sums[7])
        var bests: [SummaryWorkout?] = []
        for _ in 0..<3 {
            guard try ByteReader.byte(s, &o) != 0 else {
                bests.append(nil)
                continue
            }
            let id = try ByteReader.string(s, &o)
            let start = Int64(try FieldReader.int(s, &o))
            let range = try ByteReader.lengthPrefixedRange(s, &o)
            let facts = try SummaryFacts(decoding: s.extracting(range))
            do {
                bests.append(try SummaryWorkout(id: id, startInstant: start, facts))
            } catch {
                throw DecodeFailure(reason: "a stored best holds numbers out of range")
            }
        }
        (longest, fastestPace, fastestSpeed) = (bests[0], bests[1], bests[2])
    }
}
