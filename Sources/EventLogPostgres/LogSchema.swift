import Foundation

/// The log's schema in PostgreSQL, as migrations applied in order when a store connects.
///
/// Each migration's SQL is `Schemas/postgres/<number>_<name>.sql`, embedded verbatim in a file of
/// its own (`LogSchema+<number><Name>.swift`; a test checks that the two are byte-identical), so
/// the library needs no resource files at run time.
enum LogSchema {
    /// A versioned step of the schema.
    struct Migration: Sendable {
        let version: Int
        let name: String
        let sql: String

        /// The migration's statements, split at lines ending in `;` outside dollar-quoted bodies,
        /// without comment lines: the extended query protocol runs one statement at a time.
        var statements: [String] {
            var statements: [String] = []
            var current: [Substring] = []
            var inBody = false
            for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if !inBody && (trimmed.hasPrefix("--") || trimmed.isEmpty) { continue }
                current.append(line)
                if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
                if !inBody && trimmed.hasSuffix(";") {
                    statements.append(current.joined(separator: "\n"))
                    current = []
                }
            }
            return statements
        }
    }

    /// Every migration, oldest first. Add new ones at the end; never edit a released one.
    static let migrations: [Migration] = [
        migration001Log,
        migration002Servers,
        migration003RequestKeys,
        migration004AppendPlanned,
        migration005UserKeys,
    ]

    /// The schema version this build writes and reads.
    static var currentVersion: Int { migrations.last?.version ?? 0 }
}
