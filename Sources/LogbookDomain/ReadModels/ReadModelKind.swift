/// The name of one of Logbook's read models (`stats`, `goals`, …): what rebuilds, digests,
/// checkpoints and status reports are about.
///
/// A struct of named constants rather than an enum: each read model declares its own constant in
/// its own file, and ``allCases`` follows ``ReadModelRegistry``, so adding a read model breaks no
/// code that lists the kinds it knows. The order of ``allCases`` is the order read models fold in
/// and are digested.
public struct ReadModelKind: RawRepresentable, Sendable, Hashable, Codable, Comparable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// The kind named `rawValue`, if Logbook has such a read model.
    public init?(rawValue: String) {
        guard ReadModelRegistry.models.contains(where: { $0.kind.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// A kind declared by a read model (not checked against the registry, which lists them).
    init(declared name: String) { rawValue = name }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let kind = ReadModelKind(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown read model \"\(name)\""))
        }
        self = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Every read model, in registry order.
    public static var allCases: [ReadModelKind] { ReadModelRegistry.kinds }

    /// The read model's code version: a change makes it rebuild on open.
    public var codeVersion: Int { ReadModelRegistry.model(self).codeVersion }

    /// Whether a replay folds the read model on a task of its own, beside the others.
    package var foldsApart: Bool { ReadModelRegistry.model(self).foldsApart }

    /// The names of the read model's tables.
    package var tableNames: [String] { ReadModelRegistry.model(self).tableNames }

    /// The kind's place in the registry.
    var index: Int { ReadModelRegistry.index(of: self) }

    public var description: String { rawValue }

    public static func < (lhs: ReadModelKind, rhs: ReadModelKind) -> Bool { lhs.index < rhs.index }
}
