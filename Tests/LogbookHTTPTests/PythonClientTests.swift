import Foundation
import LogbookHTTP
import LogbookTestSupport
import LogbookTesting
import Testing

/// `Schemas/openapi.json` as a third party's generator sees it: openapi-python-client (pinned,
/// installed by `tools/setup`) generates a client for every operation, and the generated code
/// sends a command and a query to a real `logbook serve`.
@Suite("Third-party generated client", .serialized)
struct PythonClientTests {
    static let document = APIFuzzTests.root.appendingPathComponent("Schemas/openapi.json").path

    /// The document's operations, as `method path`.
    static func operations() throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: document))
        let paths = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["paths"] as? [String: [String: Any]])
        return paths.flatMap { path, operations in operations.keys.map { "\($0) \(path)" } }
    }

    @Test("openapi-python-client generates every operation, and its client sets a goal and reads the goal week from a real server")
    func pythonClient() async throws {
        try await withTemporaryDirectory { directory in
            let (generated, output) = try await APIFuzzTests.python([
                "-m", "openapi_python_client", "generate", "--path", Self.document,
                "--output-path", directory + "/logbook_client", "--meta", "none",
            ], in: directory)
            try #require(generated == 0, "\(output)")
            #expect(!output.contains("Unable to"), "the generator left something out:\n\(output)")
            // One module per operation under api/.
            let api = URL(fileURLWithPath: directory + "/logbook_client/api")
            let modules = try FileManager.default.subpathsOfDirectory(atPath: api.path)
                .filter { $0.hasSuffix(".py") && !$0.hasSuffix("__init__.py") }
            #expect(modules.count == (try Self.operations()).count, "generated \(modules.count) operations: \(modules.sorted())")

            try await ServerProcessTests.withDemoServer(users: 2, in: directory) { base in
                let token = try await TokenKeys(secret: testSecret).token(user: "u-1000")
                let script = """
                    import datetime, sys
                    sys.path.insert(0, sys.argv[1])
                    from logbook_client import AuthenticatedClient
                    from logbook_client.api.default import put_users_user_goals_date, get_users_user_goals_week
                    from logbook_client.models import GoalSetRequest
                    client = AuthenticatedClient(base_url=sys.argv[2], token=sys.argv[3])
                    set_goal = put_users_user_goals_date.sync_detailed(client=client, user="u-1000", date="2026-10-28", body=GoalSetRequest(steps=12345))
                    print("command", int(set_goal.status_code))
                    week = get_users_user_goals_week.sync_detailed(client=client, user="u-1000", date=datetime.date(2026, 10, 28))
                    print("query", int(week.status_code))
                    day = [d for d in week.parsed.days if str(d.date) == "2026-10-28"][0]
                    print("goal", day.goal.steps)
                    """
                let (status, answer) = try await APIFuzzTests.python(["-c", script, directory, base, token], in: directory)
                #expect(status == 0, "\(answer)")
                #expect(answer.contains("command 201"), "\(answer)")
                #expect(answer.contains("query 200"), "\(answer)")
                #expect(answer.contains("goal 12345"), "\(answer)")
            }
        }
    }
}
