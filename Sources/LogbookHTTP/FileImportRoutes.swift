import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import Logbook
import WorkoutImport

/// `POST /users/{user}/imports` with a workout file as the body (anything but JSON: a JSON body is
/// one `workout.imported` command). The body is streamed to a temporary file (never held whole),
/// up to ``HTTPConfiguration/maxImportBytes``, then imported like `logbook import-file`: the
/// answer says what was imported, what was already there and what was skipped, and why.
struct FileImportRoutes<Context: LogbookRouteContext> {
    let logbook: Logbook
    let maxImportBytes: Int
    /// At most so many imports at once, overall and per user.
    let slots: ImportSlots

    /// Imports the body as a file for the path's user, in one of the server's import slots.
    func importFile(_ request: Request, _ context: Context) async throws -> Response {
        let user = try context.path("user")
        return try await slots.withSlot(for: user) { try await importFile(request, user: user) }
    }

    private func importFile(_ request: Request, user: String) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxImportBytes { throw Problem.tooLarge(maxImportBytes) }
        // The upload holds the user's data: a directory and a file only this process's user can read.
        let directory = URL(fileURLWithPath: try PrivateFiles.temporaryDirectory(prefix: "logbook-import-"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.\(WorkoutFileUpload.fileExtension(request.headers[.contentType]))")
        guard PrivateFiles.createFile(atPath: file.path) else { throw LogbookError.storage("cannot create \(file.path)") }
        let handle = try FileHandle(forWritingTo: file)
        var received = 0
        do {
            for try await buffer in request.body {
                received += buffer.readableBytes
                guard received <= maxImportBytes else { throw Problem.tooLarge(maxImportBytes) }
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        guard received > 0 else { throw Problem.badRequest("the body is empty: send the file's bytes") }
        var options = FileImporter.Options()
        options.readOriginals = false
        options.readTimeLimit = slots.limits.readTimeLimit
        var report = try await FileImporter(logbook: logbook, options: options).importFile(file, user: user)
        report.file = request.headers[HTTPField.Name("X-File-Name")!] ?? "upload"
        let wrote = (report.written?.workouts ?? 0) + (report.written?.stepEvents ?? 0) > 0
        var headers = HTTPFields()
        if let position = report.written?.lastPosition, position > 0 { headers[HTTPField.Name("X-Logbook-Position")!] = "\(position)" }
        return try JSONOutput.response(report, status: wrote ? .created : .ok, headers: headers)
    }
}

/// What a workout file upload may be: its media types, and the file extension each one means.
enum WorkoutFileUpload {
    /// The media types a workout file may be sent as (the OpenAPI document lists them).
    static let mediaTypes = [
        "application/vnd.ant.fit", "application/gpx+xml", "application/vnd.garmin.tcx+xml", "application/xml", "application/zip",
        "text/csv", "application/octet-stream",
    ]

    /// Every media type a workout file is accepted as: ``mediaTypes`` and the other names of the
    /// same formats.
    static let accepted: Set<String> = Set(mediaTypes + ["application/fit", "application/x-fit", "application/tcx+xml", "text/xml"])

    /// The file's extension from the body's media type (the format itself is detected from the bytes).
    static func fileExtension(_ contentType: String?) -> String {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "application/vnd.ant.fit", "application/fit", "application/x-fit": return "fit"
        case "application/gpx+xml": return "gpx"
        case "application/vnd.garmin.tcx+xml", "application/tcx+xml": return "tcx"
        case "application/zip": return "zip"
        case "text/csv": return "csv"
        case "application/xml", "text/xml": return "xml"
        default: return "bin"
        }
    }
}
