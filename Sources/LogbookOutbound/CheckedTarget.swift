/// Where one outbound call goes: the URL's host, and — for a name — the address it resolved to
/// and that the policy permitted, which the call connects to without resolving again.
package struct CheckedTarget: Sendable, Hashable {
    /// The URL's host as the HTTP client reads it.
    package let host: String
    /// The address connected to: the host's own when it is an address, else the one checked.
    package let address: IPAddress
    /// True when the host is a name (the client must be told to connect to ``address``).
    package var pinsName: Bool { IPAddress(literal: host) == nil }

    /// The target of `url` under `policy`, resolving a name with `resolver` once: the first
    /// address the policy permits. Throws ``DeliveryFailure/addressRefused`` when the host is,
    /// or resolves only to, refused addresses, and ``DeliveryFailure/noAnswer(within:)`` (with
    /// `limit`) when a name resolves to nothing.
    package static func check(
        _ url: OutboundURL, policy: AddressPolicy, resolver: some HostResolving, limit: Duration
    ) async throws(DeliveryFailure) -> CheckedTarget {
        if let literal = url.literal {
            guard policy.permits(literal) else { throw .addressRefused }
            return CheckedTarget(host: url.host, address: literal)
        }
        let addresses = await resolver.addresses(of: url.host)
        guard !addresses.isEmpty else { throw .noAnswer(within: limit) }
        guard let permitted = addresses.first(where: { policy.permits($0) }) else { throw .addressRefused }
        return CheckedTarget(host: url.host, address: permitted)
    }
}
