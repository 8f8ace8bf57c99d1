import ChildProcesses
import Foundation
import LogbookTestSupport
import Testing

/// What an app's build of `LogbookClient` compiles: the package manifests' own answer (`swift package
/// dump-package`, of this package and of each dependency's checkout), walked from the client's target.
@Suite("LogbookClient's dependencies")
struct ClientDependencyTests {
    /// Packages an app's build must not compile through the client: the server's network stack, its
    /// HTTP framework and HTTP client, the database drivers.
    static let serverPackages: Set<String> = ["swift-nio", "swift-nio-ssl", "swift-nio-http2", "swift-nio-extras", "hummingbird",
                                               "async-http-client", "postgres-nio", "jwt-kit", "swift-service-lifecycle"]

    @Test("the client's targets reach no server module of this package and no package of the server's stack")
    func clientReachesNoServerModule() throws {
        let root = TestPostgres.repositoryRoot
        var manifests = ManifestReader()
        let reached = try manifests.targets(reachedFrom: "LogbookClient", in: root)
        let own = reached.filter { $0.package == nil }.map(\.name)
        #expect(own == ["LogbookClient"], "the client reaches the package's own targets \(own)")
        let packages = Set(reached.compactMap(\.package))
        #expect(packages.isDisjoint(with: Self.serverPackages), "the client reaches \(packages.intersection(Self.serverPackages).sorted())")
        // The walk went through the packages it should: its runtime and transport.
        #expect(packages.isSuperset(of: ["swift-openapi-runtime", "swift-openapi-urlsession", "swift-http-types"]), "\(packages.sorted())")
    }
}

/// One target found by the walk: its name, and its package's checkout folder (nil: this package).
private struct ReachedTarget: Hashable, Comparable {
    let package: String?
    let name: String

    static func < (a: Self, b: Self) -> Bool { (a.package ?? "", a.name) < (b.package ?? "", b.name) }
}

/// Reads manifests with `swift package dump-package` (each once) and walks target dependencies.
private struct ManifestReader {
    private var manifests: [String: [String: Any]] = [:]

    /// Every target `target` of the package at `root` depends on, directly or not, itself included.
    mutating func targets(reachedFrom target: String, in root: URL) throws -> [ReachedTarget] {
        var reached: Set<ReachedTarget> = []
        var pending = [ReachedTarget(package: nil, name: target)]
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            let directory = next.package.map { root.appendingPathComponent(".build/checkouts/\($0)") } ?? root
            let manifest = try self.manifest(at: directory)
            let targets = manifest["targets"] as? [[String: Any]] ?? []
            guard let declared = targets.first(where: { $0["name"] as? String == next.name }) else {
                throw Failure(description: "\(directory.path) has no target \(next.name)")
            }
            for dependency in declared["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = (dependency["byName"] ?? dependency["target"]) as? [Any], let name = byName.first as? String {
                    // A name alone is a target of the same package, or a product of the same name in a dependency.
                    if targets.contains(where: { $0["name"] as? String == name }) {
                        pending.append(ReachedTarget(package: next.package, name: name))
                    } else {
                        pending += try productTargets(name, of: nil, from: manifest, root: root)
                    }
                } else if let product = dependency["product"] as? [Any], let name = product.first as? String {
                    pending += try productTargets(name, of: product.dropFirst().first as? String, from: manifest, root: root)
                }
            }
        }
        return reached.sorted()
    }

    /// The targets of product `name` of package `package` (by identity; nil: any dependency of `manifest` that has it).
    private mutating func productTargets(_ name: String, of package: String?, from manifest: [String: Any], root: URL) throws -> [ReachedTarget] {
        let dependencies = (manifest["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
            let source = (dependency["sourceControl"] as? [[String: Any]])?.first
            let location = ((source?["location"] as? [String: Any])?["remote"] as? [[String: Any]])?.first?["urlString"] as? String
            return location.map { URL(string: $0)?.deletingPathExtension().lastPathComponent ?? $0 }
        }
        for folder in dependencies where package == nil || folder.lowercased() == package?.lowercased() {
            let manifest = try self.manifest(at: root.appendingPathComponent(".build/checkouts/\(folder)"))
            let products = manifest["products"] as? [[String: Any]] ?? []
            if let product = products.first(where: { $0["name"] as? String == name }) {
                return (product["targets"] as? [String] ?? []).map { ReachedTarget(package: folder, name: $0) }
            }
        }
        throw Failure(description: "no dependency has a product \(name) (package \(package ?? "any"))")
    }

    private mutating func manifest(at directory: URL) throws -> [String: Any] {
        if let known = manifests[directory.path] { return known }
        // Its own scratch folder: `swift test` holds the package's own build folder while it runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = try ChildProcess(try Self.swift(), ["package", "--package-path", directory.path, "--scratch-path", scratch.path, "dump-package"])
        let output = process.readToEnd()
        guard process.wait().status == 0, let manifest = try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any] else {
            throw Failure(description: "swift package dump-package failed in \(directory.path)")
        }
        manifests[directory.path] = manifest
        return manifest
    }

    /// The `swift` driver on the PATH.
    private static func swift() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/swift") {
            return "\(directory)/swift"
        }
        throw Failure(description: "no swift on the PATH")
    }

    struct Failure: Error, CustomStringConvertible { let description: String }
}
