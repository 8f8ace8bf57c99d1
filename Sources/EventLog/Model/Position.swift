/// A place in the global log: gapless, starting at 1, in commit order.
///
/// Whoever has seen position N has seen every position before it: positions are assigned inside
/// the write transaction by the single writer, never taken from a sequence before commit.
public struct Position: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    ExpressibleByIntegerLiteral, CustomStringConvertible
{
    public let rawValue: UInt64

    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }
    @inlinable public init(_ value: UInt64) { self.rawValue = value }
    @inlinable public init(integerLiteral value: UInt64) { self.rawValue = value }

    /// Before the first event: a subscription from here starts at position 1.
    public static let start = Position(0)

    /// The position right after this one.
    @inlinable public var next: Position { Position(rawValue + 1) }

    @inlinable public static func < (lhs: Position, rhs: Position) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UInt64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Which way a read goes through the log or a stream.
public enum ReadDirection: Sendable, Hashable {
    case forward
    case backward
}
