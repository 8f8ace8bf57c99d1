import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks host names up for outbound calls. The caller checks every address found against its
/// policy and connects to the one it checked, so the name is resolved once per call: a resolver
/// that answers differently a moment later (DNS rebinding) changes nothing already checked.
package protocol HostResolving: Sendable {
    /// The addresses `host` has now, in the order to try them; empty when it has none or the
    /// lookup failed.
    func addresses(of host: String) async -> [IPAddress]
}

/// The system's resolver (`getaddrinfo`: the hosts file, then DNS), run on a thread of Dispatch's
/// global pool, as SwiftNIO runs it: a lookup that hangs holds that thread, never a task's.
package struct SystemResolver: HostResolving {
    /// The system's resolver.
    package init() {}

    package func addresses(of host: String) async -> [IPAddress] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Self.lookUp(host)) }
        }
    }

    /// `getaddrinfo`'s IPv4 and IPv6 stream addresses of `host`, in its order, each once.
    static func lookUp(_ host: String) -> [IPAddress] {
        guard !host.isEmpty, !host.utf8.contains(0) else { return [] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [IPAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            node = current.pointee.ai_next
            guard let socketAddress = current.pointee.ai_addr else { continue }
            let address: IPAddress?
            switch current.pointee.ai_family {
            case AF_INET where Int(current.pointee.ai_addrlen) >= MemoryLayout<sockaddr_in>.size:
                address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var inner = pointer.pointee.sin_addr
                    return IPAddress(bytes: withUnsafeBytes(of: &inner) { Array($0) })
                }
            case AF_INET6 where Int(current.pointee.ai_addrlen) >= MemoryLayout<sockaddr_in6>.size:
                address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var inner = pointer.pointee.sin6_addr
                    return IPAddress(bytes: withUnsafeBytes(of: &inner) { Array($0) })
                }
            default:
                address = nil
            }
            if let address, !found.contains(address) { found.append(address) }
        }
        return found
    }
}
