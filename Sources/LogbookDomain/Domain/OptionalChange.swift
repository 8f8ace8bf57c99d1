/// A change to an optional field: leave it, clear it, or set it.
public enum OptionalChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case clear
    case set(Value)
}

extension OptionalChange {
    /// The value this change sets, if it sets one.
    public var newValue: Value? {
        if case .set(let value) = self { value } else { nil }
    }

    /// `value` after this change: as it was, nil, or the new value.
    public func apply(to value: inout Value?) {
        switch self {
        case .unchanged: break
        case .clear: value = nil
        case .set(let new): value = new
        }
    }
}
