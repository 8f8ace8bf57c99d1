import Foundation
import Testing
@testable import WorkoutFiles

/// Runs `body` and returns the WorkoutFileError it throws (nil if it did not throw one).
func workoutError(_ body: () throws -> Void) -> WorkoutFileError? {
    do {
        try body()
        return nil
    } catch let error as WorkoutFileError {
        return error
    } catch {
        Issue.record("unexpected error type \(type(of: error)): \(error)")
        return nil
    }
}
