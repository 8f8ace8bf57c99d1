import BinaryCoding
@testable import LogbookDomain
import Testing

/// Keys that carry a day read it back checked: every day a timestamp can fall on round-trips, and a
/// day no timestamp makes (a damaged store) is a decoding failure, never a value whose neighbours
/// overflow.
@Suite("Days in read-model keys")
struct TableKeyDayTests {
    func bytes(_ key: some TableKey) -> [UInt8] {
        var writer = ByteWriter()
        key.encode(into: &writer)
        return writer.bytes
    }

    @Test("days of every timestamp round-trip; days beyond ±2^30 are refused in every key that holds one")
    func daysChecked() throws {
        // A timestamp's day: at most Int64.max microseconds, about 1.07e8 days, either way.
        for day: Int32 in [0, -719_162, 2_932_896, 106_751_991, -106_751_992] {
            #expect(try UserDayKey(decoding: bytes(UserDayKey("u", day)).span) == UserDayKey("u", day))
            #expect(try UserDaySourceKey(decoding: bytes(UserDaySourceKey("u", day, "phone")).span) == UserDaySourceKey("u", day, "phone"))
            #expect(try SampleDayKey(decoding: bytes(SampleDayKey("u", "phone", day)).span) == SampleDayKey("u", "phone", day))
            #expect(try PlanDayKey(decoding: bytes(PlanDayKey("u", day, 1)).span).day == day)
            #expect(try UserDayWorkoutKey(decoding: bytes(UserDayWorkoutKey("u", day, "w")).span).day == day)
        }
        for day: Int32 in [.max, .min, (1 << 30) + 1] {
            #expect(throws: DecodeFailure.self) { try UserDayKey(decoding: bytes(UserDayKey("u", day)).span) }
            #expect(throws: DecodeFailure.self) { try UserDaySourceKey(decoding: bytes(UserDaySourceKey("u", day, "phone")).span) }
            #expect(throws: DecodeFailure.self) { try SampleDayKey(decoding: bytes(SampleDayKey("u", "phone", day)).span) }
            #expect(throws: DecodeFailure.self) { try PlanDayKey(decoding: bytes(PlanDayKey("u", day, 1)).span) }
            #expect(throws: DecodeFailure.self) { try UserDayWorkoutKey(decoding: bytes(UserDayWorkoutKey("u", day, "w")).span) }
        }
    }
}
