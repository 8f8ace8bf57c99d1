/// The Poly1305 one-time authenticator of RFC 8439 §2.5, as the AEAD uses it: every input is
/// absorbed in 16-byte blocks, the last one padded with zeros (§2.8), so there is never a short
/// final block. Arithmetic modulo 2¹³⁰ − 5 in five 26-bit limbs with 64-bit products; the final
/// reduction selects without branching on secret values.
struct Poly1305 {
    private let r0, r1, r2, r3, r4: UInt64
    private let s1, s2, s3, s4: UInt64
    private let pad: SIMD4<UInt32>
    private var h0: UInt64 = 0, h1: UInt64 = 0, h2: UInt64 = 0, h3: UInt64 = 0, h4: UInt64 = 0

    private static let mask: UInt64 = 0x3FF_FFFF

    /// The authenticator keyed with the first eight words of a ChaCha20 block (`r`, clamped,
    /// then `s`).
    init(key block: SIMD16<UInt32>) {
        let t0 = block[0], t1 = block[1], t2 = block[2], t3 = block[3]
        r0 = UInt64(t0 & 0x3FF_FFFF)
        r1 = UInt64(((t0 >> 26) | (t1 << 6)) & 0x3FF_FF03)
        r2 = UInt64(((t1 >> 20) | (t2 << 12)) & 0x3FF_C0FF)
        r3 = UInt64(((t2 >> 14) | (t3 << 18)) & 0x3F0_3FFF)
        r4 = UInt64((t3 >> 8) & 0x00F_FFFF)
        s1 = r1 * 5
        s2 = r2 * 5
        s3 = r3 * 5
        s4 = r4 * 5
        pad = SIMD4(block[4], block[5], block[6], block[7])
    }

