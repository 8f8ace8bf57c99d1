// The vocabulary's types are generated from the declarations (Generated/Vocabulary.swift); what
// they do beyond carrying values is here.

extension ActivityType: Comparable {
    /// Pace (time per distance) is the natural measure for these; speed for rides.
    public var usesPace: Bool { self == .run || self == .walk || self == .hike }

    /// Declaration order.
    public static func < (lhs: ActivityType, rhs: ActivityType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
