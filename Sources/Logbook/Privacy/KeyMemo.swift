import EventLog

/// The payload keys one reader has looked up, remembered by their users' bytes in a table of its
/// own: a reader that opens many payloads in turn (a part of a stretch of the log) asks the shared
/// key cache — a lock, a SipHash and a dictionary probe — once per user instead of once per event,
/// and readers side by side do not meet on that cache's lock.
///
/// Open addressing with linear probing, keyed by an FNV-1a hash of the id's UTF-8 bytes; a hit
/// compares the ids' bytes, as the key store does. The table has twice as many slots as the
/// reader has events to open, up to ``maximumSlots``; once half full it starts again empty, so a
/// probe stays short and the table never grows. Meant to live as long as one part of a stretch
/// or one batch: a key erased meanwhile is seen as it was when the reader first met its user (or
/// met them again after the table started anew), as with a read that began just before the
/// erasure.
struct KeyMemo {
    /// The most slots a table has (8,192: 256 KB).
    static let maximumSlots = 8_192

    private var users: [String?]
    private var entries: [UserKeyStore.Entry?]
    /// Slots minus one (the slot count is a power of two).
    private let mask: Int
    /// Users remembered (at most half the slots).
    private var count = 0

    /// A table for a reader about to open `events` payloads.
    init(events: Int) {
        var slots = 32
        while slots < Self.maximumSlots, slots / 2 < events { slots *= 2 }
        users = Array(repeating: nil, count: slots)
        entries = Array(repeating: nil, count: slots)
        mask = slots - 1
    }

    /// The remembered entry of `user`, or the one `lookUp` finds (remembered unless nil).
    mutating func entry(for user: String, _ lookUp: (String) throws -> UserKeyStore.Entry?) rethrows -> UserKeyStore.Entry? {
        var slot = Self.slot(of: user, slots: mask + 1)
        while let held = users[slot] {
            if BytewiseString(held) == BytewiseString(user) { return entries[slot] }
            slot = (slot + 1) & mask
        }
        guard let found = try lookUp(user) else { return nil }
        if count >= (mask + 1) / 2 {
            for index in users.indices {
                users[index] = nil
                entries[index] = nil
            }
            count = 0
            slot = Self.slot(of: user, slots: mask + 1)
        }
        users[slot] = user
        entries[slot] = found
        count += 1
        return found
    }

    /// The first slot probed for `user` in a table of `slots` slots (a power of two).
    static func slot(of user: String, slots: Int) -> Int { Int(truncatingIfNeeded: hash(user)) & (slots - 1) }

    /// FNV-1a over `user`'s UTF-8 bytes, its halves folded together.
    private static func hash(_ user: String) -> UInt64 {
        func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash ^ hash >> 32
        }
        return user.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(user.utf8)
    }
}
