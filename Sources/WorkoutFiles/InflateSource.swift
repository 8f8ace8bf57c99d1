import Zlib

/// A raw-DEFLATE (RFC 1951) stream exposed as a `ByteSource`, decoded by zlib through
/// `RawInflater`; this module implements no DEFLATE of its own.
///
/// Memory is fixed: one input chunk, one output chunk and zlib's 32 KiB window. Invalid data
/// throws `malformedDeflate` carrying zlib's message; input that ends before the final block
/// throws `truncated`. With `limit`, output past the per-entry ceiling or the compression-ratio
/// bound throws `limitExceeded` as soon as it is produced.
final class InflateSource: ByteSource {
    private let input: any ByteSource
    private let fileName: String
    private let limit: InflationLimit?
    private let inflater: RawInflater
    private var inputChunk = [UInt8](repeating: 0, count: 64 << 10)
    private var output = [UInt8](repeating: 0, count: 256 << 10)
    private var readPosition = 0
    private var readEnd = 0

    init(input: any ByteSource, fileName: String, limit: InflationLimit? = nil) throws {
        self.input = input
        self.fileName = fileName
        self.limit = limit
        do {
            inflater = try RawInflater()
        } catch {
            throw Self.failure(error, fileName: fileName, offset: 0)
        }
    }

    /// Compressed bytes zlib has consumed so far.
    var compressedBytesConsumed: Int64 { inflater.totalIn }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while readPosition == readEnd {
            if inflater.isFinished { return 0 }
            if inflater.needsInput {
                let got = try inputChunk.withUnsafeMutableBytes { try input.read(into: $0) }
                guard got > 0 else {
                    throw WorkoutFileError(code: .truncated, fileName: fileName, byteOffset: inflater.totalIn,
                                           message: "compressed data ends before the end of its deflate stream")
                }
                inflater.supply(inputChunk[0..<got])
            }
            let consumedBefore = inflater.totalIn
            let produced: Int
            do {
                produced = try inflater.inflate(into: &output)
            } catch {
                throw Self.failure(error, fileName: fileName, offset: inflater.totalIn)
            }
            if produced == 0, !inflater.isFinished, !inflater.needsInput, inflater.totalIn == consumedBefore {
                throw WorkoutFileError(code: .malformedDeflate, fileName: fileName, byteOffset: inflater.totalIn,
                                       message: "zlib made no progress on the deflate stream")
            }
            readPosition = 0
            readEnd = produced
            try limit?.check(produced: inflater.totalOut, consumed: inflater.totalIn, fileName: fileName)
        }
        let count = min(buffer.count, readEnd - readPosition)
        output.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + readPosition, byteCount: count)
        }
        readPosition += count
        return count
    }

    /// After the stream has ended: the `count` bytes that follow it (a gzip trailer), taken from
    /// what zlib left unconsumed and then from the input.
    func takeTrailer(_ count: Int) throws -> [UInt8] {
        var bytes = Array(inflater.remainingInput.prefix(count))
        var scratch = [UInt8](repeating: 0, count: count)
        while bytes.count < count {
            let want = count - bytes.count
            let got = try scratch.withUnsafeMutableBytes { raw in
                try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<want]))
            }
            guard got > 0 else {
                throw WorkoutFileError(code: .truncated, fileName: fileName, byteOffset: inflater.totalIn,
                                       message: "the stream ends inside its \(count)-byte trailer")
            }
            bytes += scratch[0..<got]
        }
        return bytes
    }

    /// zlib's error as this module's: invalid data is `malformedDeflate`, no memory `limitExceeded`.
    private static func failure(_ error: ZlibError, fileName: String, offset: Int64) -> WorkoutFileError {
        let code: WorkoutFileError.Code = error.code == .memoryError ? .limitExceeded : .malformedDeflate
        return WorkoutFileError(code: code, fileName: fileName, byteOffset: offset,
                                message: "invalid deflate data: zlib \(error.operation) says \"\(error.message)\"")
    }
}
