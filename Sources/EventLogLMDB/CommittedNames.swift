import Synchronization

/// The names a log has interned (stream, subject, event type), remembered by number for every
/// short read of one store: a point read or a stream read then resolves its names without a
/// B-tree lookup and a `String` allocation each.
///
/// Only names read in read-only transactions are remembered: those are committed, and a
/// committed number never names anything else (numbers are appended, never reused or removed).
/// Numbers are dense (1, 2, 3… per kind), so each kind is an array indexed by number, holding at
/// most ``capacity`` names; larger numbers are simply not remembered.
final class CommittedNames: Sendable {
    static let capacity = 1 << 18
    private let names = Mutex<[[String?]]>(Array(repeating: [], count: NameKind.allCases.count))

    /// The name remembered for `number`, if any.
    func name(_ kind: NameKind, _ number: UInt32) -> String? {
        let index = Int(number)
        return names.withLock { names in index < names[kind.rawValue].count ? names[kind.rawValue][index] : nil }
    }

    /// Remembers that `number` names `name` (read from a committed record).
    func remember(_ name: String, as number: UInt32, _ kind: NameKind) {
        let index = Int(number)
        guard index < Self.capacity else { return }
        names.withLock { names in
            if index >= names[kind.rawValue].count {
                // Grow by at least doubling, so remembering n names costs O(n) copies in all.
                let target = min(Self.capacity, max(index + 1, names[kind.rawValue].count * 2))
                names[kind.rawValue].append(contentsOf: repeatElement(nil, count: target - names[kind.rawValue].count))
            }
            names[kind.rawValue][index] = name
        }
    }
}
