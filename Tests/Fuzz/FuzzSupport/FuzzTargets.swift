import Foundation

/// The fuzz targets one program carries, by name, and the choice of the one a run checks: the
/// environment variable `LOGBOOK_FUZZ_TARGET` names it, once, when the program starts. So every
/// target is built into one program (one build, one link), and a run still fuzzes one target.
public struct FuzzTargets: Sendable {
    /// The environment variable naming the target a run checks; its value `list` asks for the names.
    public static let variable = "LOGBOOK_FUZZ_TARGET"

    /// The targets, in the order ``chosen(by:)`` lists them.
    public let all: [FuzzTarget]

    /// A table of `all`, whose names must differ (the table is the program's own code, not input).
    public init(_ all: [FuzzTarget]) {
        precondition(Set(all.map(\.name)).count == all.count, "two fuzz targets share a name")
        self.all = all
    }

    /// The target called `name`, if the table has one.
    public func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    /// The target `LOGBOOK_FUZZ_TARGET` names, for `program` (its name in messages). `list` writes
    /// every name to standard output, one a line, and exits 0; a missing or unknown name writes what
    /// was wrong and every name to standard error and exits 2.
    public func chosen(by program: String) -> FuzzTarget {
        let name = ProcessInfo.processInfo.environment[Self.variable]
        if name == "list" {
            for target in all { print(target.name) }
            exit(0)
        }
        if let name, let target = named(name) { return target }
        let problem = name.map { "\(Self.variable)=\($0) names no target" } ?? "\(Self.variable) is not set"
        standardError(
            "\(program): \(problem); set it to one of: \(all.map(\.name).joined(separator: " ")) (or list)")
        exit(2)
    }
}
