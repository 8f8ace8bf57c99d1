// WorkoutTrackRecorded and TrackSamples are generated from the declarations; how a track is split
// into parts and joined again is here.

extension WorkoutTrackRecorded {
    /// How many events a track of `points` points takes.
    public static func partCount(points: Int) -> Int {
        max(1, (points + TrackSamples.maxPointsPerEvent - 1) / TrackSamples.maxPointsPerEvent)
    }

    /// `track` as the events that record it for `workoutId`: one per ``TrackSamples/maxPointsPerEvent`` points.
    ///
    /// A track recorded live arrives in pieces: the parts of a later piece are numbered on from
    /// `firstPart` (the parts received so far), and each says how many parts the track has with it.
    public static func events(workoutId: String, track: TrackSamples, firstPart: Int = 0) -> [WorkoutTrackRecorded] {
        let chunk = TrackSamples.maxPointsPerEvent
        let count = partCount(points: track.points)
        return (0..<count).map { index in
            let range = (index * chunk)..<min(track.points, (index + 1) * chunk)
            return WorkoutTrackRecorded(workoutId: workoutId, part: firstPart + index, parts: firstPart + count, samples: track[range])
        }
    }
}

extension TrackSamples {
    /// The samples in `range` (of `0..<points`).
    public subscript(range: Range<Int>) -> TrackSamples {
        var slice = TrackSamples(points: range.count)
        for column in Column.allCases {
            if let values = self[column] { slice[column] = Array(values[range]) }
        }
        return slice
    }

    /// The parts' samples one after the other.
    public static func joined(_ parts: [TrackSamples]) -> TrackSamples {
        var whole = TrackSamples(points: parts.reduce(0) { $0 + $1.points })
        for column in Column.allCases where parts.contains(where: { $0[column] != nil }) {
            var values: [Int?] = []
            values.reserveCapacity(whole.points)
            for part in parts { values += part[column] ?? Array(repeating: nil, count: part.points) }
            whole[column] = values
        }
        return whole
    }

    /// The value of `column` at `index`, nil when absent (a column shorter than `points` reads as nil past its end).
    public func value(_ column: Column, _ index: Int) -> Int? {
        guard let values = self[column], index < values.count else { return nil }
        return values[index]
    }
}
