#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A race-time prediction by Riegel's formula (the Training article, "The weekly summary", active target).
///
/// Over the counted workouts of the target's activity type with a distance of at least 3,000 m whose local
/// start day is in today−42 … today−1 ("the 42 days before today"; today itself does not count), each
/// predicts movingSeconds × (target distance / distance)^1.06; the prediction is the smallest, rounded to
/// whole seconds, half away from zero; nil without such a workout.
///
/// This is the kernel's one floating-point rule: the power is the C library's `pow` on `Double`s, and the
/// rounding is of that `Double` result. It is a pure function of its inputs (no state, no clock), so a
/// summary is deterministic on one platform; two C libraries could in principle differ by one unit in the
/// last place and, at an exact .5 boundary, by one second. Workouts with no moving time or no distance are
/// skipped (they predict nothing). Ties between workouts predicting the same whole second go to the lowest
/// id, bytewise.
package enum RiegelPrediction {
    /// Riegel's exponent.
    package static let exponent = 1.06
    /// The shortest workout that predicts.
    package static let minimumDistanceMeters = 3_000
    /// How many days before today are considered.
    package static let windowDays = 42

    /// A prediction and the workout it came from.
    package struct Prediction: Sendable, Hashable {
        package var seconds: Int
        package var workoutId: String

        /// A prediction of every field.
        package init(seconds: Int, workoutId: String) {
            self.seconds = seconds
            self.workoutId = workoutId
        }
    }

    /// The prediction for a target of `activity` and `targetDistanceMeters`, as of `today` (the query's local day).
    package static func predict<Activity>(
        activity: Activity, targetDistanceMeters: Int, workouts: some Sequence<CountedWorkout<Activity>>, today: Int
    ) -> Prediction? {
        guard DayNumbers.validRange.contains(today) else { return nil }
        let window = (today - windowDays)...(today - 1)
        var best: Prediction?
        for workout in workouts
        where workout.activity == activity && workout.distanceMeters >= minimumDistanceMeters && window.contains(workout.localDate) {
            guard let seconds = predictedSeconds(movingSeconds: workout.movingSeconds, distanceMeters: workout.distanceMeters,
                                                 targetDistanceMeters: targetDistanceMeters) else { continue }
            if let current = best, current.seconds < seconds || (current.seconds == seconds && !ByteOrder.precedes(workout.id, current.workoutId)) {
                continue
            }
            best = Prediction(seconds: seconds, workoutId: workout.id)
        }
        return best
    }

    /// movingSeconds × (target / distance)^1.06, rounded half away from zero; nil when an input is not positive
    /// or the result does not fit an `Int`.
    package static func predictedSeconds(movingSeconds: Int, distanceMeters: Int, targetDistanceMeters: Int) -> Int? {
        guard movingSeconds > 0, distanceMeters > 0, targetDistanceMeters > 0 else { return nil }
        let ratio = Double(targetDistanceMeters) / Double(distanceMeters)
        let predicted = (Double(movingSeconds) * pow(ratio, exponent)).rounded(.toNearestOrAwayFromZero)
        guard predicted.isFinite, predicted < 9.0e18 else { return nil }
        return Int(predicted)
    }
}
