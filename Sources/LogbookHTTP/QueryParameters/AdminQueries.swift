import Foundation
import Hummingbird
import Logbook

/// `wait`: whether an administrator's job is awaited (default) or answered 202 at once.
struct JobQuery: RouteQuery {
    static let wait = QueryParameter<Bool>(
        "wait", .enumeration("true or false", ["true", "false"]), "false: answer 202 with the job at once instead of waiting for its end",
        expected: "true or false", read: { $0 == "true" ? true : $0 == "false" ? false : nil })
    static var parameters: [DocumentedQueryParameter] { [wait.documented] }
    /// The client asked not to wait (`wait=false`).
    let detached: Bool
    init(_ request: Request) throws { detached = try Self.wait.value(in: request) == false }
}

/// A rebuild: which projections (default all), and whether to wait.
struct RebuildQuery: RouteQuery {
    static let projections = QueryParameter<Set<ReadModelKind>>(
        "projections", .commaSeparated("Comma-separated projection names", of: ReadModelKind.allCases.map(\.rawValue)),
        "Projections to rebuild (default: all)",
        expected: "comma-separated projection names (known: \(ReadModelKind.allCases.map(\.rawValue).joined(separator: ", ")))",
        read: { text in
            var kinds: Set<ReadModelKind> = []
            for name in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let kind = ReadModelKind(rawValue: String(name)) else {
                    let known = ReadModelKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw Problem.badRequest("unknown projection \"\(name.prefix(40))\" (known: \(known))", field: "projections")
                }
                kinds.insert(kind)
            }
            return kinds
        })
    /// How a rebuild runs.
    enum Mode: String, CaseIterable, Sendable {
        /// The projections leave live folding and are rebuilt in place (`/ready` answers 503 meanwhile).
        case blocking
        /// The new versions are built beside the live ones, which answer until they switch in.
        case background
    }

    static let mode = QueryParameter<Mode>.choice(
        "mode", Mode.self, "How the rebuild runs",
        "blocking (default): rebuilt in place; background: built beside the live read models, which keep answering, and switched in once caught up")
    static var parameters: [DocumentedQueryParameter] { [projections.documented, mode.documented, JobQuery.wait.documented] }
    let kinds: Set<ReadModelKind>
    let mode: Mode
    let detached: Bool
    init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        kinds = try Self.projections.value(in: parameters) ?? Set(ReadModelKind.allCases)
        mode = try Self.mode.value(in: parameters) ?? .blocking
        detached = try JobQuery(request).detached
    }
}

/// A backup: the directory's name under the server's backup directory, and whether to wait.
struct BackupQuery: RouteQuery {
    static let name = QueryParameter<String>(
        "name", .string("1 to 100 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit", pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"),
        "The backup's directory under the server's backup directory (default backup-<UTC time>, e.g. backup-20261123T110704Z)",
        expected: "1 to 100 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit",
        read: { name in
            guard name.utf8.count <= 100, let first = name.first, first.isLetter || first.isNumber,
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return nil }
            return name
        })
    static var parameters: [DocumentedQueryParameter] { [name.documented, JobQuery.wait.documented] }
    let name: String?
    let detached: Bool
    init(_ request: Request) throws {
        name = try Self.name.value(in: request)
        detached = try JobQuery(request).detached
    }
}
