/// Checked integer helpers: hostile input saturates or is clamped, it never traps.
extension Int {
    /// `self + other`, held at `Int.max` / `Int.min` instead of overflowing.
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self × other`, held at `Int.max` / `Int.min` instead of overflowing.
    func saturatingMultiply(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }

    /// `self` rounded down to a multiple of 100 (whole 100 m); 0 for negative values.
    var roundedDownToHundred: Int { self <= 0 ? 0 : self - self % 100 }
}

extension Int64 {
    /// `self + other`, held at `Int64.max` / `Int64.min` instead of overflowing.
    func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}

/// Identifiers compare as bytes (the DomainRules and HostileInput articles): the UTF-8 bytes, lexicographically, shorter first on a
/// common prefix — never Unicode collation, never `String.<`.
package enum ByteOrder {
    /// Whether `a` sorts before `b` by their UTF-8 bytes.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

/// `a × b ≥ c × d` exactly (full-width products: no overflow for any `Int`s).
func productIsAtLeast(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Bool {
    let left = a.multipliedFullWidth(by: b)
    let right = c.multipliedFullWidth(by: d)
    // Two's-complement full width: (signed high, unsigned low) compares lexicographically.
    return (left.high, left.low) >= (right.high, right.low)
}
