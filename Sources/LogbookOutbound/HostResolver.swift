import Dispatch
import Synchronization
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
/// global pool, as SwiftNIO runs it: a lookup that hangs holds that thread, never a task's. A
/// cancelled lookup answers no addresses at once (the thread finishes the lookup on its own), so
/// a caller's time limit covers a name server that never answers.
package struct SystemResolver: HostResolving {
    /// The system's resolver.
    package init() {}

    package func addresses(of host: String) async -> [IPAddress] {
        let answer = LookupAnswer()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard answer.wait(continuation) else { return }
                DispatchQueue.global().async { answer.give(Self.lookUp(host)) }
            }
        } onCancel: {
            answer.give([])
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

/// The one answer of a lookup: the addresses found, or none when its task was cancelled first;
/// whichever comes first resumes the caller, once.
private final class LookupAnswer: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<[IPAddress], Never>)
        case given
    }

    private let state = Mutex(State.idle)

    /// Holds `continuation` until the answer; false (and resumed with none) if it came already.
    func wait(_ continuation: CheckedContinuation<[IPAddress], Never>) -> Bool {
        let waiting = state.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .waiting(continuation)
            return true
        }
        if !waiting { continuation.resume(returning: []) }
        return waiting
    }

    /// Resumes the caller with `addresses`, unless it was answered already.
    func give(_ addresses: [IPAddress]) {
        let continuation = state.withLock { state -> CheckedContinuation<[IPAddress], Never>? in
            defer { state = .given }
            guard case .waiting(let continuation) = state else { return nil }
            return continuation
        }
        continuation?.resume(returning: addresses)
    }
}
