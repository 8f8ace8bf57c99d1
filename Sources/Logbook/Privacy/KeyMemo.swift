import EventLog

/// The payload keys one reader has looked up, remembered by their users' bytes in a table of its
/// own: a reader that opens many payloads in turn (a part of a stretch of the log) asks the shared
/// key cache — a lock, a SipHash and a dictionary probe — once per user instead of once per event,
/// and readers side by side do not meet on that cache's lock.
///
/// Direct-mapped: each user has one slot, chosen by an FNV-1a hash of their id's UTF-8 bytes, and
/// a user whose slot another holds replaces them. A hit compares the ids' bytes, as the key store
/// does. Meant to live as long as one stretch: a key erased meanwhile is seen as it was when the
/// stretch began, as if the stretch had been read just before the erasure.
struct KeyMemo {
    /// Slots in the table (a power of two).
    static let slots = 256

    private var users: [String?] = Array(repeating: nil, count: KeyMemo.slots)
    private var entries: [UserKeyStore.Entry?] = Array(repeating: nil, count: KeyMemo.slots)

    /// The remembered entry of `user`, or the one `lookUp` finds (remembered unless nil).
    mutating func entry(for user: String, _ lookUp: (String) throws -> UserKeyStore.Entry?) rethrows -> UserKeyStore.Entry? {
        let slot = Self.slot(of: user)
        if let held = users[slot], BytewiseString(held) == BytewiseString(user) { return entries[slot] }
        guard let found = try lookUp(user) else { return nil }
        users[slot] = user
        entries[slot] = found
        return found
    }

    /// The slot of `user`: FNV-1a over their id's UTF-8 bytes, folded to the table's size.
    static func slot(of user: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in user.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(truncatingIfNeeded: (hash ^ hash >> 32) & UInt64(slots - 1))
    }
}
