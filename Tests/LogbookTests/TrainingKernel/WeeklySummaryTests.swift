import Testing
@testable import LogbookDomain

@Suite struct WeeklySummaryTests {
    @Test func complianceIsFlooredPercent() {
        #expect(WeeklySummary.compliancePercent(completed: 2, plannedSessions: 3) == 66)
        #expect(WeeklySummary.compliancePercent(completed: 1, plannedSessions: 3) == 33)
        #expect(WeeklySummary.compliancePercent(completed: 3, plannedSessions: 3) == 100)
        #expect(WeeklySummary.compliancePercent(completed: 0, plannedSessions: 7) == 0)
        #expect(WeeklySummary.compliancePercent(completed: 0, plannedSessions: 0) == nil)
        #expect(WeeklySummary.compliancePercent(completed: .max, plannedSessions: .max) == 100)
        #expect(WeeklySummary.compliancePercent(completed: .max / 3, plannedSessions: .max) == 33)
        for planned in 1...50 {
            for completed in 0...planned {
                #expect(WeeklySummary.compliancePercent(completed: completed, plannedSessions: planned) == 100 * completed / planned)
            }
        }
    }

    @Test func weeksFollowTheWeekStart() {
        // Day 0 (1970-01-01) was a Thursday.
        #expect(DayNumbers.weekday(of: 0) == 3)
        #expect(DayNumbers.weekday(of: -1) == 2)
        #expect(WeeklySummary.week(containing: 0, weekStart: .monday) == -3...3)
        #expect(WeeklySummary.week(containing: 0, weekStart: .sunday) == -4...2)
        #expect(WeeklySummary.week(containing: 3, weekStart: .sunday) == 3...9)
        #expect(DayNumbers.weekday(of: DayNumbers.validRange.lowerBound) == 0)  // 0001-01-01 was a Monday
    }

    @Test func tallyCountsEveryStatus() {
        let planned = [
            PlanMatching.Planned(id: "a", ordinal: 1, date: 1, activity: "run", distanceMeters: 5_000),
            PlanMatching.Planned(id: "b", ordinal: 2, date: 2, activity: "run", distanceMeters: 10_000),
            PlanMatching.Planned(id: "c", ordinal: 3, date: 3, activity: "run", durationSeconds: 1_800),
            PlanMatching.Planned(id: "d", ordinal: 4, date: 5, activity: "run"),
        ]
        let workouts = [
            CountedWorkout(id: "w1", activity: "run", localDate: 1, startInstant: 0, distanceMeters: 5_000, movingSeconds: 1_500),
            CountedWorkout(id: "w2", activity: "run", localDate: 2, startInstant: 0, distanceMeters: 5_000, movingSeconds: 1_500),
            CountedWorkout(id: "w3", activity: "ride", localDate: 2, startInstant: 0, distanceMeters: 20_000, movingSeconds: 3_600),
        ]
        let tally = WeeklySummary.Tally(PlanMatching.match(planned: planned, workouts: workouts, today: 4), workouts: workouts)
        #expect((tally.plannedSessions, tally.completed, tally.partial, tally.missed, tally.upcoming, tally.extra) == (4, 1, 1, 1, 1, 1))
        #expect(tally.plannedDistanceMeters == 15_000 && tally.plannedDurationSeconds == 1_800)
        #expect(tally.doneSessions == 3 && tally.doneDistanceMeters == 30_000 && tally.doneMovingSeconds == 6_600)
        #expect(tally.compliancePercent == 25)
    }
}

@Suite struct DayNumbersAndHistoryTests {
    @Test func weekdaysAndWeeks() {
        for day in -30...30 {
            let monday = DayNumbers.firstDayOfWeek(containing: day, weekStart: .monday)
            let sunday = DayNumbers.firstDayOfWeek(containing: day, weekStart: .sunday)
            #expect(DayNumbers.weekday(of: monday) == 0 && DayNumbers.weekday(of: sunday) == 6)
            #expect((0...6).contains(day - monday) && (0...6).contains(day - sunday))
            for weekday in 0...6 {
                let next = DayNumbers.first(weekday: weekday, onOrAfter: day)
                #expect(DayNumbers.weekday(of: next) == weekday && (0...6).contains(next - day))
            }
        }
        // Hostile days are clamped, never trap.
        #expect(DayNumbers.firstDayOfWeek(containing: .min, weekStart: .sunday) <= DayNumbers.validRange.lowerBound)
        #expect(DayNumbers.first(weekday: .min, onOrAfter: .max) >= DayNumbers.validRange.upperBound)
    }

    /// The four complete weeks before the start's week, oldest first, of the target's activity only.
    @Test func recentWeeksFromWorkouts() {
        // Day 20,878 is Monday 2027-03-01; the plan starts Wednesday 2027-03-03: weeks from 20,850 to 20,877.
        func workout(_ id: String, _ day: Int, _ meters: Int, _ activity: String = "run") -> CountedWorkout<String> {
            CountedWorkout(id: id, activity: activity, localDate: day, startInstant: 0, distanceMeters: meters, movingSeconds: 1)
        }
        let workouts = [
            workout("before", 20_849, 50_000), workout("a", 20_850, 5_000), workout("b", 20_851, 7_000), workout("c", 20_866, 12_000),
            workout("ride", 20_866, 40_000, "ride"), workout("d", 20_877, 3_000), workout("e", 20_878, 9_000), workout("f", 20_880, 9_000),
        ]
        let weeks = WeekHistory.recentWeeks(of: workouts, activity: "run", before: 20_880, weekStart: .monday)
        #expect(weeks == [WeekHistory(totalMeters: 12_000, longestMeters: 7_000), WeekHistory(totalMeters: 0, longestMeters: 0),
                          WeekHistory(totalMeters: 12_000, longestMeters: 12_000), WeekHistory(totalMeters: 3_000, longestMeters: 3_000)])
    }
}
