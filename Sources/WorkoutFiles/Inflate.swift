/// A streaming raw-DEFLATE (RFC 1951) decoder exposed as a `ByteSource`.
///
/// Stored, fixed-Huffman and dynamic-Huffman blocks; 10-bit lookup tables with a canonical
/// bit-by-bit fallback for longer codes. Memory is fixed: a 32 KiB history plus one output
/// chunk. Invalid data throws `malformedDeflate`; input that ends early throws `truncated`.
final class InflateSource: ByteSource {
    private let input: BitReader
    private let fileName: String
    @exclusivity(unchecked) private var output: [UInt8]
    @exclusivity(unchecked) private var readPosition = 0
    @exclusivity(unchecked) private var writePosition = 0
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var lastBlock = false
    @exclusivity(unchecked) private var inBlock = false
    @exclusivity(unchecked) private var storedRemaining = -1
    @exclusivity(unchecked) private var literalTable = HuffmanTable()
    @exclusivity(unchecked) private var distanceTable = HuffmanTable()
    private static let window = 32_768
    private static let chunk = 256 << 10

    init(input: any ByteSource, fileName: String) {
        self.input = BitReader(source: input, fileName: fileName)
        self.fileName = fileName
        output = [UInt8](repeating: 0, count: Self.window + Self.chunk + 300)
    }

    /// Compressed bytes consumed so far (whole bytes; trailing bits of the final byte count).
    var compressedBytesConsumed: Int64 { input.bytesConsumed }

    /// Hands unread bytes left in the bit reader back (gzip trailer reading).
    func takeTrailer(_ count: Int) throws -> [UInt8] { try input.alignedBytes(count) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while readPosition == writePosition {
            if finished { return 0 }
            try produce()
        }
        let count = min(buffer.count, writePosition - readPosition)
        output.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + readPosition, byteCount: count)
        }
        readPosition += count
        return count
    }

    private func fail(_ message: String) -> WorkoutFileError {
        WorkoutFileError(code: .malformedDeflate, fileName: fileName, byteOffset: input.bytesConsumed, message: message)
    }

    /// Decodes until about one chunk of new output exists, keeping 32 KiB of history.
    private func produce() throws {
        if writePosition > Self.window {
            let shift = writePosition - Self.window
            output.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + shift, byteCount: Self.window)
            }
            writePosition -= shift
            readPosition -= shift
        }
        let target = writePosition + Self.chunk
        while writePosition < target {
            if !inBlock {
                if lastBlock { finished = true; return }
                lastBlock = try input.bits(1) == 1
                switch try input.bits(2) {
                case 0:
                    let header = try input.alignedBytes(4)
                    let length = Int(header[0]) | Int(header[1]) << 8
                    let complement = Int(header[2]) | Int(header[3]) << 8
                    guard length == (~complement & 0xFFFF) else { throw fail("stored block length check failed") }
                    storedRemaining = length
                case 1:
                    literalTable = HuffmanTable.fixedLiteral
                    distanceTable = HuffmanTable.fixedDistance
                    storedRemaining = -1
                case 2:
                    try readDynamicTables()
                    storedRemaining = -1
                default:
                    throw fail("reserved block type 3")
                }
                inBlock = true
            }
            if storedRemaining >= 0 {
                let count = min(storedRemaining, target - writePosition)
                if count > 0 {
                    let bytes = try input.alignedBytes(count)
                    output.replaceSubrange(writePosition..<(writePosition + count), with: bytes)
                    writePosition += count
                    storedRemaining -= count
                }
                if storedRemaining == 0 { inBlock = false; storedRemaining = -1 }
                continue
            }
            try decodeSymbols(until: target)
        }
    }

    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                            35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                             3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
                                              513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
                                               8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private func decodeSymbols(until target: Int) throws {
        try output.withUnsafeMutableBufferPointer { out in
            var position = writePosition
            defer { writePosition = position }
            while position < target {
                let symbol = try input.decode(literalTable)
                if symbol < 256 {
                    out[position] = UInt8(symbol)
                    position += 1
                } else if symbol == 256 {
                    inBlock = false
                    return
                } else {
                    let index = symbol - 257
                    guard index < 29 else { throw fail("invalid length symbol \(symbol)") }
                    let lengthExtra = try input.bits(Self.lengthExtra[index])
                    let length = Self.lengthBase[index] + lengthExtra
                    let distanceSymbol = try input.decode(distanceTable)
                    guard distanceSymbol < 30 else { throw fail("invalid distance symbol \(distanceSymbol)") }
                    let distanceExtra = try input.bits(Self.distanceExtra[distanceSymbol])
                    let distance = Self.distanceBase[distanceSymbol] + distanceExtra
                    guard distance <= position, distance <= Self.window + Self.chunk else {
                        throw fail("distance \(distance) reaches before the start of the output")
                    }
                    var from = position - distance
                    for _ in 0..<length {
                        out[position] = out[from]
                        position += 1
                        from += 1
                    }
                }
            }
        }
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private func readDynamicTables() throws {
        let literalCount = try input.bits(5) + 257
        let distanceCount = try input.bits(5) + 1
        let codeLengthCount = try input.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw fail("too many codes in a dynamic block") }
        var codeLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengths[Self.codeLengthOrder[i]] = UInt8(try input.bits(3)) }
        guard let lengthTable = HuffmanTable(lengths: codeLengths) else { throw fail("invalid code-length code") }
        var lengths = [UInt8]()
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try input.decode(lengthTable)
            switch symbol {
            case 0..<16:
                lengths.append(UInt8(symbol))
            case 16:
                guard let previous = lengths.last else { throw fail("repeat with no previous length") }
                let extra = try input.bits(2)
                lengths.append(contentsOf: repeatElement(previous, count: 3 + extra))
            case 17:
                let extra = try input.bits(3)
                lengths.append(contentsOf: repeatElement(0, count: 3 + extra))
            default:
                let extra = try input.bits(7)
                lengths.append(contentsOf: repeatElement(0, count: 11 + extra))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw fail("code lengths overrun") }
        guard lengths[256] != 0 else { throw fail("no end-of-block code") }
        guard let literal = HuffmanTable(lengths: Array(lengths[0..<literalCount])),
              let distance = HuffmanTable(lengths: Array(lengths[literalCount...]), allowIncomplete: true) else {
            throw fail("invalid Huffman code lengths")
        }
        literalTable = literal
        distanceTable = distance
    }
}
