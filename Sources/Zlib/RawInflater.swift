import CZlib

/// Decompresses one raw DEFLATE stream (RFC 1951, no zlib or gzip wrapper) with zlib.
///
/// It owns its `z_stream` (allocated at a fixed address, as zlib requires, and released in
/// `deinit`); bytes go in and out as Swift arrays, so no pointer of zlib's leaves this type.
/// Give it compressed bytes with `supply(_:)` when `needsInput`, and call `inflate(into:)` until
/// `isFinished`; the bytes supplied after the stream's end stay in `remainingInput` (a gzip
/// trailer, say). Not `Sendable`: one stream, one thread at a time.
public final class RawInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: [UInt8] = []
    private var inputPosition = 0
    /// Whether the stream's final block has been decoded.
    public private(set) var isFinished = false
    /// Compressed bytes zlib has consumed so far.
    public private(set) var totalIn: Int64 = 0
    /// Bytes produced so far.
    public private(set) var totalOut: Int64 = 0

    /// Starts a raw-deflate stream (window bits −15: a 32 KiB window, no header).
    public init() throws(ZlibError) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = logbook_inflate_init2(stream, -15)
        guard code == Z_OK else {
            let error = Self.error(code, stream.pointee.msg, "inflateInit2")
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw error
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compressed bytes supplied and not yet consumed.
    public var pendingInput: Int { input.count - inputPosition }

    /// Whether the stream wants more compressed bytes before it can go on.
    public var needsInput: Bool { !isFinished && pendingInput == 0 }

    /// The supplied bytes that follow the end of the deflate stream (empty before the end).
    public var remainingInput: ArraySlice<UInt8> { isFinished ? input[inputPosition...] : [] }

    /// Adds compressed bytes after those still pending.
    public func supply(_ bytes: ArraySlice<UInt8>) {
        if inputPosition == input.count {
            input.removeAll(keepingCapacity: true)
            inputPosition = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Inflates into `output` from its start, as many bytes as fit or as the input allows;
    /// returns how many were written (0 when it needs input or the stream has ended).
    public func inflate(into output: inout [UInt8]) throws(ZlibError) -> Int {
        guard !isFinished, !output.isEmpty else { return 0 }
        let pending = pendingInput
        let capacity = output.count
        let (code, left, room, message) = input.withUnsafeMutableBytes { inputBytes in
            output.withUnsafeMutableBytes { outputBytes in
                stream.pointee.next_in = inputBytes.baseAddress.map { ($0 + inputPosition).assumingMemoryBound(to: Bytef.self) }
                stream.pointee.avail_in = uInt(min(pending, Int(UInt32.max)))
                stream.pointee.next_out = outputBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(min(capacity, Int(UInt32.max)))
                let code = CZlib.inflate(stream, Z_NO_FLUSH)
                let result = (code, Int(stream.pointee.avail_in), Int(stream.pointee.avail_out), stream.pointee.msg)
                // The buffers are only lent for this call: zlib must not keep pointers into them.
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                stream.pointee.avail_in = 0
                stream.pointee.avail_out = 0
                return result
            }
        }
        let consumed = min(pending, Int(UInt32.max)) - left
        let produced = min(capacity, Int(UInt32.max)) - room
        inputPosition += consumed
        totalIn += Int64(consumed)
        totalOut += Int64(produced)
        switch code {
        case Z_OK:
            return produced
        case Z_STREAM_END:
            isFinished = true
            return produced
        case Z_BUF_ERROR:
            // No progress was possible: zlib needs more input. Not an error.
            return produced
        default:
            throw Self.error(code, message, "inflate")
        }
    }

    private static func error(_ code: Int32, _ message: UnsafeMutablePointer<CChar>?, _ operation: String) -> ZlibError {
        let text = message.map { String(cString: $0) } ?? String(cString: zError(code))
        return ZlibError(code: ZlibError.Code(rawValue: code), message: text, operation: operation)
    }
}

@available(*, unavailable)
extension RawInflater: Sendable {}
