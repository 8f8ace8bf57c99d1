/// The ChaCha20 stream cipher of RFC 8439 §2.3–2.4 under one 256-bit key, computing four
/// consecutive 64-byte blocks at once (one per SIMD lane, so the rounds need no shuffles).
///
/// Made once per user key and kept: a payload's keystream then costs the rounds alone, with no
/// per-call context, allocation or copy of the key (what swift-crypto's one-shot API pays on every
/// call). Checked against swift-crypto's `ChaChaPoly` on random keys, nonces and lengths in
/// `PayloadCipherTests`.
struct ChaCha20: Sendable {
    /// The key as the eight little-endian words of the cipher's state.
    let key: SIMD8<UInt32>

    /// The key of `bytes` (exactly 32).
    init(key bytes: Span<UInt8>) {
        precondition(bytes.count == 32, "a ChaCha20 key is 32 bytes")
        var words = SIMD8<UInt32>()
        for index in 0..<8 { words[index] = Self.littleEndianWord(bytes, at: index * 4) }
        key = words
    }

    /// Four keystream blocks, for block counters `counter` … `counter + 3`, each as its sixteen
    /// little-endian words.
    func blocks(counter: UInt32, nonce: SIMD3<UInt32>) -> FourBlocks {
        let counters = SIMD4<UInt32>(counter, counter &+ 1, counter &+ 2, counter &+ 3)
        var x0 = SIMD4<UInt32>(repeating: 0x6170_7865), x1 = SIMD4<UInt32>(repeating: 0x3320_646E)
        var x2 = SIMD4<UInt32>(repeating: 0x7962_2D32), x3 = SIMD4<UInt32>(repeating: 0x6B20_6574)
        var x4 = SIMD4(repeating: key[0]), x5 = SIMD4(repeating: key[1])
        var x6 = SIMD4(repeating: key[2]), x7 = SIMD4(repeating: key[3])
        var x8 = SIMD4(repeating: key[4]), x9 = SIMD4(repeating: key[5])
        var x10 = SIMD4(repeating: key[6]), x11 = SIMD4(repeating: key[7])
        var x12 = counters, x13 = SIMD4(repeating: nonce[0])
        var x14 = SIMD4(repeating: nonce[1]), x15 = SIMD4(repeating: nonce[2])
        for _ in 0..<10 {
            Self.quarterRound(&x0, &x4, &x8, &x12)
            Self.quarterRound(&x1, &x5, &x9, &x13)
            Self.quarterRound(&x2, &x6, &x10, &x14)
            Self.quarterRound(&x3, &x7, &x11, &x15)
            Self.quarterRound(&x0, &x5, &x10, &x15)
            Self.quarterRound(&x1, &x6, &x11, &x12)
            Self.quarterRound(&x2, &x7, &x8, &x13)
            Self.quarterRound(&x3, &x4, &x9, &x14)
        }
        x0 &+= SIMD4(repeating: 0x6170_7865); x1 &+= SIMD4(repeating: 0x3320_646E)
        x2 &+= SIMD4(repeating: 0x7962_2D32); x3 &+= SIMD4(repeating: 0x6B20_6574)
        x4 &+= SIMD4(repeating: key[0]); x5 &+= SIMD4(repeating: key[1])
        x6 &+= SIMD4(repeating: key[2]); x7 &+= SIMD4(repeating: key[3])
        x8 &+= SIMD4(repeating: key[4]); x9 &+= SIMD4(repeating: key[5])
        x10 &+= SIMD4(repeating: key[6]); x11 &+= SIMD4(repeating: key[7])
        x12 &+= counters; x13 &+= SIMD4(repeating: nonce[0])
        x14 &+= SIMD4(repeating: nonce[1]); x15 &+= SIMD4(repeating: nonce[2])
        func lane(_ j: Int) -> SIMD16<UInt32> {
            SIMD16(x0[j], x1[j], x2[j], x3[j], x4[j], x5[j], x6[j], x7[j],
                   x8[j], x9[j], x10[j], x11[j], x12[j], x13[j], x14[j], x15[j])
        }
        return FourBlocks(first: lane(0), second: lane(1), third: lane(2), fourth: lane(3))
    }

    /// Writes `input` XOR the keystream from block `firstCounter` on into the first
    /// `input.count` bytes of `output`. `prepared` holds blocks `preparedCounter` … `preparedCounter + 3`, already
    /// computed (the AEAD computes block 0 for its MAC key and uses the next three here).
    func xor(_ input: Span<UInt8>, into output: inout MutableSpan<UInt8>, nonce: SIMD3<UInt32>, prepared: FourBlocks, preparedCounter: UInt32, firstCounter: UInt32) {
        precondition(output.count >= input.count)
        var blocks = prepared
        var batchCounter = preparedCounter
        var counter = firstCounter
        var offset = 0
        while offset < input.count {
            if counter &- batchCounter >= 4 {
                batchCounter = counter
                blocks = self.blocks(counter: counter, nonce: nonce)
            }
            let block = blocks[Int(counter &- batchCounter)]
            let end = min(offset + 64, input.count)
            var word = 0
            while offset + 4 <= end {
                let mixed = Self.littleEndianWord(input, at: offset) ^ block[word]
                output[offset] = UInt8(truncatingIfNeeded: mixed)
                output[offset + 1] = UInt8(truncatingIfNeeded: mixed >> 8)
                output[offset + 2] = UInt8(truncatingIfNeeded: mixed >> 16)
                output[offset + 3] = UInt8(truncatingIfNeeded: mixed >> 24)
                offset += 4
                word += 1
            }
            var shift: UInt32 = 0
            while offset < end {
                output[offset] = input[offset] ^ UInt8(truncatingIfNeeded: block[word] >> shift)
                offset += 1
                shift += 8
            }
            counter &+= 1
        }
    }

    /// The little-endian word at `offset` of `bytes`.
    @inline(__always)
    static func littleEndianWord(_ bytes: Span<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    @inline(__always)
    private static func quarterRound(_ a: inout SIMD4<UInt32>, _ b: inout SIMD4<UInt32>, _ c: inout SIMD4<UInt32>, _ d: inout SIMD4<UInt32>) {
        a &+= b; d ^= a; d = rotate(d, 16)
        c &+= d; b ^= c; b = rotate(b, 12)
        a &+= b; d ^= a; d = rotate(d, 8)
        c &+= d; b ^= c; b = rotate(b, 7)
    }

    /// A left rotation of every lane. Written with `&+` (the two parts share no bit, so it equals
    /// `|`): LLVM turns the `|` form into a rotate, which x86-64's baseline vector instructions
    /// lack, and then does the whole round lane by lane in general registers — four times slower.
    @inline(__always)
    private static func rotate(_ value: SIMD4<UInt32>, _ bits: UInt32) -> SIMD4<UInt32> {
        (value &<< bits) &+ (value &>> (32 - bits))
    }

    /// Four consecutive keystream blocks.
    struct FourBlocks {
        var first, second, third, fourth: SIMD16<UInt32>

        subscript(index: Int) -> SIMD16<UInt32> {
            switch index {
            case 0: first
            case 1: second
            case 2: third
            default: fourth
            }
        }
    }
}
