import Foundation

/// Who a server is to the others sharing its log: a name for people (host and port by default),
/// the URL it answers at, an id unique to this run, and when it started. Webhooks' lease holder
/// and the console's list of servers name servers by it.
public struct ServerIdentity: Sendable, Hashable {
    /// `<name>/<8 random hex digits>`: a restart is a new server.
    public let id: String
    public let name: String
    public let url: String
    /// Microseconds since 1970.
    public let startedAt: Int64

    /// Names longer than 200 bytes are cut (at a character), so the id stays within the 256
    /// bytes a lease holder may take.
    public init(name: String, url: String = "", startedAt: Int64) {
        var short = ""
        for character in name.precomposedStringWithCanonicalMapping {
            guard short.utf8.count + character.utf8.count <= 200 else { break }
            short.append(character)
        }
        let name = short.isEmpty ? "server" : short
        self.name = name
        self.url = url
        self.startedAt = startedAt
        self.id = name + "/" + String(format: "%08x", UInt32.random(in: .min ... .max))
    }

    /// This host's name and process id.
    public static func local(url: String = "", startedAt: Int64) -> ServerIdentity {
        ServerIdentity(name: "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)", url: url, startedAt: startedAt)
    }
}
