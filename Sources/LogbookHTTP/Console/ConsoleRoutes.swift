import Foundation
import HTTPTypes
import Hummingbird

/// The operators' console in the browser: `GET /console/` and its files, compiled into the
/// binary (HTML, CSS and JavaScript modules; nothing fetched from elsewhere). They are open, like
/// `/health`: the page asks for an administrator's token and sends it with every API request it
/// makes, so the files themselves reveal nothing. Every answer carries a strict
/// Content-Security-Policy (no inline script or style, no other origin) and is not cached
/// across versions (an ETag of the build's bytes revalidates).
///
/// They are not part of the API document: they answer HTML, CSS and JavaScript, not the API's JSON.
struct ConsoleRoutes<Context: LogbookRouteContext> {
    /// What every console answer carries.
    static var securityHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[.cacheControl] = "no-cache"
        return headers
    }

    func register(on group: RouterGroup<Context>) {
        // `/console` and `/console/` reach the same route; the page's relative links need the slash.
        group.get("console") { request, _ in
            guard request.uri.path.hasSuffix("/") else {
                // Relative, so it stays on this server whatever the path held (`//console` would
                // make an absolute `//console/` another host).
                var headers = Self.securityHeaders
                headers[.location] = "console/"
                return Response(status: .movedPermanently, headers: headers)
            }
            return Self.answer(ConsoleAssets.file(named: "index.html"), request: request)
        }
        group.get("console/{file}") { request, context in
            let name = context.parameters.get("file") ?? ""
            guard let file = ConsoleAssets.file(named: name) else {
                throw Problem.notFound("the console has no file \"\(name.prefix(64))\"")
            }
            return Self.answer(file, request: request)
        }
    }

    private static func answer(_ file: ConsoleAssets.File?, request: Request) -> Response {
        guard let file else { return Response(status: .notFound) }
        var headers = securityHeaders
        headers[.contentType] = file.contentType
        headers[.eTag] = file.etag
        if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
