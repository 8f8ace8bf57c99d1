import Crypto
public import Foundation

/// Ids derived from content, so that sending the same thing again names the same workout or
/// event (and a retry writes nothing): SHA-256 of the parts, each followed by a NUL byte.
public enum DerivedIds {
    /// Hex SHA-256 of `parts`.
    public static func hex(_ parts: [String]) -> String {
        var hasher = SHA256()
        for part in parts {
            hasher.update(data: Data(part.utf8))
            hasher.update(data: Data([0]))
        }
        return hasher.finalize().hex
    }

    /// A version-8 (custom) UUID made of the first 128 bits of ``hex(_:)`` of `parts`.
    public static func uuid(_ parts: [String]) -> UUID {
        var digits = Array(hex(parts).prefix(32))
        digits[12] = "8"
        digits[16] = ["8", "9", "a", "b"][Int(String(digits[16]), radix: 16)! & 3]
        let text = String(digits)
        let dashed = [text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4), text.dropFirst(20)]
            .joined(separator: "-")
        return UUID(uuidString: dashed)!
    }

    /// The id of the `index`-th event of a command whose first event has id `first` (a retry with
    /// the same first id names the same events, on any server).
    public static func following(_ first: UUID, index: Int) -> UUID {
        uuid(["event", first.uuidString.lowercased(), String(index)])
    }
}

extension WorkoutImported {
    /// Workout ids of this prefix are derived from (user, source kind, source id) by
    /// ``derivedWorkoutId(user:kind:sourceId:)``; no other workout may take one.
    public static let derivedIdPrefix = "imp-"

    /// The workout id a file import gives the workout (user, kind, source id): the same whenever
    /// the same workout is imported for the same user.
    public static func derivedWorkoutId(user: String, kind: SourceKind, sourceId: String) -> String {
        derivedIdPrefix + DerivedIds.hex(["workout", user, kind.rawValue, sourceId]).prefix(32)
    }
}
