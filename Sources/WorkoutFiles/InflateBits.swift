/// Canonical Huffman code for DEFLATE: a 10-bit direct lookup table plus the per-length counts
/// and sorted symbols needed to decode longer codes bit by bit.
struct HuffmanTable {
    static let fastBits = 10
    /// `symbol << 4 | length` for codes of up to 10 bits, indexed by the next 10 input bits; 0 = longer code.
    var fast = [UInt16](repeating: 0, count: 1 << 10)
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int] = []

    init() {}

    /// Builds a table from code lengths; nil when over-subscribed, or incomplete unless allowed.
    init?(lengths: [UInt8], allowIncomplete: Bool = false) {
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left <<= 1
            left -= counts[length]
            if left < 0 { return nil }
        }
        let used = lengths.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        if left > 0, !allowIncomplete, used != 1 { return nil }
        var offsets = [Int](repeating: 0, count: 17)
        for length in 1...15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: offsets[16])
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[Int(length)]] = symbol
            offsets[Int(length)] += 1
        }
        var code = 0
        var index = 0
        for length in 1...15 {
            for _ in 0..<counts[length] {
                if length <= Self.fastBits {
                    var reversed = 0
                    for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                    let entry = UInt16(symbols[index] << 4 | length)
                    var slot = reversed
                    while slot < (1 << Self.fastBits) {
                        fast[slot] = entry
                        slot += 1 << length
                    }
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
    }

    /// The fixed literal/length code of block type 1.
    static let fixedLiteral: HuffmanTable = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        return HuffmanTable(lengths: lengths)!
    }()

    /// The fixed distance code of block type 1.
    static let fixedDistance: HuffmanTable = HuffmanTable(lengths: [UInt8](repeating: 5, count: 30), allowIncomplete: true)!
}

/// LSB-first bit reader over a `ByteSource`, buffered in 64 KiB chunks.
final class BitReader {
    private let source: any ByteSource
    private let fileName: String
    @exclusivity(unchecked) private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var limit = 0
    @exclusivity(unchecked) private var sourceDone = false
    @exclusivity(unchecked) private var bitBuffer: UInt64 = 0
    @exclusivity(unchecked) private var bitCount = 0
    @exclusivity(unchecked) private var totalRead: Int64 = 0

    init(source: any ByteSource, fileName: String) {
        self.source = source
        self.fileName = fileName
    }

    /// Whole input bytes consumed so far.
    var bytesConsumed: Int64 { totalRead - Int64(limit - position) - Int64(bitCount / 8) }

    private func truncated() -> WorkoutFileError {
        WorkoutFileError(code: .truncated, fileName: fileName, byteOffset: bytesConsumed, message: "compressed data ends early")
    }

    /// Tops the bit buffer up to at least 57 bits when input remains.
    @inline(__always) private func refill() throws {
        while bitCount <= 56 {
            if position == limit {
                if sourceDone { return }
                limit = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                position = 0
                totalRead += Int64(limit)
                if limit == 0 { sourceDone = true; return }
            }
            bitBuffer |= UInt64(buffer[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    /// Reads `count` (≤ 32) bits as an unsigned number.
    @inline(__always) func bits(_ count: Int) throws -> Int {
        if count == 0 { return 0 }
        if bitCount < count { try refill() }
        guard bitCount >= count else { throw truncated() }
        let value = Int(bitBuffer & ((1 << UInt64(count)) - 1))
        bitBuffer >>= UInt64(count)
        bitCount -= count
        return value
    }

    /// Decodes one symbol with `table`.
    @inline(__always) func decode(_ table: HuffmanTable) throws -> Int {
        if bitCount < 15 { try refill() }
        let entry = table.fast[Int(bitBuffer & 0x3FF)]
        if entry != 0 {
            let length = Int(entry & 0xF)
            guard length <= bitCount else { throw truncated() }
            bitBuffer >>= UInt64(length)
            bitCount -= length
            return Int(entry >> 4)
        }
        var code = 0, first = 0, index = 0
        for length in 1...15 {
            guard length <= bitCount else { throw truncated() }
            code |= Int((bitBuffer >> UInt64(length - 1)) & 1)
            let count = table.counts[length]
            if code - count < first {
                bitBuffer >>= UInt64(length)
                bitCount -= length
                return table.symbols[index + code - first]
            }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw WorkoutFileError(code: .malformedDeflate, fileName: fileName, byteOffset: bytesConsumed, message: "invalid Huffman code")
    }

    /// Drops bits up to the next byte boundary and returns the next `count` whole bytes.
    func alignedBytes(_ count: Int) throws -> [UInt8] {
        let drop = bitCount % 8
        bitBuffer >>= UInt64(drop)
        bitCount -= drop
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count, bitCount >= 8 {
            out.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
        while out.count < count {
            if position == limit {
                if sourceDone { throw truncated() }
                limit = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                position = 0
                totalRead += Int64(limit)
                if limit == 0 { sourceDone = true; throw truncated() }
            }
            let take = min(count - out.count, limit - position)
            out.append(contentsOf: buffer[position..<(position + take)])
            position += take
        }
        return out
    }
}
