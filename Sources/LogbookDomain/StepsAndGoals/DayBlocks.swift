import BinaryCoding

/// A user's days in blocks of 32 (by days since 1970, so a block never depends on who asks),
/// and the stamp a read model keeps per block: the last log position that changed any of the
/// block's records. Two states of a block with the same stamp hold the same records (the folds
/// are deterministic and the stamp names the last event folded into it), so what is worked out
/// from a block's records can be kept under its stamp and used again until the stamp moves.
enum DayBlock {
    static let length: Int32 = 32

    /// The first day of the block holding `day` (rounded down, also before 1970).
    static func first(of day: Int32) -> Int32 {
        let remainder = day % length
        return remainder < 0 ? day - remainder - length : day - remainder
    }
}

/// The last position that changed a block's records (see ``DayBlock``).
struct BlockStamp: TableValue, Equatable {
    var position: UInt64
    init(_ position: UInt64) { self.position = position }
    func encode(into w: inout ByteWriter) { w.varint(position) }
    init(decoding s: Span<UInt8>) throws(DecodeFailure) {
        var o = 0
        position = try ByteReader.varint(s, &o)
        guard o == s.count else { throw DecodeFailure(reason: "bytes after a block stamp") }
    }
}
