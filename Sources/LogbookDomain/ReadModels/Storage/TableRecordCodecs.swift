import BinaryCoding

/// Every record type the read models store, by name, each with a function that decodes bytes as
/// that type and writes back what it read: the decoders of stored read-model records, for the
/// checks that hold them to the HostileInput article (any bytes read back answer a record or a `DecodeFailure`,
/// and what decodes writes back to bytes that decode to the same record).
///
/// A table's key or value type that is not listed here is not fuzzed: add new ones.
package enum TableRecordCodecs {
    /// One stored record type: its name and its decode-then-encode.
    package struct Codec: Sendable {
        /// The Swift type's name.
        package let name: String
        /// Decodes `span` as the type and encodes the result again; throws the decoder's `DecodeFailure`.
        package let reencode: @Sendable (Span<UInt8>) throws -> [UInt8]
    }

    /// The key and value types of every read model's tables.
    package static let all: [Codec] = [
        key(UserKey.self), key(UserDayKey.self), key(UserDaySourceKey.self), key(WorkoutKey.self), key(SampleDayKey.self),
        key(UserTypeKey.self), key(ActivityListKey.self), key(TrackPartKey.self), key(ImportKey.self),
        key(UserPositionKey.self), key(PlaceKey.self), key(SequenceKey.self), key(UserPlaceKey.self),
        value(Profile.self), value(Goal.self), value(ActivityRecord.self), value(Marker.self), value(TextValue.self),
        value(TrackPartValue.self), value(LedgerEntry.self), value(LedgerWorkout.self), value(RecordWorkout.self),
        value(RecordEntry.self), value(RecordHolders.self), key(CountedRecordKey.self), value(RecordFalls.self), value(StatsWorkout.self),
        value(DayActivity.self), value(SourceSteps.self), value(CountedSamples.self), value(TimelineContext.self),
        value(TimelineWorkout.self), value(CatalogPlace.self), value(UserPlace.self),
        key(UserIdKey.self), key(PlanDayKey.self), key(UserDayWorkoutKey.self), value(TargetRecord.self), value(PlannedRecord.self),
        value(IntensityWorkout.self), value(HeartRateSettings.self), value(WorkoutPauses.self), value(TypePositions.self), value(CountValue.self),
        value(TrackSummary.self), value(GroupMember.self), value(GroupDay.self), value(GroupUser.self), key(WorkoutPairKey.self),
        key(UserPositionWorkoutKey.self), value(BlockStamp.self), value(LedgerTotals.self), value(ListedWorkout.self), value(SummaryFacts.self), value(BlockSums.self),
    ]

    private static func key<T: TableKey>(_ type: T.Type) -> Codec {
        Codec(name: "\(T.self)") { (span) throws(DecodeFailure) in
            var writer = ByteWriter()
            try T(decoding: span).encode(into: &writer)
            return writer.bytes
        }
    }

    private static func value<T: TableValue>(_ type: T.Type) -> Codec {
        Codec(name: "\(T.self)") { (span) throws(DecodeFailure) in
            var writer = ByteWriter()
            try T(decoding: span).encode(into: &writer)
            return writer.bytes
        }
    }
}
