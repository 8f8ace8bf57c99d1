import Testing
import WorkoutFileFixtures
@testable import WorkoutFiles

/// Strava's column 6 is in the activity's display unit; without column 17 (metres) the parser
/// converts it: kilometres for most types, nautical miles for Sail.
@Suite struct StravaDisplayUnitTests {
    /// `activities.csv` of `activity` with column 17 (metres) left empty.
    static func withoutMetres(_ activity: StravaActivity) -> [UInt8] {
        var fields = StravaCSV.fields(activity)
        fields[17] = ""
        return Array((StravaCSV.header.map(StravaCSV.field).joined(separator: ",") + "\n" + fields.map(StravaCSV.field).joined(separator: ",") + "\n").utf8)
    }

    @Test("a Sail row's distance without metres is read in nautical miles, a Ride's in kilometres")
    func displayUnits() throws {
        let sail = StravaActivity(id: "1", start: 1_683_412_793, name: "Afternoon Sail", type: "Sail", elapsedSeconds: 6360,
                                  movingSeconds: 4855, distanceMeters: 0, displayDistance: "15.99")
        let ride = StravaActivity(id: "2", start: 1_683_412_793, name: "Ride", type: "Ride", elapsedSeconds: 3600,
                                  movingSeconds: 3500, distanceMeters: 0, displayDistance: "25.5")
        for (activity, metres) in [(sail, 15.99 * 1852), (ride, 25_500.0)] {
            let file = try StravaCSVParser().parse(bytes: Self.withoutMetres(activity), fileName: "activities.csv")
            let distance = try #require(file.workouts.first?.distanceMeters)
            #expect(abs(distance - metres) < 0.01, "\(activity.type): \(distance)")
        }
    }
}
