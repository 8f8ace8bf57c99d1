/// XXH64 (Yann Collet's xxHash, 64-bit), the checksum on every stored record.
///
/// Chosen over CRC32 because a portable Swift implementation runs at several bytes per cycle,
/// which keeps verification on every read cheap. The log stores the low 32 bits.
package enum XXHash64 {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always)
    private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        var a = acc &+ input &* p2
        a = (a << 31) | (a >> 33)
        return a &* p1
    }

    @inline(__always)
    private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* p1 &+ p4
    }

    /// The hash of `span[range]` with `seed`.
    package static func hash(_ span: Span<UInt8>, from start: Int, seed: UInt64) -> UInt64 {
        let raw = span.bytes
        let end = span.count
        var i = start
        var h: UInt64
        if end - i >= 32 {
            var v1 = seed &+ p1 &+ p2
            var v2 = seed &+ p2
            var v3 = seed
            var v4 = seed &- p1
            while end - i >= 32 {
                v1 = round(v1, raw.unsafeLoadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian)
                v2 = round(v2, raw.unsafeLoadUnaligned(fromByteOffset: i + 8, as: UInt64.self).littleEndian)
                v3 = round(v3, raw.unsafeLoadUnaligned(fromByteOffset: i + 16, as: UInt64.self).littleEndian)
                v4 = round(v4, raw.unsafeLoadUnaligned(fromByteOffset: i + 24, as: UInt64.self).littleEndian)
                i += 32
            }
            h = ((v1 << 1) | (v1 >> 63)) &+ ((v2 << 7) | (v2 >> 57)) &+ ((v3 << 12) | (v3 >> 52)) &+ ((v4 << 18) | (v4 >> 46))
            h = merge(h, v1)
            h = merge(h, v2)
            h = merge(h, v3)
            h = merge(h, v4)
        } else {
            h = seed &+ p5
        }
        h = h &+ UInt64(end - start)
        while end - i >= 8 {
            let k = round(0, raw.unsafeLoadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian)
            h ^= k
            h = ((h << 27) | (h >> 37)) &* p1 &+ p4
            i += 8
        }
        if end - i >= 4 {
            h ^= UInt64(raw.unsafeLoadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian) &* p1
            h = ((h << 23) | (h >> 41)) &* p2 &+ p3
            i += 4
        }
        while i < end {
            h ^= UInt64(span[i]) &* p5
            h = ((h << 11) | (h >> 53)) &* p1
            i += 1
        }
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}
