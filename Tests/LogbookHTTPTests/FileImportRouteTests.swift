import Foundation
import HTTPTypes
import HummingbirdTesting
import Logbook
import LogbookTestSupport
import NIOCore
import Testing
import WorkoutFileFixtures

/// `POST /users/{user}/imports` with a generated workout file as the body, and the activity's
/// detail, route and charts over HTTP.
@Suite("HTTP file imports")
struct FileImportRouteTests {
    func upload(_ server: TestServer, _ bytes: [UInt8], contentType: String, to user: String = "ana") async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(try await server.token("ana", admin: false))"
        headers[.contentType] = contentType
        let uri = "/users/\(user)/imports"
        return server.checked(try await server.client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: bytes)), .post, uri)
    }

    @Test("a FIT file: imported once (201), then already there (200); detail, route.geojson and chart.svg follow")
    func fitFile() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let spec = SampleFIT.run
            let bytes = spec.encoded().bytes
            let meters = spec.records.last!.distanceMeters! - spec.records[0].distanceMeters!
            let first = try await upload(server, bytes, contentType: "application/vnd.ant.fit")
            #expect(first.status == .created, "\(first.text)")
            let workouts = first.json["workouts"] as? [[String: Any]] ?? []
            #expect(workouts.count == 1 && workouts.first?["outcome"] as? String == "imported")
            #expect(workouts.first?["distanceMeters"] as? Int == Int(spec.sessions[0].distanceMeters!.rounded()))
            #expect(first.headers[HTTPField.Name("X-Logbook-Position")!] != nil)
            let id = try #require(workouts.first?["workoutId"] as? String)
            let head = try await server.head()
            let again = try await upload(server, bytes, contentType: "application/octet-stream")
            #expect(again.status == .ok)
            #expect((again.json["workouts"] as? [[String: Any]])?.first?["outcome"] as? String == "already-imported")
            #expect(try await server.head() == head)

            let detail = try await server.call(.get, "/users/ana/activities/\(id)", as: "ana")
            #expect(detail.status == .ok)
            #expect(detail.json["splitUnit"] as? String == "km")
            #expect((detail.json["splits"] as? [[String: Any]])?.count == Int((meters / 1000).rounded(.up)))
            #expect((detail.json["laps"] as? [[String: Any]])?.isEmpty == false)
            #expect(detail.json["hasRoute"] as? Bool == true)
            // 21:00 on the 15th at the file's −05:00; in ana's Berlin it would be the 16th.
            let date = FixtureTime.date(SampleFIT.runStart, offset: SampleFIT.runOffset)
            #expect(date != FixtureTime.date(SampleFIT.runStart, offset: 7200))
            #expect(detail.json["date"] as? String == date, "the local start date, in the file's own offset")
            let list = try await server.call(.get, "/users/ana/activities", as: "ana")
            #expect((list.json["activities"] as? [[String: Any]])?.first?["date"] as? String == date)
            let route = try await server.call(.get, "/users/ana/activities/\(id)/route.geojson", as: "ana")
            #expect(route.status == .ok && route.headers[.contentType] == "application/geo+json")
            #expect((route.json["geometry"] as? [String: Any])?["type"] as? String == "LineString")
            for metric in ["pace", "speed", "heartRate", "elevation", "cadence", "power"] {
                for axis in ["distance", "time"] {
                    let chart = try await server.call(.get, "/users/ana/activities/\(id)/chart.svg?metric=\(metric)&x=\(axis)", as: "ana")
                    #expect(chart.status == .ok && chart.headers[.contentType] == "image/svg+xml")
                    #expect(chart.text.hasPrefix("<svg"))
                }
            }
            let ranges = try #require(detail.json["ranges"] as? [String: Any])
            let heartRate = try #require(ranges["heartRate"] as? [String: Double])
            #expect(heartRate["minimum"]! <= heartRate["average"]! && heartRate["average"]! <= heartRate["maximum"]!)
            #expect(Int(heartRate["maximum"]!) == detail.json["maxHeartRate"] as? Int)
            let byTime = try await server.call(.get, "/users/ana/activities/\(id)/chart.svg?metric=heartRate&x=time", as: "ana")
            #expect(byTime.text.contains("Heart rate (bpm) over ") && !byTime.text.contains(" km</text>"), "\(byTime.text.prefix(400))")
            let pace = try await server.call(.get, "/users/ana/activities/\(id)/chart.svg", as: "ana")
            let hundredths = Int((meters / 1000 * 100).rounded())
            let kilometres = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
            #expect(pace.text.contains("<polyline") && pace.text.contains("Pace (min/km) over \(kilometres) km"), "\(pace.text.prefix(400))")
            let bad = try await server.call(.get, "/users/ana/activities/\(id)/chart.svg?metric=colour", as: "ana")
            #expect(bad.status == .badRequest)
        }
    }

    @Test("a damaged file is 422 naming the byte offset, and writes nothing; someone else's user is 403")
    func damagedAndForbidden() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let head = try await server.head()
            let small = SampleFIT.small.encoded()
            let eof = try #require(FITDamage.all(small, chainedWith: small, stem: "activity").first { $0.name == "activity-unexpected-eof.fit" })
            let damaged = try await upload(server, eof.bytes, contentType: "application/vnd.ant.fit")
            #expect(damaged.status == .unprocessableContent)
            #expect(damaged.text.contains("byte \(eof.offset)"), "\(damaged.text)")
            #expect(try await server.head() == head)
            let tcx = try await upload(server, SampleText.tcxRun.bytes, contentType: "application/vnd.garmin.tcx+xml", to: "bob")
            #expect(tcx.status == .forbidden, "\(tcx.status) \(tcx.text)")
            #expect(try await server.head() == head)
        }
    }
}
