/// The GPX and TCX files the tests share, as specs.
public enum SampleText {
    /// A GPX 1.1 run: 60 points 5 s apart heading east, 15 m apart except five standing still,
    /// with heart rate and cadence in a TrackPointExtension bound to the prefix `ns3`.
    public static var gpxRun: GPXDocument {
        let start = FixtureTime.unix(2020, 12, 18, 6, 15, 50)
        var east = 0
        let points = (0..<60).map { index -> GPXPoint in
            if !(20..<25).contains(index), index > 0 { east += 196 }
            return GPXPoint(latitude: 45.268_123, longitude: 13.720_000 + Double(east) / 1_000_000, elevation: Double(200 + index % 7),
                            time: TextTime(start + Int64(index * 5)), heartRate: 130 + index % 25, cadence: 160 + index % 9)
        }
        var document = GPXDocument(version: .v1_1, tracks: [GPXTrack(name: "2020-12-18 07:24:29", type: "running", segments: [points])])
        document.extensionPrefix = "ns3"
        return document
    }

    /// GPX 1.0 with two waypoints and four tracks: an empty one and an untimed one (both typed),
    /// then two timed, untyped ones (the second in two segments).
    public static var gpxTracks: GPXDocument {
        let start = FixtureTime.unix(2012, 4, 14, 9)
        func points(_ count: Int, from: Int, timed: Bool, latitude: Double) -> [GPXPoint] {
            (0..<count).map { index in
                GPXPoint(latitude: latitude + Double(index * 90) / 1_000_000, longitude: 15.600_000 + Double(index * 40) / 1_000_000,
                         elevation: Double(500 + index), time: timed ? TextTime(start + Int64((from + index) * 10)) : nil)
            }
        }
        var document = GPXDocument(version: .v1_0, tracks: [
            GPXTrack(name: "empty", type: "jkljkl", segments: []),
            GPXTrack(name: "untimed", type: "...", segments: [points(10, from: 0, timed: false, latitude: 45.5)]),
            GPXTrack(name: "first", segments: [points(30, from: 0, timed: true, latitude: 45.6)]),
            GPXTrack(name: "second", segments: [points(20, from: 100, timed: true, latitude: 45.7),
                                                points(20, from: 130, timed: true, latitude: 45.71)]),
        ])
        document.waypoints = [(45.5, 15.6, "Korita"), (45.6, 15.7, "Zbevnica")]
        return document
    }

    /// A GPX file of one waypoint and nothing else.
    public static var gpxWaypoint: GPXDocument {
        var document = GPXDocument(version: .v1_1, tracks: [])
        document.waypoints = [(46.0, 14.5, "Summit")]
        return document
    }

    /// A track of six points that all carry the same time.
    public static var gpxStill: GPXDocument {
        let time = TextTime(FixtureTime.unix(2017, 8, 1, 8), offset: 7200)
        let points = (0..<6).map { GPXPoint(latitude: 46.44 + Double($0) / 1000, longitude: 13.86, elevation: 1600, time: time) }
        return GPXDocument(version: .v1_1, tracks: [GPXTrack(name: "Mojstrovka", segments: [points])])
    }

    /// Apple Health's route file for `HealthSamples.routedRide`: GPX 1.1, speed in bare `<extensions>`.
    public static func appleRoute(start: Int64, points count: Int) -> GPXDocument {
        let points = (0..<count).map { (index: Int) -> GPXPoint in
            let latitude: Double = 37.781_672 + Double(index * 45) / 1_000_000
            let elevation: Double = 4 + Double(index) / 4, speed: Double = 5 + Double(index % 9) / 8
            return GPXPoint(latitude: latitude, longitude: -122.396_397, elevation: elevation, time: TextTime(start + Int64(index * 45)),
                            speed: speed)
        }
        var document = GPXDocument(version: .v1_1, tracks: [GPXTrack(name: "Route", segments: [points])])
        document.creator = "Apple Health Export"
        document.appleRoute = true
        return document
    }

