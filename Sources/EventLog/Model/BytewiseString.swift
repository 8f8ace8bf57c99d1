/// A string that is equal to another, and hashes, by its UTF-8 bytes — not by Unicode canonical
/// equivalence, as `String` does. The key of in-memory tables of ids (caches, locks), so that
/// they agree with the log, which compares ids as bytes (the HostileInput article): `"jos\u{e9}"` and
/// `"jose\u{301}"` are two keys here, as they are two keys in LMDB.
package struct BytewiseString: Hashable, Sendable, CustomStringConvertible {
    /// The text.
    package let value: String

    /// Wraps `value`.
    package init(_ value: String) { self.value = value }

    package static func == (lhs: BytewiseString, rhs: BytewiseString) -> Bool { lhs.value.hasSameBytes(as: rhs.value) }

    package func hash(into hasher: inout Hasher) {
        let hashed: Void? = value.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in value.utf8 { hasher.combine(byte) }
        }
        hasher.combine(value.utf8.count)
    }

    package var description: String { value }
}

extension String {
    /// True when the two texts are the same UTF-8 bytes: how the log compares names and how read
    /// models compare what they key records by. `==` compares by canonical equivalence, so a
    /// composed and a decomposed spelling of one text are equal to it and different here.
    package func hasSameBytes(as other: String) -> Bool {
        let (left, right) = (utf8, other.utf8)
        guard left.count == right.count else { return false }
        // Native strings compare as two contiguous buffers (a table look-up per event does this);
        // bridged ones byte by byte.
        let compared = left.withContiguousStorageIfAvailable { a in
            right.withContiguousStorageIfAvailable { b in Self.sameBytes(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) }
        }
        return (compared ?? nil) ?? left.elementsEqual(right)
    }

    /// Compares two buffers of one length eight bytes at a time, inline: names are short, and on
    /// the writer's name look-ups this costs half what a call to `memcmp` does.
    @inline(__always)
    private static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count > 0, let p = a.baseAddress, let q = b.baseAddress else { return true }
        var offset = 0
        while count - offset >= 8 {
            if p.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != q.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < count {
            if p.load(fromByteOffset: offset, as: UInt8.self) != q.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset += 1
        }
        return true
    }
}
