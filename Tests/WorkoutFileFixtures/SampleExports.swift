/// The Apple Health and Strava exports the tests share, as specs.
public enum SampleExports {
    /// Step sources, one with a typographic apostrophe and one with an ampersand (escaped in XML).
    public static let stepSources = ["Ana’s iPhone", "Health", "Connect & Sync"]

    /// An export of `steps` step records (the first `steps / 3` a summer's, +0200; the rest winter, +0100)
    /// over three sources, heart-rate records between them, two correlations, three activity summaries, and
    /// ``workouts``. Every 97th step record is written with a fraction ("12.0"); every 101st counts 0.
    public static func health(steps: Int = 2345) -> AppleHealthExport {
        var records: [HealthRecord] = []
        let summer = FixtureTime.unix(2016, 7, 1, 6), winter = FixtureTime.unix(2016, 12, 1, 7)
        for index in 0..<steps {
            let winterPart = index >= steps / 3
            let start = (winterPart ? winter : summer) + Int64(index) * 600
            let count = index % 101 == 100 ? 0 : 10 + index % 290
            records.append(HealthRecord(sourceName: stepSources[index % 3], start: start, end: start + 300, offset: winterPart ? 3600 : 7200,
                                        value: index % 97 == 0 ? "\(count).0" : "\(count)"))
            if index % 50 == 49 {
                records.append(HealthRecord(type: "HKQuantityTypeIdentifierHeartRate", sourceName: "Apple Watch", unit: "count/min",
                                            start: start, end: start, offset: 7200, value: "72"))
            }
        }
        var export = AppleHealthExport(records: records, workouts: workouts)
        export.correlations = 2
        export.activitySummaries = 3
        return export
    }

    /// Workouts of every kind the mapping names, each with different units and sources of values.
    public static var workouts: [HealthWorkout] {
        let day = FixtureTime.unix(2016, 7, 2, 5)
        func workout(_ index: Int, _ type: String, minutes: Int) -> HealthWorkout {
            let start = day + Int64(index) * 86_400
            var workout = HealthWorkout(activityType: "HKWorkoutActivityType" + type, sourceName: "Ana’s Watch", start: start,
                                        end: start + Int64(minutes * 60) + 19, offset: 7200)
            workout.duration = ("\(Double(minutes) + 0.25)", "min")
            return workout
        }
        var run = workout(0, "Running", minutes: 30)
        run.distance = ("3.1068559611866697", "mi")
        run.energy = ("310.5", "kcal")
        run.heartRate = (151, 178)
        var walk = workout(1, "Walking", minutes: 45)
        walk.distance = ("3.82", "km")
        walk.energy = ("900", "kJ")
        var ride = workout(2, "Cycling", minutes: 60)
        ride.statistics = [
            "type=\"HKQuantityTypeIdentifierDistanceCycling\" sum=\"21.5\" unit=\"km\"",
            "type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sum=\"498\" unit=\"kcal\"",
        ]
        var hike = workout(3, "Hiking", minutes: 90)
        hike.route = .inline((0..<12).map { index in
            HealthLocation(time: hike.start + Int64(index * 300), latitude: 46.37 + Double(index) / 400, longitude: 13.83,
                           altitude: 900 + Double(index * 40), speed: 1.25)
        })
        var swim = workout(4, "Swimming", minutes: 35)
        swim.distance = ("1500", "m")
        var manual = workout(5, "Yoga", minutes: 50)
        manual.end = manual.start  // an app that writes endDate = startDate and a real duration
        let others = [
            workout(6, "FunctionalStrengthTraining", minutes: 40), workout(7, "TraditionalStrengthTraining", minutes: 20),
            workout(8, "MixedMetabolicCardioTraining", minutes: 25), workout(9, "Dance", minutes: 55),
        ]
        return [run, walk, ride, hike, swim, manual] + others
    }

    /// The ride of an export.zip whose route is a GPX file in `workout-routes/`.
    public static let routedRideStart = FixtureTime.unix(2021, 3, 2, 6)
    public static let routePath = "/workout-routes/route_2021-03-02_7.00am.gpx"

    /// An export for a zip: 300 step records, a ride referring to ``routePath`` and a run referring
    /// to a route the zip lacks.
    public static var zippedHealth: AppleHealthExport {
        var export = health(steps: 300)
        var ride = HealthWorkout(activityType: "HKWorkoutActivityTypeCycling", sourceName: "Ana’s Watch", start: routedRideStart,
                                 end: routedRideStart + 1800, offset: 3600)
        ride.duration = ("30", "min")
        ride.distance = ("12.5", "km")
        ride.energy = ("1000", "kJ")
        ride.route = .file(routePath)
        var run = HealthWorkout(activityType: "HKWorkoutActivityTypeRunning", sourceName: "Ana’s Watch", start: routedRideStart + 86_400,
                                end: routedRideStart + 86_400 + 1200, offset: 3600)
        run.duration = ("20", "min")
        run.route = .file("/workout-routes/route_2021-03-03_7.00am.gpx")
        export.workouts = [ride, run]
        return export
    }

    /// The route GPX of the zipped ride: 40 points 45 s apart.
    public static var zippedRoute: GPXDocument { SampleText.appleRoute(start: routedRideStart, points: 40) }

    /// export.zip: export.xml and the route deflated, export_cda.xml and a README stored.
    public static func healthZip(exportCRCDamage: UInt32 = 0, routeCRCDamage: UInt32 = 0) throws -> [UInt8] {
        var export = ZipEntry(name: "apple_health_export/export.xml", content: zippedHealth.bytes, deflated: true)
        export.crcDamage = exportCRCDamage
        var route = ZipEntry(name: "apple_health_export" + routePath, content: zippedRoute.bytes, deflated: true)
        route.crcDamage = routeCRCDamage
        return try ZipWriter.archive([
            ZipEntry(name: "apple_health_export/README.txt", content: Array("stored".utf8), deflated: false),
            export,
            ZipEntry(name: "apple_health_export/export_cda.xml", content: Array("<ClinicalDocument/>".utf8), deflated: false),
            route,
        ])
    }

    /// `rows` Strava activities. Row 0 is a ride with a GPX original; every 7th row a Sail (nautical
    /// miles in the display column); rows 1, 2 name `.fit.gz` originals, row 3 a `.gpx.gz`.
    public static func strava(rows: Int = 150) -> [StravaActivity] {
        let types = ["Ride", "Run", "Walk", "Hike", "Swim", "Weight Training", "Yoga"]
        return (0..<rows).map { index in
            let id = String(203_707_851 + index * 1013)
            let meters = Double(13_609 + index * 101) + 0.2001953125
            var activity = StravaActivity(
                id: id, start: FixtureTime.unix(2014, 10, 5, 16, 15, 21) + Int64(index) * 86_400, name: index == 0 ? "Lunch Ride" : "Activity \(index)",
                type: index % 7 == 6 ? "Sail" : types[index % types.count], elapsedSeconds: 2833 + index, movingSeconds: 2499 + index,
                distanceMeters: meters, displayDistance: String(Double(Int(meters / 10)) / 100), maxHeartRate: 150 + index % 40,
                avgHeartRate: 120 + index % 30, calories: 400 + index)
            if index % 7 == 6 { activity.displayDistance = String(Double(Int(meters / 18.52)) / 100) }
            switch index {
            case 0: activity.filename = "activities/\(id).gpx"
            case 1, 2: activity.filename = "activities/\(id).fit.gz"
            case 3: activity.filename = "activities/\(id).gpx.gz"
            default: break
            }
            return activity
        }
    }
}
