import AsyncHTTPClient
import LogbookOutbound
import NIOSSL

/// The HTTP clients webhooks are sent with, each bound to the address that was checked for it.
///
/// AsyncHTTPClient resolves a host name itself when it connects, and offers no resolver to plug
/// in; what it offers is `dnsOverride`, a client's map from a URL's host to the address to
/// connect to instead — TLS still names the host (SNI) and checks the certificate against it. So a
/// name is resolved here (`CheckedTarget`), its address checked, and the request goes through a
/// client whose only override sends that host to that address: the client never looks the name
/// up again, and a resolver that answers otherwise a moment later (DNS rebinding) reaches nothing.
/// A URL whose host is an address goes through a client with no override, which connects to it
/// without a lookup.
///
/// A client per host stays while its host keeps resolving to the same address (its connections
/// are reused); when the address changes, a new client takes over and the old one is shut down
/// once no send uses it. At most ``maxClients`` are kept: beyond that, the least recently used
/// idle ones are shut down.
actor WebhookClients {
    /// One client and the sends using it now.
    private final class Slot {
        let client: HTTPClient
        let address: IPAddress?
        var users = 0
        var lastUsed: UInt64 = 0

        init(client: HTTPClient, address: IPAddress?) {
            self.client = client
            self.address = address
        }
    }

    /// A client lent to one send: given back with ``release(_:)``.
    struct Lease: Sendable {
        let client: HTTPClient
        fileprivate let key: String
        fileprivate let slot: ObjectIdentifier
    }

    /// The most clients kept (one per host a webhook names, and one for hosts written as addresses).
    static let maxClients = 128

    private let tlsConfiguration: TLSConfiguration?
    /// By host ("" for the client of hosts written as addresses).
    private var slots: [String: Slot] = [:]
    /// Clients replaced or evicted while sends still use them.
    private var retired: [ObjectIdentifier: Slot] = [:]
    /// Shutdowns under way, each removing itself when done.
    private var shutdowns: [UInt64: Task<Void, Never>] = [:]
    private var uses: UInt64 = 0
    private var closed = false

    /// Clients verifying TLS with `tlsConfiguration` (nil: the system's trust roots, full verification).
    init(tlsConfiguration: TLSConfiguration? = nil) {
        self.tlsConfiguration = tlsConfiguration
    }

    /// A client that connects to `target`'s address; nil once ``shutdown()`` has begun.
    func lease(_ target: CheckedTarget) -> Lease? {
        guard !closed else { return nil }
        let key = target.pinsName ? target.host : ""
        let address = target.pinsName ? target.address : nil
        if let slot = slots[key], slot.address != address {
            retire(key)
        }
        let slot = slots[key] ?? make(key: key, address: address)
        uses += 1
        slot.users += 1
        slot.lastUsed = uses
        if slots.count > Self.maxClients { evictIdle() }
        return Lease(client: slot.client, key: key, slot: ObjectIdentifier(slot))
    }

    /// Gives `lease` back; a client retired meanwhile is shut down once its last send is over.
    func release(_ lease: Lease) {
        if let slot = slots[lease.key], ObjectIdentifier(slot) == lease.slot {
            slot.users -= 1
        } else if let slot = retired[lease.slot] {
            slot.users -= 1
            if slot.users <= 0 {
                retired[lease.slot] = nil
                close(slot.client)
            }
        }
    }

    /// Shuts every client down (sends still running on them fail) and waits until they are.
    func shutdown() async {
        closed = true
        for slot in slots.values { close(slot.client) }
        for slot in retired.values { close(slot.client) }
        slots = [:]
        retired = [:]
        while let (_, task) = shutdowns.first { await task.value }
    }

    private func make(key: String, address: IPAddress?) -> Slot {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.idleTimeout = .seconds(30)
        configuration.tlsConfiguration = tlsConfiguration
        if let address { configuration.dnsOverride = [key: address.description] }
        let slot = Slot(client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration), address: address)
        slots[key] = slot
        return slot
    }

    /// Takes `key`'s client out of use: shut down now if idle, else when its last send is over.
    private func retire(_ key: String) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        if slot.users <= 0 {
            close(slot.client)
        } else {
            retired[ObjectIdentifier(slot)] = slot
        }
    }

    private func evictIdle() {
        let idle = slots.filter { $0.value.users <= 0 }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (key, _) in idle.prefix(slots.count - Self.maxClients) { retire(key) }
    }

    /// Starts `client`'s shutdown; ``shutdown()`` waits for it.
    private func close(_ client: HTTPClient) {
        uses += 1
        let id = uses
        shutdowns[id] = Task {
            try? await client.shutdown()
            self.finishedShutdown(id)
        }
    }

    private func finishedShutdown(_ id: UInt64) { shutdowns[id] = nil }
}
