/// The first day of a user's week (the `weekStart` profile field).
package enum FirstWeekday: Sendable, Hashable, CaseIterable {
    case monday, sunday
}

/// Calendar arithmetic on day numbers: days since 1970-01-01, as `CivilDate.daysSinceEpoch` counts them.
///
/// Weekdays are numbered 0 = Monday … 6 = Sunday. Nothing here reads a clock, a time zone or a calendar.
package enum DayNumbers {
    /// Day numbers the kernel accepts: 0001-01-01 … 9999-12-31, the years `CivilDate` accepts.
    ///
    /// Inputs outside this range are refused or ignored (each function says which), so that day
    /// arithmetic (a window of 28 days, a week's first day) can never overflow.
    package static let validRange: ClosedRange<Int> = -719_162...2_932_896

    /// The weekday of `day`, 0 = Monday … 6 = Sunday.
    package static func weekday(of day: Int) -> Int {
        // 1970-01-01 (day 0) was a Thursday (3).
        ((day % 7 + 7) % 7 + 3) % 7
    }

    /// The first day of the week that holds `day`, for weeks starting on `weekStart`.
    ///
    /// A `day` outside ``validRange`` is first clamped into it (so hostile input cannot overflow).
    package static func firstDayOfWeek(containing day: Int, weekStart: FirstWeekday) -> Int {
        let day = clamped(day)
        let weekday = weekday(of: day)
        switch weekStart {
        case .monday: return day - weekday
        case .sunday: return day - (weekday + 1) % 7
        }
    }

    /// The first day on or after `day` that falls on `weekday` (0 = Monday … 6 = Sunday; other values are
    /// taken modulo 7). A `day` outside ``validRange`` is first clamped into it.
    package static func first(weekday: Int, onOrAfter day: Int) -> Int {
        let day = clamped(day)
        let wanted = (weekday % 7 + 7) % 7
        return day + ((wanted - self.weekday(of: day)) + 7) % 7
    }

    /// `day`, held inside ``validRange``.
    static func clamped(_ day: Int) -> Int {
        min(max(day, validRange.lowerBound), validRange.upperBound)
    }
}