    /// A TCX run in January with `Z` times: three laps of 128 trackpoints (position, recorded
    /// distance, heart rate), notes "Aerobics".
    public static var tcxRun: TCXDocument {
        let start = FixtureTime.unix(2012, 1, 12, 7, 30)
        let laps: [(time: Double, meters: Double, kcal: Int, avg: Int, max: Int)] = [
            (601.78, 1500.25, 94, 141, 160), (700.5, 1600.5, 147, 150, 175), (690.5, 1588.4927, 138, 158, 189),
        ]
        var offset = 0.0, distance = 0.0, written: [TCXLap] = []
        for (lapIndex, lap) in laps.enumerated() {
            let lapStart = start + Int64(offset.rounded(.down))
            let points = (0..<128).map { index -> TCXTrackpoint in
                let meters = distance + lap.meters * Double(index) / 128
                return TCXTrackpoint(time: TextTime(lapStart + Int64(index * 4)), latitude: 35.95 + meters / 111_195,
                                     longitude: -79.09, altitude: 120 + Double(index % 10), distance: (meters * 100).rounded() / 100,
                                     heartRate: lap.avg - 10 + index % 20 + (lapIndex == 2 && index == 100 ? 11 : 0))
            }
            written.append(TCXLap(start: TextTime(lapStart), totalTimeSeconds: lap.time, distanceMeters: lap.meters, calories: lap.kcal,
                                  avgHeartRate: lap.avg, maxHeartRate: lap.max, trackpoints: points))
            offset += lap.time
            distance += lap.meters
        }
        return TCXDocument(activities: [TCXActivity(sport: "Running", id: TextTime(start), notes: "Aerobics", laps: written)])
    }

    /// Cross-country skiing as "Other" with the extension namespace bound to `ax`: speed and run
    /// cadence on every trackpoint, two laps.
    public static var tcxSki: TCXDocument {
        let start = FixtureTime.unix(2019, 1, 20, 10, 5)
        let laps = (0..<2).map { lapIndex in
            let lapStart = start + Int64(lapIndex * 1500)
            let points = (0..<50).map { (index: Int) -> TCXTrackpoint in
                let latitude: Double = 46.2 + Double(lapIndex * 50 + index) / 10_000, speed: Double = 1.5 + Double(index % 4) / 4
                return TCXTrackpoint(time: TextTime(lapStart + Int64(index * 30)), latitude: latitude, longitude: 14.1,
                                     distance: Double((lapIndex * 50 + index) * 57), heartRate: 140 + index % 15, speed: speed,
                                     runCadence: 40 + index % 6)
            }
            return TCXLap(start: TextTime(lapStart), totalTimeSeconds: 1500, distanceMeters: lapIndex == 0 ? 2850 : 2842.01,
                          calories: lapIndex == 0 ? 270 : 262, trackpoints: points)
        }
        var document = TCXDocument(activities: [TCXActivity(sport: "Other", id: TextTime(start), laps: laps)])
        document.extensionPrefix = "ax"
        return document
    }

    /// A ride whose times state `+00:00`, the first trackpoint 0.8498 s after the lap starts.
    public static var tcxRide: TCXDocument {
        let start = FixtureTime.unix(2013, 5, 4, 14, 0)
        let points = (0..<40).map { (index: Int) -> TCXTrackpoint in
            let latitude: Double = 42.35 + Double(index) / 2000
            return TCXTrackpoint(time: TextTime(start + Int64(index * 10), micros: index == 0 ? 849_800 : 0, offset: 0),
                                 latitude: latitude, longitude: -71.06, distance: Double(index * 60), cadence: 88, watts: 210)
        }
        let lap = TCXLap(start: TextTime(start, offset: 0), totalTimeSeconds: 390, distanceMeters: 2340, calories: 88, trackpoints: points)
        return TCXDocument(activities: [TCXActivity(sport: "Biking", id: TextTime(start, offset: 0), laps: [lap])])
    }
}
