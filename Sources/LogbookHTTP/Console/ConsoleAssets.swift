import EventLog

/// The console's files as compiled into the binary (`resources: [.embedInCode(…)]` in
/// Package.swift), by name, with their media types and entity tags.
enum ConsoleAssets {
    /// One file of the console.
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        /// A strong entity tag: the bytes' XXH64, in hex.
        let etag: String
    }

    /// Every file, by name.
    static let files: [String: File] = {
        let sources: [(String, [UInt8])] = [
            ("index.html", PackageResources.index_html), ("console.css", PackageResources.console_css),
            ("app.js", PackageResources.app_js), ("api.js", PackageResources.api_js), ("view.js", PackageResources.view_js),
            ("overview.js", PackageResources.overview_js), ("readmodels.js", PackageResources.readmodels_js),
            ("log.js", PackageResources.log_js), ("users.js", PackageResources.users_js),
            ("caches.js", PackageResources.caches_js), ("webhooks.js", PackageResources.webhooks_js),
        ]
        var files: [String: File] = [:]
        for (name, bytes) in sources {
            let type = name.hasSuffix(".html") ? "text/html; charset=utf-8"
                : name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
            let hash = XXHash64.hash(bytes.span, from: 0, seed: 0)
            files[name] = File(bytes: bytes, contentType: type, etag: "\"\(String(hash, radix: 16))\"")
        }
        return files
    }()

    /// The bytes of every file together (the console's size).
    static var totalBytes: Int { files.values.reduce(0) { $0 + $1.bytes.count } }

    static func file(named name: String) -> File? { files[name] }
}
