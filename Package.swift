// swift-tools-version:6.2
import class Foundation.ProcessInfo
import PackageDescription

/// A fuzz build: `tools/fuzz` sets LOGBOOK_FUZZ_BUILD=1 and builds LogbookFuzz in a scratch path of
/// its own. Only this package's Swift code is instrumented for libFuzzer and AddressSanitizer (the
/// code under test, and coverage where it guides the fuzzer); the dependencies build as usual.
let fuzzBuild = ProcessInfo.processInfo.environment["LOGBOOK_FUZZ_BUILD"] == "1"
let fuzzFlags = ["-sanitize=fuzzer,address"]

/// Settings every Logbook target shares: Swift 6 mode (strict concurrency), explicit `any`, no warnings.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
] + (fuzzBuild ? [.unsafeFlags(fuzzFlags), .define("LOGBOOK_FUZZING")] : [])

let package = Package(
    name: "Logbook",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LMDB", targets: ["LMDB"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "EventLogLMDB", targets: ["EventLogLMDB"]),
        .library(name: "EventLogPostgres", targets: ["EventLogPostgres"]),
        .library(name: "Logbook", targets: ["Logbook"]),
        // The domain alone (no storage): for a host that keeps read models in a store of its own.
        .library(name: "LogbookDomain", targets: ["LogbookDomain"]),
        .library(name: "LogbookHTTP", targets: ["LogbookHTTP"]),
        // Webhooks for a host that serves Logbook its own way (LogbookHTTP mounts their admin routes).
        .library(name: "LogbookWebhooks", targets: ["LogbookWebhooks"]),
        .library(name: "WorkoutFiles", targets: ["WorkoutFiles"]),
        .library(name: "WorkoutImport", targets: ["WorkoutImport"]),
        // The event-log conformance suite and test fixtures, for other backends and for hosts.
        .library(name: "LogbookTesting", targets: ["LogbookTesting"]),
        // The apps' side: typed calls for every operation of the API, with the user's bearer token.
        .library(name: "LogbookClient", targets: ["LogbookClient"]),
        .executable(name: "logbook", targets: ["LogbookCLI"]),
        // The benchmarks, apart from the shipped `logbook`: each with its baseline, printing JSON.
        .executable(name: "logbook-bench", targets: ["LogbookBench"]),
        // The log benchmark's C baseline: the same workload in plain C on LMDB (`logbook-bench log` runs it).
        .executable(name: "logbook-c-baseline", targets: ["LogbookCBaseline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Webhooks' HTTP client (and the tests' client against real server processes).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // LogbookClient: typed calls generated from Schemas/openapi.json (by tools/generate-client,
        // committed), sent through URLSession, so an app's build has no NIO, Hummingbird or LMDB.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
    ],
    targets: [
        // liblmdb, found with pkg-config; `tools/setup` installs it on Debian.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        // zlib, found with pkg-config (`tools/setup` installs zlib1g-dev); only the Zlib module imports it.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // libsodium, found with pkg-config; `tools/setup` installs it on Debian. Only the Sodium module imports it.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // glibc's mallopt, for the import command's allocator setting (no pointers cross it).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The log benchmark's floor: its workload in plain C on LMDB, a program of its own that
        // `logbook bench log` runs (so no pointer crosses into Swift). Benchmarks only.
        .executableTarget(name: "LogbookCBaseline", dependencies: ["CLMDB"], path: "Sources/LogbookCBaseline"),
        // The one module that calls mdb_* and touches raw pointers.
        .target(name: "LMDB", dependencies: ["CLMDB"], swiftSettings: strictSettings),
        // The one module that calls zlib (raw inflate, CRC-32): owns each z_stream, speaks Swift arrays and errors.
        .target(name: "Zlib", dependencies: ["CZlib"], swiftSettings: strictSettings),
        // The one module that calls crypto_*/sodium_*: keys, XChaCha20-Poly1305 and (to read the
        // first payload format) the IETF ChaCha20-Poly1305, behind a Swift API with typed errors.
        .target(name: "Sodium", dependencies: ["CSodium"], swiftSettings: strictSettings),
        // Varints, little-endian integers and strings in byte buffers, for the storage encodings.
        .target(name: "BinaryCoding", swiftSettings: strictSettings),
        // The log's contract, backend-neutral: the EventStore protocol, envelope, errors, positions, timestamps.
        .target(name: "EventLog", swiftSettings: strictSettings),
        // The embedded log on LMDB: one writer with group commit, chains threaded through the records, subscriptions.
        .target(name: "EventLogLMDB", dependencies: ["EventLog", "LMDB", "BinaryCoding"], swiftSettings: strictSettings),
        // The log in PostgreSQL, shared by several servers: a head row locked per commit keeps positions
        // gapless and in commit order; LISTEN/NOTIFY wakes subscriptions. The only module importing PostgresNIO.
        .target(
            name: "EventLogPostgres",
            dependencies: [
                "EventLog",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings),
        // The domain, with no storage: events and their codecs, commands and rules, read models as pure
        // folds into tables (the TableReader protocol), the queries over them and the query cache.
        .target(
            name: "LogbookDomain",
            dependencies: ["EventLog", "BinaryCoding", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings),
        // The read models' tables in LMDB: the domain's TableReader/TableWriter over LMDB transactions,
        // and the store of every read model's databases, checkpoints and digests.
        .target(
            name: "LogbookStorage",
            dependencies: ["LogbookDomain", "EventLog", "LMDB", "BinaryCoding", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings),
        // Logbook embedded: `Logbook.open(path:)` over any EventStore, read models folded inline or following
        // the log, replay and verification, backup, erasure's key store, idempotency keys. Re-exports the domain.
        .target(
            name: "Logbook",
            dependencies: [
                "LogbookDomain", "LogbookStorage", "EventLog", "EventLogLMDB", "LMDB", "BinaryCoding", "Sodium",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // Workout files read in a stream (FIT, GPX, TCX, Apple Health, Strava): bytes in, neutral values out.
        // Knows nothing of Logbook's storage or HTTP.
        // EventLog for its calendar and timestamp values only.
        // Zlib for DEFLATE and CRC-32 (zip entries, gzip members); Sodium for SHA-256 (content-derived ids).
        .target(name: "WorkoutFiles", dependencies: ["EventLog", "Zlib", "Sodium"], swiftSettings: strictSettings),
        // Workout files into Logbook: parsed values become import and step commands, idempotent by content.
        .target(
            name: "WorkoutImport",
            dependencies: [
                "Logbook", "EventLog", "WorkoutFiles", .product(name: "Crypto", package: "swift-crypto"),
                // glibc's mallopt, for the importing programs' allocator setting (MemoryTuning).
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings),
        // The deterministic demo data set (users, workouts, steps, goals, places) behind `logbook demo` and the benchmarks.
        .target(name: "DemoData", dependencies: ["Logbook", "EventLog"], swiftSettings: strictSettings),
        // What a request carries, read without HTTP: command bodies as each route decodes them and the texts of
        // query parameters, headers and path segments (so the fuzz targets need not build the HTTP stack).
        .target(name: "LogbookInput", dependencies: ["Logbook", "EventLog"], swiftSettings: strictSettings),
        // HTTP: routes a host application mounts (or a ready Application), auth, problem+json, SSE, metrics, admin jobs.
        .target(
            name: "LogbookHTTP",
            dependencies: [
                "Logbook", "LogbookInput", "EventLog", "WorkoutFiles", "WorkoutImport", "LogbookWebhooks",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The console's files, compiled into the binary (nothing is read from disk at run time).
            resources: [.embedInCode("Console/Assets")],
            swiftSettings: strictSettings),
        // Where outbound calls (webhooks) may go and how their answers are read, with no HTTP client: URLs
        // read as the client reads them, addresses classified against the public-address policy, names
        // resolved once, answers judged within bounds (so its fuzz targets need not build the HTTP stack).
        .target(
            name: "LogbookOutbound",
            dependencies: [.product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strictSettings),
        // Webhooks: the log delivered to receivers' URLs in signed batches, at least once, in log order,
        // with retries, dead letters and checkpoints in the log's checkpoint table.
        .target(
            name: "LogbookWebhooks",
            dependencies: [
                "Logbook", "LogbookDomain", "EventLog", "LogbookOutbound",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings),
        // `logbook openapi`: the OpenAPI document of this build's routes, response schemas from their Swift types.
        .target(
            name: "LogbookOpenAPI",
            dependencies: [
                "LogbookHTTP", "Logbook",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // The benchmarks behind `logbook-bench`, each with its raw baseline.
        .target(
            name: "LogBenchmarks",
            dependencies: [
                "EventLog", "EventLogLMDB", "EventLogPostgres", "LMDB", "BinaryCoding", "Logbook", "DemoData", "WorkoutFiles",
                "WorkoutImport", "Sodium", "LogbookWebhooks", "LogbookClient",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                // The webhook benchmark's receiver and its baseline's plain client.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The payload-encryption baselines: swift-crypto's ChaChaPoly and libsodium's
                // XChaCha20-Poly1305 (through Sodium) called directly.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        // The `logbook` command-line tool.
        .executableTarget(
            name: "LogbookCLI",
            dependencies: [
                "EventLog", "EventLogLMDB", "EventLogPostgres", "LMDB", "Logbook", "LogbookHTTP", "LogbookInput", "LogbookOpenAPI",
                "DemoData", "WorkoutFiles", "WorkoutImport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The `logbook-bench` program: the benchmarks' commands (same names, options and JSON keys as
        // `logbook bench` had), never part of the shipped `logbook`.
        .executableTarget(
            name: "LogbookBench",
            dependencies: [
                "LogBenchmarks", "Logbook", "WorkoutImport",
                // Built with `logbook-bench` (not linked): `logbook-bench log` runs the C baseline
                // beside itself, and `logbook-bench wire` runs `logbook import`.
                "LogbookCBaseline", "LogbookCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The apps' side of the API: the calls generated from Schemas/openapi.json (Generated/, by
        // tools/generate-client) and what an app adds to them (its token, the log's time format).
        // Depends on no server module and nothing of NIO.
        .target(
            name: "LogbookClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings),
        // The conformance suite every EventStore backend runs, and fixtures for tests of code above the log.
        .target(name: "LogbookTesting", dependencies: ["EventLog"], swiftSettings: strictSettings),
        // A helper process for the crash tests (appends until killed); built for the tests, never shipped.
        .executableTarget(
            name: "LogbookTestHelper", dependencies: ["EventLog", "EventLogLMDB", "EventLogPostgres", "Logbook"], path: "Tests/LogbookTestHelper",
            swiftSettings: strictSettings),
        // A client process for the command journal's kill tests; it links LogbookClient alone.
        .executableTarget(name: "LogbookClientHelper", dependencies: ["LogbookClient"], path: "Tests/LogbookClientHelper", swiftSettings: strictSettings),
        // Child processes for the tests, started with posix_spawn (Foundation's Process crashes now and then on Linux).
        .target(name: "CSpawn", path: "Tests/CSpawn"),
        .target(name: "ChildProcesses", dependencies: ["CSpawn"], path: "Tests/ChildProcesses", swiftSettings: strictSettings),
        // Helpers the test targets share (temporary stores and Logbooks, the built executables).
        .target(
            name: "LogbookTestSupport", dependencies: ["DemoData", "EventLog", "EventLogLMDB", "Logbook", "LogbookTesting", "ChildProcesses"],
            path: "Tests/LogbookTestSupport", swiftSettings: strictSettings),
        // Writers of workout files with known values (FIT, GPX, TCX, Apple Health, Strava, zip and gzip) and the
        // locator of the real-device corpus (LOGBOOK_REALDATA), for the tests: not a product, not in any executable.
        .target(
            name: "WorkoutFileFixtures", dependencies: ["ChildProcesses", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/WorkoutFileFixtures", swiftSettings: strictSettings),
        // Fuzzing (Tests/Fuzz, run by tools/fuzz): the checks each libFuzzer target makes, in libraries the
        // regression tests share, and one program, LogbookFuzz, holding every target (the one a run checks is
        // named by LOGBOOK_FUZZ_TARGET), so a fuzz build (scratch path .build-fuzz) is one build and one link.
        // None of it is a declared product or shipped.
        // libFuzzer's driver entry (from the toolchain's runtime, linked only by -sanitize=fuzzer).
        .systemLibrary(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Tests/Fuzz/FuzzSupport", swiftSettings: strictSettings),
        .target(
            name: "WorkoutFilesFuzzing", dependencies: ["FuzzSupport", "WorkoutFiles"], path: "Tests/Fuzz/WorkoutFilesFuzzing",
            swiftSettings: strictSettings),
        .target(
            name: "LogbookFuzzing", dependencies: ["FuzzSupport", "Logbook", "LogbookInput", "EventLog", "EventLogLMDB", "BinaryCoding"],
            path: "Tests/Fuzz/LogbookFuzzing", swiftSettings: strictSettings),
        .target(
            name: "PostgresFuzzing",
            dependencies: [
                "FuzzSupport", "EventLogPostgres", "EventLog", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/Fuzz/PostgresFuzzing", swiftSettings: strictSettings),
        // Webhook receivers' side: the URLs and addresses a webhook names, and the answers receivers send
        // (raw bytes through SwiftNIO's HTTP/1 response decoder, as the HTTP client reads them, then judged).
        .target(
            name: "WebhookFuzzing",
            dependencies: [
                "FuzzSupport", "LogbookOutbound", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Tests/Fuzz/WebhookFuzzing", swiftSettings: strictSettings),
        // The fuzz program: every target behind one libFuzzer entry, LOGBOOK_FUZZ_TARGET picking a run's target.
        .executableTarget(
            name: "LogbookFuzz", dependencies: ["FuzzSupport", "WorkoutFilesFuzzing", "LogbookFuzzing", "PostgresFuzzing", "WebhookFuzzing"],
            path: "Tests/Fuzz/LogbookFuzz", swiftSettings: strictSettings, linkerSettings: fuzzBuild ? [.unsafeFlags(fuzzFlags)] : []),
        .testTarget(
            name: "WorkoutFilesTests", dependencies: ["WorkoutFiles", "Zlib", "WorkoutFileFixtures", "DemoData", "EventLog", "FuzzSupport", "WorkoutFilesFuzzing"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "WorkoutImportTests",
            dependencies: ["WorkoutImport", "WorkoutFiles", "WorkoutFileFixtures", "Logbook", "EventLog", "LogbookTestSupport", "DemoData"],
            swiftSettings: strictSettings),
        // libsodium through the Sodium module: the RFC 8439 and XChaCha draft vectors, swift-crypto as a cross-check.
        .testTarget(
            name: "SodiumTests", dependencies: ["Sodium", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "LogbookTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "EventLogTests",
            // The crash and multi-process tests run the built helper and `logbook` binaries.
            dependencies: [
                "EventLog", "EventLogLMDB", "LMDB", "LogbookCLI", "LogbookTestHelper", "Logbook", "LogbookTesting",
                "LogbookTestSupport", "DemoData", "BinaryCoding",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EventLogPostgresTests",
            // A real PostgreSQL (tools/postgres) and the helper process for the crash and two-process tests.
            dependencies: [
                "EventLog", "EventLogPostgres", "LogbookTesting", "LogbookTestSupport", "LogbookTestHelper", "Logbook", "DemoData",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LogbookTests",
            // LogbookCLI: the replay tests run the built `logbook` binary in another time zone.
            dependencies: ["Logbook", "LogbookDomain", "LogbookInput", "LogbookStorage", "EventLog", "EventLogLMDB", "LMDB", "LogbookTesting", "LogbookTestSupport", "LogbookCLI", "DemoData", "BinaryCoding",
                           "Sodium", "FuzzSupport", "LogbookFuzzing", "PostgresFuzzing", "WebhookFuzzing", "ChildProcesses", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LogbookHTTPTests",
            dependencies: [
                "LogbookHTTP", "LogbookOpenAPI", "Logbook", "EventLog", "EventLogPostgres", "LogbookTestSupport", "LogbookCLI", "LogbookBench",
                "DemoData", "WorkoutFileFixtures", "ChildProcesses", "LogbookWebhooks", "LogbookOutbound",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // A receiver of webhooks over TLS, with a certificate of the tests' own authority.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                "LogbookClient", "LogbookClientHelper",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
