public import EventLogLMDB
public import Foundation
import LogbookTesting

/// Opens a real LMDB-backed log in a fresh temporary directory, runs `body`, closes the log and
/// removes the directory, even if `body` throws.
public func withStore<R>(
    _ configure: (inout LogConfiguration) -> Void = { _ in },
    _ body: (LMDBEventStore, String) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { path in
        var configuration = LogConfiguration()
        configure(&configuration)
        let store = try LMDBEventStore(path: path + "/log", configuration: configuration)
        do {
            let result = try await body(store, path + "/log")
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

/// The `logbook` executable built beside the test bundle.
public var logbookExecutable: URL { builtExecutable("logbook") }

/// The built `logbook-bench` executable, beside the test bundle.
public var logbookBenchExecutable: URL { builtExecutable("logbook-bench") }

/// The test-only helper executable (`append-loop` for the crash tests) built beside the test bundle.
public var testHelperExecutable: URL { builtExecutable("LogbookTestHelper") }

/// The client process of the command journal's kill tests, built beside the test bundle.
public var clientHelperExecutable: URL { builtExecutable("LogbookClientHelper") }

private func builtExecutable(_ name: String) -> URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return testBinary.deletingLastPathComponent().appendingPathComponent(name)
}
