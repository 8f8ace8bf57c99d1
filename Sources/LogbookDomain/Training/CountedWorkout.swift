/// A counted workout as the training rules see it: finished or imported, not deleted, and the primary of
/// its group (one activity recorded by several devices, not built yet) — the caller decides which workouts count; the kernel trusts it.
///
/// `Activity` is the activity type (Logbook's `ActivityType`, or any `Hashable` stand-in in tests).
package struct CountedWorkout<Activity: Hashable & Sendable>: Hashable, Sendable {
    /// The workout id, compared as bytes.
    package var id: String
    package var activity: Activity
    /// The local day it started (day number, see ``DayNumbers``).
    package var localDate: Int
    /// The start instant in any unit that orders instants (Logbook: `Timestamp.instant`, microseconds since
    /// the epoch); only its order matters.
    package var startInstant: Int64
    package var distanceMeters: Int
    package var movingSeconds: Int

    /// A workout of every field.
    package init(id: String, activity: Activity, localDate: Int, startInstant: Int64, distanceMeters: Int, movingSeconds: Int) {
        self.id = id
        self.activity = activity
        self.localDate = localDate
        self.startInstant = startInstant
        self.distanceMeters = distanceMeters
        self.movingSeconds = movingSeconds
    }
}
