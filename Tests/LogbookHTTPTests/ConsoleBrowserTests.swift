import Foundation
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Testing

/// The console in real browsers (installed by tools/setup) against a real `logbook serve` over the
/// demo data, screenshots of each page under `.build/test-artifacts/console/`:
/// - Firefox (Debian's `firefox-esr`) over WebDriver BiDi (`Tests/Browser/console_firefox_test.py`),
///   first, as it only reads: every page loads with no console error, the numbers equal the API's,
///   Tab reaches every control.
/// - Chromium (Debian's) driven by a pinned Playwright (`Tests/Browser/console_test.py`, launched
///   with `executable_path`, nothing downloaded): the same, and live updates, a rebuild to 100 %,
///   refused tokens, a named erasure.
@Suite("Console in a real browser")
struct ConsoleBrowserTests {
    @Test("Every page of the console in Firefox and Chromium against logbook serve over the demo data")
    func browser() async throws {
        let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "no Chromium at \(chromium): run tools/setup")
        let firefox = ProcessInfo.processInfo.environment["FIREFOX"] ?? "/usr/bin/firefox-esr"
        try #require(FileManager.default.isExecutableFile(atPath: firefox), "no Firefox at \(firefox): run tools/setup")
        let screenshots = APIFuzzTests.root.appendingPathComponent(".build/test-artifacts/console").path
        try await withTemporaryDirectory { directory in try await ServerProcessTests.withDemoServer(users: 3, in: directory) { url in
            let keys = await TokenKeys(secret: testSecret)
            let admin = try await keys.token(user: "operator", admin: true, lifetime: 900)
            let user = try await keys.token(user: "u-1001")
            // Each browser signs in with a one-time link of its own, as `logbook console-url` prints them.
            let (firefoxStatus, firefoxOutput) = try await APIFuzzTests.python([
                APIFuzzTests.root.appendingPathComponent("Tests/Browser/console_firefox_test.py").path,
                "--base", url, "--admin", admin, "--code", try await keys.consoleCode(user: "operator", sessionLifetime: 900),
                "--screenshots", screenshots, "--firefox", firefox,
            ])
            print("console in Firefox: \(firefoxOutput.split(separator: "\n").last ?? "")")
            #expect(firefoxStatus == 0, "\(firefoxOutput.suffix(8_000))")
            let (status, output) = try await APIFuzzTests.python([
                APIFuzzTests.root.appendingPathComponent("Tests/Browser/console_test.py").path,
                "--base", url, "--admin", admin, "--code", try await keys.consoleCode(user: "operator", sessionLifetime: 900),
                "--user-token", user, "--user", "u-1001", "--erase", "u-1002",
                "--screenshots", screenshots, "--chromium", chromium,
            ])
            print("console browser test: \(output.split(separator: "\n").last ?? "")")
            #expect(status == 0, "\(output.suffix(8_000))")
        } }
    }
}
