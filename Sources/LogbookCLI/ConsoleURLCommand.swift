import ArgumentParser
import LogbookDomain
import Foundation
import LogbookHTTP

/// `logbook console-url`: prints a link that opens the console signed in, carrying a
/// short-lived administrator's token in the URL's fragment (which browsers never send to the
/// server, so it stays out of access logs). The page moves the token into the tab's session
/// storage and removes it from the address bar.
struct ConsoleURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console-url",
        abstract: "Print a short-lived signed link to the console in the browser, signed with $LOGBOOK_JWT_SECRET or --jwt-secret-file.")

    @Option(help: "The server's base URL, as the browser reaches it.")
    var url = "http://127.0.0.1:8080"

    @Option(help: "The administrator the token names (its sub).")
    var user = "operator"

    @Option(help: "Lifetime of the token in seconds (at most a day); the console asks to sign in again after it.")
    var lifetime = 900

    @OptionGroup var tokens: TokenSecretOptions

    func validate() throws {
        guard try tokens.secret() != nil else { throw ValidationError("set LOGBOOK_JWT_SECRET or --jwt-secret-file to the server's secret.") }
        guard (1...86_400).contains(lifetime) else { throw ValidationError("--lifetime must be between 1 and 86400 seconds.") }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil, parsed.fragment == nil, parsed.query == nil else {
            throw ValidationError("--url must be an http or https URL with a host and no query or fragment, e.g. http://127.0.0.1:8080.")
        }
        if let reason = IdRule.violation(user) { throw ValidationError("--user \(reason).") }
    }

    func run() async throws {
        guard let secret = try tokens.secret() else { throw ValidationError("the secret is gone") }
        let token = try await TokenKeys(secret: secret).token(
            user: user, admin: true, lifetime: TimeInterval(lifetime), audience: tokens.audience, issuer: tokens.issuer)
        print(Self.link(base: url, token: token))
    }

    /// The console's address under `base`, signed in with `token`.
    static func link(base: String, token: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/console/#token=" + token
    }
}
