import EventLog
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logbook
@testable import LogbookHTTP
import LogbookTestSupport
import Testing

/// Ids are compared as bytes (the HostileInput article): two ids Unicode calls equal are never one
/// user, a refusal names no one, and another user's stream looks exactly like one that does not
/// exist.
@Suite("HTTP identity: ids as bytes, refusals that reveal nothing")
struct IdentityIsolationTests {
    static let composed = "jos\u{e9}"  // NFC
    static let decomposed = "jose\u{301}"  // NFD: canonically equivalent, other bytes

    @Test("a token for the NFD spelling of a registered NFC user reads nothing of theirs (it was 200 with their profile)")
    func equivalentSpellingsAreNotOneUser() async throws {
        try await withServer { server in
            try await register(server, Self.composed)
            let encodedNFC = "jos%C3%A9", encodedNFD = "jose%CC%81"
            let own = try await server.call(.get, "/users/\(encodedNFC)/profile", as: Self.composed)
            #expect(own.status == .ok)
            for path in ["/users/\(encodedNFC)/profile", "/users/\(encodedNFC)/timeline", "/users/\(encodedNFC)/events",
                         "/users/\(encodedNFD)/profile"] {
                let response = try await server.call(.get, path, as: Self.decomposed)
                #expect(response.status == .unauthorized, "\(path): \(response.status) \(response.text)")
                #expect(!response.text.contains("displayName"), "\(path)")
            }
            // Registering the other spelling is refused as an id, and writes nothing.
            let head = try await server.head()
            let refused = try await server.call(.post, "/users/\(encodedNFD)", as: "op", admin: true,
                                                body: #"{"displayName":"Other","timeZone":"UTC","weekStart":"monday","units":"metric"}"#)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.text.contains("Normalization Form C"), "\(refused.text)")
            #expect(try await server.head() == head)
        }
    }

    @Test("a 403 names neither the caller nor the user asked for")
    func forbiddenNamesNoOne() async throws {
        try await withServer { server in
            try await register(server, "ana-caller")
            try await register(server, "bob-owner")
            let response = try await server.call(.get, "/users/bob-owner/profile", as: "ana-caller")
            #expect(response.status == .forbidden)
            let detail = response.json["detail"] as? String ?? ""
            #expect(!detail.contains("ana-caller") && !detail.contains("bob-owner"), "\(detail)")
        }
    }

    @Test("to a user, another user's stream is answered exactly as a stream that does not exist, on every page")
    func othersStreamsLookMissing() async throws {
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            for (stream, query) in [("user-bob", ""), ("user-bob", "?from=99"), ("user-bob", "?direction=backward")] {
                let other = try await server.call(.get, "/streams/\(stream)\(query)", as: "ana")
                let missing = try await server.call(.get, "/streams/user-nobody\(query)", as: "ana")
                #expect(other.status == .notFound && missing.status == .notFound, "\(stream)\(query): \(other.status)")
                #expect(other.text.replacingOccurrences(of: "user-bob", with: "X") == missing.text.replacingOccurrences(of: "user-nobody", with: "X"))
            }
            #expect(try await server.call(.get, "/streams/user-ana", as: "ana").status == .ok)
            #expect(try await server.call(.get, "/streams/user-bob", as: "op", admin: true).status == .ok)
        }
    }

    @Test("with an audience and an issuer configured, tokens must carry both")
    func audienceAndIssuer() async throws {
        try await withServer({ $0.jwtAudience = "logbook-test"; $0.jwtIssuer = "https://issuer.example" }) { server in
            let register = try await server.keys.token(user: "op", admin: true, audience: "logbook-test", issuer: "https://issuer.example")
            func status(_ token: String) async throws -> HTTPResponse.Status {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                return try await server.client.execute(uri: "/admin/projections", method: .get, headers: headers, body: nil).status
            }
            #expect(try await status(register) == .ok)
            #expect(try await status(server.keys.token(user: "op", admin: true)) == .unauthorized)
            #expect(try await status(server.keys.token(user: "op", admin: true, audience: "elsewhere", issuer: "https://issuer.example")) == .unauthorized)
            #expect(try await status(server.keys.token(user: "op", admin: true, audience: "logbook-test", issuer: "https://other.example")) == .unauthorized)
        }
    }

    @Test("a Server-Sent Events stream ends when its token expires", .timeLimit(.minutes(5)))
    func eventStreamEndsAtExpiry() async throws {
        try await withServer({ $0.sseKeepAlive = .seconds(30) }) { server in
            try await register(server, "ana")
            // Without the expiry the stream would stay open (the keep-alive is 30 s): the call returning is the check;
            // the time limit only stops a stream that never ends, so it leaves room for a loaded machine (a full run
            // took 160 s here with the suite running beside it).
            // Under a loaded machine a short-lived token can expire before the request is read (401, the right
            // answer for it), so the lifetime doubles until the stream opens; it must then end with the expiry.
            var opened: TestResponse?
            for lifetime in [2.0, 4, 8, 16] as [TimeInterval] {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(try await server.keys.token(user: "ana", lifetime: lifetime))"
                let response = try await server.client.execute(uri: "/users/ana/events/subscribe", method: .get, headers: headers, body: nil)
                if response.status == .unauthorized, String(buffer: response.body).contains("the token has expired") { continue }
                opened = response
                break
            }
            let response = try #require(opened, "every token expired before its request was read")
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).contains(": the token has expired"))
        }
    }

    @Test("secrets are judged by what they carry: 32 random bytes pass however written, shorter or repeated ones do not")
    func secretStrength() {
        let random = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 19) }
        #expect(TokenSecret.weakness(random.map { String(format: "%02x", $0) }.joined()) == nil)
        #expect(TokenSecret.weakness(Data(random).base64EncodedString()) == nil)
        #expect(TokenSecret.weakness(testSecret) == nil)
        #expect(TokenSecret.weakness(random.prefix(16).map { String(format: "%02x", $0) }.joined()) != nil)  // 32 hex digits: 128 bits
        #expect(TokenSecret.weakness(String(repeating: "a", count: 200)) != nil)
        #expect(TokenSecret.weakness("short") != nil)
    }

    @Test("imports beyond the server's or the user's slots are refused at once, naming the limit")
    func importSlots() async throws {
        var limits = FileImportLimits()
        limits.maxConcurrent = 2
        limits.maxConcurrentPerUser = 1
        let slots = ImportSlots(limits: limits)
        let (hold, release) = AsyncStream<Void>.makeStream()
        let (started, didStart) = AsyncStream<Void>.makeStream()
        let holders = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in ["ana", "bob"] {
                    group.addTask {
                        try await slots.withSlot(for: user) {
                            didStart.yield()
                            for await _ in hold {}
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        await #expect { try await slots.withSlot(for: "ana") {} } throws: { error in
            (error as? Problem)?.status == .tooManyRequests && (error as? Problem)?.detail.contains("1") == true
        }
        await #expect { try await slots.withSlot(for: "carl") {} } throws: { error in (error as? Problem)?.status == .serviceUnavailable }
        // A user's NFD spelling is another user's slot, as it is another user.
        await #expect { try await slots.withSlot(for: "jose\u{301}") {} } throws: { error in (error as? Problem)?.status == .serviceUnavailable }
        release.finish()
        try await holders.value
        try await slots.withSlot(for: "ana") {}
    }
}
