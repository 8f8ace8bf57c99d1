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

    /// The hash of `span[start...]` with `seed`.
    package static func hash(_ span: Span<UInt8>, from start: Int, seed: UInt64) -> UInt64 {
        precondition(start >= 0 && start <= span.count, "hash start out of range")
        // Loads through the buffer's base address: each one's bounds follow from the loop
        // conditions, and a checked load per 8 bytes was most of the cost on short records.
        return span.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return avalanche(seed &+ p5) }  // no bytes
            return hash(UnsafeRawPointer(base + start), count: buffer.count - start, seed: seed)
        }
    }

    @inline(__always)
    private static func load64(_ p: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        p.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    }

    private static func hash(_ p: UnsafeRawPointer, count: Int, seed: UInt64) -> UInt64 {
        var i = 0
        var h: UInt64
        if count >= 32 {
            var v1 = seed &+ p1 &+ p2
            var v2 = seed &+ p2
            var v3 = seed
            var v4 = seed &- p1
            while count - i >= 32 {
                v1 = round(v1, load64(p, i))
                v2 = round(v2, load64(p, i + 8))
                v3 = round(v3, load64(p, i + 16))
                v4 = round(v4, load64(p, i + 24))
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
        h = h &+ UInt64(count)
        while count - i >= 8 {
            h ^= round(0, load64(p, i))
            h = ((h << 27) | (h >> 37)) &* p1 &+ p4
            i += 8
        }
        if count - i >= 4 {
            h ^= UInt64(p.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian) &* p1
            h = ((h << 23) | (h >> 41)) &* p2 &+ p3
            i += 4
        }
        while i < count {
            h ^= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) &* p5
            h = ((h << 11) | (h >> 53)) &* p1
            i += 1
        }
        return avalanche(h)
    }

    @inline(__always)
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}
