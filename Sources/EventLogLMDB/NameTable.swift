import EventLog

/// The writer's interned numbers of one kind of name (streams, subjects or types), found by the
/// name's bytes and a hash of them computed beforehand — by the appending task, which prepares
/// each batch off the writer's thread (``hash(_:)``), so a lookup on the writer costs a probe and
/// a comparison of bytes, no hashing. Names are told apart by their bytes.
///
/// Open addressing with linear probing, at most half full. A slot holds the hash, the number and
/// the name side by side, so a probe reads one cache line (a short name is stored inside the
/// `String` itself); a slot whose number is 0 is empty (numbers count from 1).
struct NameTable {
    private struct Slot {
        var hash: UInt64 = 0
        var number: UInt32 = 0
        var name = ""
    }

    private var slots = [Slot](repeating: Slot(), count: 64)
    private(set) var count = 0

    init() {}

    /// The hash a name is looked up by: XXH64 of its UTF-8 bytes.
    @inline(__always)
    static func hash(_ name: String) -> UInt64 { XXHash64.hash(name.utf8.span, from: 0, seed: 0) }

    /// The number of `name` (whose ``hash(_:)`` is `hash`), if the table holds it.
    @inline(__always)
    func number(_ name: String, hash: UInt64) -> UInt32? {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let number = slots[index].number
            if number == 0 { return nil }
            if slots[index].hash == hash, BytewiseString(slots[index].name) == BytewiseString(name) { return number }
            index = (index + 1) & mask
        }
    }

    /// Remembers `number` for `name`.
    mutating func insert(_ name: String, hash: UInt64, number: UInt32) {
        precondition(number != 0, "interned numbers count from 1")
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index].number != 0 {
            if slots[index].hash == hash, BytewiseString(slots[index].name) == BytewiseString(name) {
                slots[index].number = number
                return
            }
            index = (index + 1) & mask
        }
        slots[index] = Slot(hash: hash, number: number, name: name)
        count += 1
    }

    /// Twice the slots, every entry placed again by its stored hash.
    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        count = 0
        for slot in old where slot.number != 0 { insert(slot.name, hash: slot.hash, number: slot.number) }
    }
}
