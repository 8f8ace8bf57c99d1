import HTTPTypes
import Hummingbird
import NIOCore

/// Names of this machine: what a server without authentication listens on and answers to.
public enum Loopback {
    /// True for `localhost`, `127.x.x.x` and `::1` (bracketed or not), in any case: the names and
    /// addresses only this machine reaches.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil && !$0.hasPrefix("+") }
    }

    /// The host of an authority (`host[:port]`, `[v6]:port`), nil if it is malformed.
    static func host(ofAuthority authority: Substring) -> Substring? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return authority[...close]
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.count == 1 || parts[1].allSatisfy(\.isNumber) else { return nil }
        return parts[0]
    }
}

/// Serving without authentication (``HTTPConfiguration/allowUnauthenticated``, development only)
/// makes every caller an administrator, so only this machine's own clients are served, whatever
/// address the server listens on: a request from a peer that is not a loopback address (when the
/// context keeps it, as ``LogbookRequestContext`` does), whose `Host` is not a loopback name (a DNS-rebinding
/// page names its own), whose `Origin` is not the server's own origin (a page of another site), or
/// whose `Sec-Fetch-Site` says another site or origin sent it, is refused with 403 before any route
/// runs. A browser's own navigation (`Sec-Fetch-Site: none`) and same-origin requests (the
/// console) pass; so do tools that send no `Origin`, such as curl.
struct DevelopmentModeGuard<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = Self.refusal(peer: (context as? any RemoteAddressRequestContext)?.remoteAddress) ?? Self.refusal(request) {
            throw Problem(.forbidden, type: "/problems/foreign-request", title: "Not from this machine",
                          detail: refusal + "; this server runs without authentication and serves only this machine's own clients")
        }
        return try await next(request, context)
    }

    /// Why a request from `peer` is not from this machine, nil when it is (or the context does not
    /// say: a connection without an address, or a context that does not keep it).
    static func refusal(peer: SocketAddress?) -> String? {
        guard let peer, let ip = peer.ipAddress else { return nil }
        let lowered = ip.lowercased()
        let embedded = lowered.hasPrefix("::ffff:") ? String(lowered.dropFirst(7)) : lowered
        return Loopback.isLoopback(embedded) ? nil : "the request comes from \(ip.prefix(64)), not from this machine"
    }

    static func refusal(_ request: Request) -> String? {
        // The authority (HTTP/1.1's Host, HTTP/2's :authority) and any Host field: every one must name this machine.
        let authorities = [request.head.authority].compactMap { $0 } + request.headers[values: HTTPField.Name("Host")!]
        guard let authority = authorities.first else { return "the request names no Host" }
        for named in authorities {
            guard let host = Loopback.host(ofAuthority: Substring(named)), Loopback.isLoopback(String(host)) else {
                return "the Host \"\(named.prefix(100))\" is not a loopback name (localhost, 127.0.0.1, [::1])"
            }
        }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
            return "the browser says another site or origin sent it (Sec-Fetch-Site: \(site.prefix(40)))"
        }
        for origin in request.headers[values: HTTPField.Name("Origin")!] {
            let own = ["http://" + authority, "https://" + authority]
            guard own.contains(where: { $0.lowercased() == origin.lowercased() }) else {
                return "the Origin \"\(origin.prefix(100))\" is not this server's own (\(own[0]))"
            }
        }
        return nil
    }
}
