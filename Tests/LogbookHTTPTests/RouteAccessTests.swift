import Foundation
import HTTPTypes
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Testing

/// Who may call what, walked over every operation `Schemas/openapi.json` documents (not over a
/// list kept by hand, so a new route is walked as soon as it exists): without a token, everything
/// but the open operations is refused; a user's token is refused on every administrators'
/// operation and on every operation on another user's data; nothing is written.
@Suite("Access to every operation of the API document")
struct RouteAccessTests {
    /// `path` with its parameters filled in: the user is `user`, a stream is that user's.
    static func uri(_ path: String, user: String) -> String {
        var uri = path
        for name in OpenAPIDocument.pathParameters(path) {
            let value = switch name {
            case "user": user
            case "stream": "user-\(user)"
            case "date": "2026-11-20"
            case "job": "00000000-0000-4000-8000-000000000000"
            default: "x1"
            }
            uri = uri.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return uri
    }

    @Test("no token: 401 on every operation but the open ones; a user's token: 403 on every administrators' operation, 403 or 404 on another user's")
    func everyOperation() async throws {
        let specification = try OpenAPITests.specification()
        let paths = try #require(specification["paths"] as? [String: [String: Any]])
        // Path, method, the documented access and whether the operation needs no token.
        let operations: [(path: String, method: String, access: String?, open: Bool)] = paths.flatMap { path, methods in
            methods.compactMap { method, value in
                (value as? [String: Any]).map { operation in
                    (path, method.uppercased(), operation["x-logbook-access"] as? String, (operation["security"] as? [Any])?.isEmpty == true)
                }
            }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
        try await withServer { server in
            try await register(server, "ana")
            try await register(server, "bob")
            let head = try await server.head()
            var walked: [String: Int] = [:]
            for (path, method, documentedAccess, documentedOpen) in operations {
                let name = "\(method) \(path)"
                guard let access = documentedAccess, RouteAccess(rawValue: access) != nil else {
                    Issue.record("\(name) does not say who may call it (x-logbook-access)")
                    continue
                }
                walked[access, default: 0] += 1
                #expect(documentedOpen == (access == RouteAccess.open.rawValue), "\(name): security and x-logbook-access disagree")
                let verb = HTTPRequest.Method(rawValue: method)!
                let body: String? = [.post, .put, .patch].contains(verb) ? "{}" : nil
                let uri = Self.uri(path, user: "bob")

                let anonymous = try await server.call(verb, uri, body: body)
                if access == RouteAccess.open.rawValue {
                    #expect(anonymous.status != .unauthorized && anonymous.status != .forbidden, "\(name) is open, yet: \(anonymous.status)")
                } else {
                    #expect(anonymous.status == .unauthorized, "\(name) without a token: \(anonymous.status) \(anonymous.text.prefix(200))")
                }

                let user = try await server.call(verb, uri, as: "ana", body: body)
                switch RouteAccess(rawValue: access)! {
                case .administrator:
                    #expect(user.status == .forbidden, "\(name) with a user's token: \(user.status) \(user.text.prefix(200))")
                case .signedIn:
                    #expect(user.status == .forbidden || user.status == .notFound,
                            "\(name) with another user's token: \(user.status) \(user.text.prefix(200))")
                case .open:
                    break
                }
            }
            #expect(walked.values.reduce(0, +) == operations.count)
            #expect(walked[RouteAccess.administrator.rawValue, default: 0] >= 24, "\(walked)")
            #expect(walked[RouteAccess.signedIn.rawValue, default: 0] >= 50, "\(walked)")
            #expect(try await server.head() == head, "a refused request wrote something")
        }
    }

    @Test("the routes the router holds are the ones walked: every registered route is documented with who may call it")
    func everyRouteHasAnAccess() async throws {
        let (routes, _) = try await OpenAPITests.registered()
        let paths = try #require(try OpenAPITests.specification()["paths"] as? [String: [String: Any]])
        for route in routes {
            let operation = paths["/" + route.path]?[route.method.lowercased()] as? [String: Any]
            #expect(operation?["x-logbook-access"] as? String == route.access.rawValue, "\(route.method) /\(route.path)")
            // Every `admin/…` route is an administrators' route, whatever it is.
            if route.path.hasPrefix("admin/") { #expect(route.access == .administrator, "\(route.method) /\(route.path)") }
        }
    }
}
