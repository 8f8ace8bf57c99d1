import ArgumentParser
import Foundation
import LogbookHTTP

/// Where the HS256 token secret comes from — the environment (`LOGBOOK_JWT_SECRET`) or a file
/// (`--jwt-secret-file`), never the command line, where every user of the machine can read it
/// in the process list — and the audience and issuer tokens carry. Shared by `serve`, `demo`
/// and `token`.
struct TokenSecretOptions: ParsableArguments {
    @Option(name: .customLong("jwt-secret-file"), help: "A file holding the HS256 secret of bearer tokens, ≥ 32 random bytes (default: $LOGBOOK_JWT_SECRET).")
    var secretFile: String?

    /// Refused with an explanation: a secret on the command line is visible to every process.
    @Option(name: .customLong("jwt-secret"), help: .hidden)
    var secretOnCommandLine: String?

    @Option(name: .customLong("jwt-audience"), help: "The audience (aud) every token must name (default: not checked).")
    var audience: String?

    @Option(name: .customLong("jwt-issuer"), help: "The issuer (iss) every token must carry (default: not checked).")
    var issuer: String?

    func validate() throws {
        if secretOnCommandLine != nil {
            throw ValidationError("""
                --jwt-secret is not accepted: a secret on the command line is visible in the process list. \
                Set LOGBOOK_JWT_SECRET or pass --jwt-secret-file FILE.
                """)
        }
        if let secret = try secret(), let weakness = TokenSecret.weakness(secret) {
            throw ValidationError("the JWT secret is too weak: \(weakness).")
        }
        for (name, value) in [("--jwt-audience", audience), ("--jwt-issuer", issuer)] where value?.isEmpty == true {
            throw ValidationError("\(name) must not be empty.")
        }
    }

    /// The secret from the file or the environment (an empty one counts as none). The file's
    /// trailing line break is not part of it.
    func secret() throws -> String? {
        if let secretFile {
            let text: String
            do {
                text = try String(contentsOfFile: secretFile, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read --jwt-secret-file \(secretFile): \(error.localizedDescription)")
            }
            let secret = String(text.reversed().drop(while: { $0 == "\n" || $0 == "\r" }).reversed())
            return secret.isEmpty ? nil : secret
        }
        let secret = ProcessInfo.processInfo.environment["LOGBOOK_JWT_SECRET"]
        return secret?.isEmpty == false ? secret : nil
    }
}
