import Testing
@testable import LogbookDomain

private func run(_ id: String, day: Int, meters: Int, seconds: Int, activity: String = "run") -> CountedWorkout<String> {
    CountedWorkout(id: id, activity: activity, localDate: day, startInstant: 0, distanceMeters: meters, movingSeconds: seconds)
}

/// Expected values computed independently with Python 3: `math.floor(s * (d2 / d1) ** 1.06 + 0.5)`.
@Suite struct RiegelPredictionTests {
    @Test func formulaAgainstIndependentValues() {
        let cases: [(seconds: Int, from: Int, to: Int, expected: Int)] = [
            (1_500, 5_000, 10_000, 3_127), (1_500, 5_000, 42_195, 14_387), (2_700, 10_000, 42_195, 12_421),
            (1_800, 6_000, 42_195, 14_230), (1_200, 3_000, 21_097, 9_487), (1_260, 3_000, 21_097, 9_961),
            (5_400, 15_000, 21_097, 7_752), (1_500, 5_000, 5_000, 1_500),
        ]
        for c in cases {
            #expect(RiegelPrediction.predictedSeconds(movingSeconds: c.seconds, distanceMeters: c.from, targetDistanceMeters: c.to) == c.expected)
        }
        #expect(RiegelPrediction.predictedSeconds(movingSeconds: 0, distanceMeters: 5_000, targetDistanceMeters: 10_000) == nil)
        #expect(RiegelPrediction.predictedSeconds(movingSeconds: .max, distanceMeters: 1, targetDistanceMeters: .max) == nil)
    }

    @Test func theWindowIsTheFortyTwoDaysBeforeToday() {
        let today = 20_000
        func predict(_ workouts: [CountedWorkout<String>]) -> RiegelPrediction.Prediction? {
            RiegelPrediction.predict(activity: "run", targetDistanceMeters: 10_000, workouts: workouts, today: today)
        }
        #expect(predict([run("a", day: today - 43, meters: 5_000, seconds: 1_500)]) == nil)
        #expect(predict([run("a", day: today - 42, meters: 5_000, seconds: 1_500)])?.seconds == 3_127)
        #expect(predict([run("a", day: today - 1, meters: 5_000, seconds: 1_500)])?.seconds == 3_127)
        #expect(predict([run("a", day: today, meters: 5_000, seconds: 1_500)]) == nil)
        #expect(predict([run("a", day: today - 5, meters: 2_999, seconds: 600)]) == nil)
        #expect(predict([run("a", day: today - 5, meters: 3_000, seconds: 1_200)])?.seconds == 4_300)
        #expect(predict([run("a", day: today - 5, meters: 5_000, seconds: 1_500, activity: "ride")]) == nil)
    }

    @Test func theSmallestPredictionWinsAndTiesGoToTheLowestId() {
        let today = 20_000
        let workouts = [
            run("slow", day: today - 3, meters: 10_000, seconds: 3_300),  // 3,300
            run("fast", day: today - 10, meters: 5_000, seconds: 1_500),  // 3,127
            run("b", day: today - 11, meters: 5_000, seconds: 1_500),     // 3,127
            run("old", day: today - 50, meters: 10_000, seconds: 2_000),  // outside the window
        ]
        let prediction = RiegelPrediction.predict(activity: "run", targetDistanceMeters: 10_000, workouts: workouts, today: today)
        #expect(prediction == RiegelPrediction.Prediction(seconds: 3_127, workoutId: "b"))
        #expect(RiegelPrediction.predict(activity: "run", targetDistanceMeters: 10_000, workouts: workouts.reversed(), today: today)?.workoutId == "b")
    }
}
