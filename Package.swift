// swift-tools-version:6.2
import PackageDescription

/// Settings every Logbook target shares: Swift 6 mode (strict concurrency), explicit `any`, no warnings.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Logbook",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LMDB", targets: ["LMDB"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "Logbook", targets: ["Logbook"]),
        .library(name: "LogbookHTTP", targets: ["LogbookHTTP"]),
        .executable(name: "logbook", targets: ["LogbookCLI"]),
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
        // Tests only: a real HTTP client against a real server process (graceful shutdown test).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // liblmdb, found with pkg-config; `tools/setup` installs it on Debian.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        // The one module that calls mdb_* and touches raw pointers.
        .target(name: "LMDB", dependencies: ["CLMDB"], swiftSettings: strictSettings),
        // Varints, little-endian integers and strings in byte buffers, for the storage encodings.
        .target(name: "BinaryCoding", swiftSettings: strictSettings),
        // The append-only event log: envelope, append, reads, subscriptions, checkpoints.
        .target(name: "EventLog", dependencies: ["LMDB", "BinaryCoding"], swiftSettings: strictSettings),
        // The domain: events, commands and rules, projections, replay and the query API.
        .target(
            name: "Logbook",
            dependencies: [
                "EventLog", "LMDB", "BinaryCoding",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        // HTTP: routes a host application mounts (or a ready Application), auth, problem+json, SSE, metrics.
        .target(
            name: "LogbookHTTP",
            dependencies: [
                "Logbook", "EventLog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings),
        // The benchmarks behind `logbook bench`, each with its raw baseline.
        .target(
            name: "LogBenchmarks",
            dependencies: [
                "EventLog", "LMDB", "Logbook",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSettings),
        // The `logbook` command-line tool.
        .executableTarget(
            name: "LogbookCLI",
            dependencies: [
                "EventLog", "LMDB", "Logbook", "LogbookHTTP", "LogBenchmarks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // Helpers the test targets share (temporary directories, stores, clocks).
        .target(
            name: "LogbookTestSupport", dependencies: ["EventLog", "Logbook"], path: "Tests/LogbookTestSupport",
            swiftSettings: strictSettings),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "LogbookTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "EventLogTests",
            // LogbookCLI: the crash and multi-process tests run the built `logbook` binary.
            dependencies: ["EventLog", "LMDB", "LogbookCLI", "Logbook", "LogbookTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LogbookTests",
            // LogbookCLI: the replay tests run the built `logbook` binary in another time zone.
            dependencies: ["Logbook", "EventLog", "LMDB", "LogbookTestSupport", "LogbookCLI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LogbookHTTPTests",
            dependencies: [
                "LogbookHTTP", "Logbook", "EventLog", "LogbookTestSupport", "LogbookCLI",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
