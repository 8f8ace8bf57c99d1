import EventLog
import Foundation
import Hummingbird
package import Logbook

/// Operators' routes (administrator role): projection checkpoints and lag, rebuilds with
/// streamed progress, verification against a scratch rebuild, cache and storage status.
struct AdminRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook

    let catalog: RouteCatalog

    func register(on group: RouterGroup<Context>) {
        group.route(.get, "admin/projections", "Every projection's checkpoint, code version and lag", statuses: Statuses.admin, catalog: catalog) { _, context in
            try context.requireAdmin()
            return try JSONOutput.response(try logbook.projectionStatus())
        }
        group.route(.post, "admin/rebuild", "Rebuild projections, streaming NDJSON progress", query: ["projections"],
                    statuses: Statuses.admin, catalog: catalog) { try await rebuild($0, $1) }
        group.route(.post, "admin/verify", "Rebuild into a scratch store and compare digests with the live read models",
                    statuses: Statuses.admin, catalog: catalog) { _, context in
            try context.requireAdmin()
            let results = try await logbook.verify()
            return try JSONOutput.response(VerifyReport(allMatch: results.allSatisfy(\.matches), projections: results))
        }
        group.route(.get, "admin/caches", "Entries, bytes, hits and misses of every query cache", statuses: Statuses.admin, catalog: catalog) { _, context in
            try context.requireAdmin()
            return try JSONOutput.response(logbook.cacheStatus())
        }
        group.route(.get, "admin/storage", "Sizes of the log and its databases, map use, readers", statuses: Statuses.admin, catalog: catalog) { _, context in
            try context.requireAdmin()
            return try JSONOutput.response(try await logbook.log.storageInfo())
        }
    }

    /// Rebuilds the projections named in `?projections=` (default: all), streaming progress as
    /// NDJSON lines and ending with the new digests. Progress lines are sampled: a slow client
    /// sees fewer of them, never slows the rebuild.
    private func rebuild(_ request: Request, _ context: Context) async throws -> Response {
        try context.requireAdmin()
        var kinds = Set(ProjectionKind.allCases)
        if let names = request.query("projections") {
            kinds = []
            for name in names.split(separator: ",") {
                guard let kind = ProjectionKind(rawValue: String(name)) else {
                    let known = ProjectionKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw Problem.badRequest("unknown projection \"\(name)\" (known: \(known))", field: "projections")
                }
                kinds.insert(kind)
            }
        }
        let logbook = logbook
        let chosen = kinds
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let (updates, continuation) = AsyncStream<RebuildProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let rebuild = Task {
                defer { continuation.finish() }
                return try await logbook.rebuild(chosen) { continuation.yield($0) }
            }
            for await progress in updates {
                try await writer.write(ByteBuffer(data: try JSONOutput.encoder.encode(progress) + Data("\n".utf8)))
            }
            do {
                let digests = try await rebuild.value
                try await writer.write(ByteBuffer(data: try JSONOutput.encoder.encode(["digests": digests]) + Data("\n".utf8)))
            } catch {
                let problem = Problem.from(error) ?? Problem(.internalServerError, type: "/problems/internal", title: "Rebuild failed", detail: "\(error)")
                try await writer.write(ByteBuffer(data: try JSONOutput.encoder.encode(["error": problem.detail]) + Data("\n".utf8)))
            }
            try await writer.finish(nil)
        })
    }
}

/// The answer of `POST /admin/verify`.
package struct VerifyReport: Encodable {
    var allMatch: Bool
    var projections: [VerificationResult]

    package init(allMatch: Bool, projections: [VerificationResult]) {
        self.allMatch = allMatch
        self.projections = projections
    }
}
