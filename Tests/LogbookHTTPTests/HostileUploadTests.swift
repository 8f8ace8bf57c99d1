import Foundation
import HTTPTypes
import HummingbirdTesting
import LogbookHTTP
import LogbookTestSupport
import NIOCore
import Testing
import WorkoutFileFixtures

/// Uploads an attacker would send: each answers a problem, the server goes on (`/health`), and
/// nothing is written. The 72-byte zip used to kill the process for every user.
@Suite("HTTP hostile uploads")
struct HostileUploadTests {
    /// An Apple Health export whose one deflated entry says 16 compressed bytes inflate to 1 GiB.
    static var declaredBomb: [UInt8] {
        let name = Array("apple_health_export/export.xml".utf8)
        let data = [UInt8](repeating: 0, count: 16)
        var out = LEBytes()
        out.u32(0x0403_4B50); out.u16(20); out.u16(0); out.u16(8); out.u16(0); out.u16(0)
        out.u32(0); out.u32(UInt32(data.count)); out.u32(1 << 30); out.u16(UInt16(name.count)); out.u16(0)
        out.append(name + data)
        let directory = out.bytes.count
        out.u32(0x0201_4B50); out.u16(20); out.u16(20); out.u16(0); out.u16(8); out.u16(0); out.u16(0)
        out.u32(0); out.u32(UInt32(data.count)); out.u32(1 << 30); out.u16(UInt16(name.count)); out.u16(0); out.u16(0)
        out.u16(0); out.u16(0); out.u32(0); out.u32(0)
        out.append(name)
        let size = out.bytes.count - directory
        out.u32(0x0605_4B50); out.u16(0); out.u16(0); out.u16(1); out.u16(1); out.u32(UInt32(size)); out.u32(UInt32(directory)); out.u16(0)
        return out.bytes
    }

    static let gpx = Array("""
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>running</type><trkseg>
        <trkpt lat="48.1" lon="11.5"><time>2026-11-20T07:00:00Z</time></trkpt>
        <trkpt lat="48.2" lon="11.6"><time>2026-11-20T07:30:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """.utf8)

    func upload(_ server: TestServer, _ bytes: [UInt8], type: String) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(try await server.token("ana"))"
        headers[.contentType] = type
        let response = try await server.client.execute(uri: "/users/ana/imports", method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
        return server.checked(response, .post, "/users/ana/imports")
    }

    @Test("hostile files answer a problem naming what is wrong; the server goes on and nothing is written")
    func hostileFiles() async throws {
        try await withServer { server in
            try await register(server, "ana")
            let head = try await server.head()
            let cases: [([UInt8], String, HTTPResponse.Status, String)] = [
                (HostileZip.seventyTwoBytes(), "application/zip", .unprocessableContent, "malformedZip"),
                (Self.declaredBomb, "application/zip", .contentTooLarge, "maxCompressionRatio"),
            ]
            for (bytes, type, status, words) in cases {
                let response = try await upload(server, bytes, type: type)
                #expect(response.status == status, "\(words): \(response.text)")
                #expect(response.text.contains(words), "\(response.text)")
                #expect(try await server.call(.get, "/health").status == .ok)
                #expect(try await server.head() == head)
            }
        }
    }

    @Test("an import that reads longer than the server allows is abandoned with 422 and writes nothing")
    func readTimeLimit() async throws {
        try await withServer({ $0.fileImports.readTimeLimit = .zero }) { server in
            try await register(server, "ana")
            let head = try await server.head()
            let response = try await upload(server, Self.gpx, type: "application/gpx+xml")
            #expect(response.status == .unprocessableContent, "\(response.text)")
            #expect(response.text.contains("timeLimitExceeded"), "\(response.text)")
            #expect(try await server.head() == head)
        }
        // The same file within the limit imports.
        try await withServer { server in
            try await register(server, "ana")
            #expect(try await upload(server, Self.gpx, type: "application/gpx+xml").status == .created)
        }
    }
}
