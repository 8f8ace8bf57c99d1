/// A change to an optional field: leave it, clear it, or set it.
public enum OptionalChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case clear
    case set(Value)
}
