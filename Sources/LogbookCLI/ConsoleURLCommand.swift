import ArgumentParser
import LogbookDomain
import Foundation
import LogbookHTTP

/// `logbook console-url`: prints a link that opens the console and signs in once. Its fragment
/// (which browsers never send to the server, so it stays out of access logs) carries a one-time
/// code, not a token: the page exchanges it at once for a short-lived administrator's token kept
/// in its tab, and takes it out of the address bar. The code is good for one exchange within
/// 2 minutes, so the link left in the browser's history or the terminal's scrollback opens nothing.
struct ConsoleURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console-url",
        abstract: "Print a one-time sign-in link to the console in the browser (one use, within 2 minutes), signed with $LOGBOOK_JWT_SECRET or --jwt-secret-file.")

    @Option(help: "The server's base URL, as the browser reaches it.")
    var url = "http://127.0.0.1:8080"

    @Option(help: "The administrator the session names (its sub).")
    var user = "operator"

    @Option(help: "Lifetime of the console session in seconds (at most an hour); the console asks to sign in again after it.")
    var lifetime = 900

    @OptionGroup var tokens: TokenSecretOptions

    func validate() throws {
        guard try tokens.secret() != nil else { throw ValidationError("set LOGBOOK_JWT_SECRET or --jwt-secret-file to the server's secret.") }
        guard (1...ConsoleSignIn.maxSessionLifetime).contains(lifetime) else {
            throw ValidationError("--lifetime must be between 1 and \(ConsoleSignIn.maxSessionLifetime) seconds.")
        }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil, parsed.fragment == nil, parsed.query == nil else {
            throw ValidationError("--url must be an http or https URL with a host and no query or fragment, e.g. http://127.0.0.1:8080.")
        }
        if let reason = IdRule.violation(user) { throw ValidationError("--user \(reason).") }
    }

    func run() async throws {
        guard let secret = try tokens.secret() else { throw ValidationError("the secret is gone") }
        let code = try await TokenKeys(secret: secret).consoleCode(
            user: user, sessionLifetime: lifetime, audience: tokens.audience, issuer: tokens.issuer)
        print(Self.link(base: url, code: code))
    }

    /// The console's address under `base`, signing in with the one-time `code`.
    static func link(base: String, code: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/console/#code=" + code
    }
}