    /// Absorbs `bytes`, then zeros up to the next multiple of 16.
    mutating func absorbPadded(_ bytes: Span<UInt8>) {
        var offset = 0
        while offset + 16 <= bytes.count {
            absorb(ChaCha20.littleEndianWord(bytes, at: offset), ChaCha20.littleEndianWord(bytes, at: offset + 4),
                   ChaCha20.littleEndianWord(bytes, at: offset + 8), ChaCha20.littleEndianWord(bytes, at: offset + 12))
            offset += 16
        }
        guard offset < bytes.count else { return }
        // The last, short block: its bytes into a 128-bit number, zeros after them.
        var low: UInt64 = 0, high: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            if shift < 64 { low |= UInt64(bytes[offset]) &<< shift } else { high |= UInt64(bytes[offset]) &<< (shift &- 64) }
            offset += 1
            shift &+= 8
        }
        absorb(UInt32(truncatingIfNeeded: low), UInt32(truncatingIfNeeded: low >> 32),
               UInt32(truncatingIfNeeded: high), UInt32(truncatingIfNeeded: high >> 32))
    }

    /// Absorbs the AEAD's final block: the two lengths as little-endian 64-bit numbers.
    mutating func absorbLengths(_ first: Int, _ second: Int) {
        let a = UInt64(first), b = UInt64(second)
        absorb(UInt32(truncatingIfNeeded: a), UInt32(truncatingIfNeeded: a >> 32),
               UInt32(truncatingIfNeeded: b), UInt32(truncatingIfNeeded: b >> 32))
    }

    /// One full 16-byte block, given as its four little-endian words.
    @inline(__always)
    private mutating func absorb(_ m0: UInt32, _ m1: UInt32, _ m2: UInt32, _ m3: UInt32) {
        let mask = Self.mask
        // Limbs stay below 2²⁷ and r·5 below 2²⁹, so no sum of five products reaches 2⁶⁴: the
        // wrapping operators never wrap (they only spare the overflow checks).
        h0 &+= UInt64(m0) & mask
        h1 &+= UInt64((m0 >> 26) | (m1 << 6)) & mask
        h2 &+= UInt64((m1 >> 20) | (m2 << 12)) & mask
        h3 &+= UInt64((m2 >> 14) | (m3 << 18)) & mask
        h4 &+= UInt64(m3 >> 8) | (1 << 24)
        let d0 = h0 &* r0 &+ h1 &* s4 &+ h2 &* s3 &+ h3 &* s2 &+ h4 &* s1
        var d1 = h0 &* r1 &+ h1 &* r0 &+ h2 &* s4 &+ h3 &* s3 &+ h4 &* s2
        var d2 = h0 &* r2 &+ h1 &* r1 &+ h2 &* r0 &+ h3 &* s4 &+ h4 &* s3
        var d3 = h0 &* r3 &+ h1 &* r2 &+ h2 &* r1 &+ h3 &* r0 &+ h4 &* s4
        var d4 = h0 &* r4 &+ h1 &* r3 &+ h2 &* r2 &+ h3 &* r1 &+ h4 &* r0
        d1 &+= d0 >> 26; h0 = d0 & mask
        d2 &+= d1 >> 26; h1 = d1 & mask
        d3 &+= d2 >> 26; h2 = d2 & mask
        d4 &+= d3 >> 26; h3 = d3 & mask
        h4 = d4 & mask
        h0 &+= (d4 >> 26) &* 5
        h1 &+= h0 >> 26
        h0 &= mask
    }

    /// The tag: `h` fully reduced modulo 2¹³⁰ − 5, plus `s`, modulo 2¹²⁸; as four little-endian words.
    func tag() -> SIMD4<UInt32> {
        let mask = Self.mask
        var h0 = self.h0, h1 = self.h1, h2 = self.h2, h3 = self.h3, h4 = self.h4
        h2 += h1 >> 26; h1 &= mask
        h3 += h2 >> 26; h2 &= mask
        h4 += h3 >> 26; h3 &= mask
        h0 += (h4 >> 26) * 5; h4 &= mask
        h1 += h0 >> 26; h0 &= mask
        // g = h + 5 − 2¹³⁰: h itself if that is negative, else g.
        var g0 = h0 + 5
        var g1 = h1 + (g0 >> 26); g0 &= mask
        var g2 = h2 + (g1 >> 26); g1 &= mask
        var g3 = h3 + (g2 >> 26); g2 &= mask
        var g4 = (h4 + (g3 >> 26)) &- (1 << 26); g3 &= mask
        let keepH = 0 &- (g4 >> 63)  // all ones if g is negative
        let takeG = ~keepH
        g4 &= mask
        h0 = (h0 & keepH) | (g0 & takeG)
        h1 = (h1 & keepH) | (g1 & takeG)
        h2 = (h2 & keepH) | (g2 & takeG)
        h3 = (h3 & keepH) | (g3 & takeG)
        h4 = (h4 & keepH) | (g4 & takeG)
        // The low 128 bits as four words, plus s with carries.
        let w0 = UInt64(UInt32(truncatingIfNeeded: h0 | (h1 << 26)))
        let w1 = UInt64(UInt32(truncatingIfNeeded: (h1 >> 6) | (h2 << 20)))
        let w2 = UInt64(UInt32(truncatingIfNeeded: (h2 >> 12) | (h3 << 14)))
        let w3 = UInt64(UInt32(truncatingIfNeeded: (h3 >> 18) | (h4 << 8)))
        let f0 = w0 + UInt64(pad[0])
        let f1 = w1 + UInt64(pad[1]) + (f0 >> 32)
        let f2 = w2 + UInt64(pad[2]) + (f1 >> 32)
        let f3 = w3 + UInt64(pad[3]) + (f2 >> 32)
        return SIMD4(UInt32(truncatingIfNeeded: f0), UInt32(truncatingIfNeeded: f1),
                     UInt32(truncatingIfNeeded: f2), UInt32(truncatingIfNeeded: f3))
    }
}
