import CLMDB

/// Conversions between Swift byte views and `MDB_val`, kept in one place.
enum BytesBridge {
    /// Calls `body` with an `MDB_val` pointing at the span's bytes.
    @inline(__always)
    static func withValue<R>(_ span: Span<UInt8>, _ body: (inout MDB_val) throws -> R) rethrows -> R {
        try span.withUnsafeBufferPointer { buffer in
            var value = MDB_val(mv_size: buffer.count, mv_data: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            return try body(&value)
        }
    }

    /// Calls `body` with an `MDB_val` holding `key` as 8 big-endian bytes, so keys sort numerically.
    @inline(__always)
    static func withValue<R>(_ key: UInt64, _ body: (inout MDB_val) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: key.bigEndian) { raw in
            var value = MDB_val(mv_size: 8, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
            return try body(&value)
        }
    }

    /// Calls `body` with a span over the bytes an `MDB_val` points at (valid only inside `body`).
    @inline(__always)
    static func withSpan<R>(_ value: MDB_val, _ body: (Span<UInt8>) throws -> R) rethrows -> R {
        let buffer = UnsafeBufferPointer(start: value.mv_data?.assumingMemoryBound(to: UInt8.self), count: value.mv_size)
        return try body(Span(_unsafeElements: buffer))
    }

    /// Copies the span's bytes to `target`, which has room for them.
    @inline(__always)
    static func copy(_ span: Span<UInt8>, to target: UnsafeMutableRawPointer) {
        span.withUnsafeBytes { source in
            if let base = source.baseAddress { target.copyMemory(from: base, byteCount: source.count) }
        }
    }

    /// Reads 8 big-endian bytes as a `UInt64`; `nil` if the value is not 8 bytes long.
    @inline(__always)
    static func uint64(_ value: MDB_val) -> UInt64? {
        guard value.mv_size == 8, let data = value.mv_data else { return nil }
        return UInt64(bigEndian: data.loadUnaligned(as: UInt64.self))
    }
}

extension Span where Element == UInt8 {
    /// A copy of the bytes, to keep after the transaction that lent them has ended.
    public func copiedBytes() -> [UInt8] {
        withUnsafeBufferPointer { Array($0) }
    }
}
