// swift-tools-version:6.2
import PackageDescription

// Modules, lowest first; each arrow is "is used by".
//
// What an iOS app or extension links is the two lists `iOSModules` and `iOSModulesOnFoundation`
// below, the one list of them: Scripts/typecheck-ios.sh, .github/workflows/ios.yml and .ci/run
// read it (`Scripts/check-module-graph.py --ios-modules`).
//   CallDirectoryCore   the CallKit contract: numbers, errors, the checking context
//   ByteCoding          bounds-checked little-endian and LEB128 fields: the one room for raw bytes
//   SystemCalls         the one room for the system calls swift-system does not wrap: mmap,
//                       flock, fsync/rename (the durable steps and their observer), folders
//                       and links, a thread, the environment, pipe, pread, strerror
//   PrivacyInfo         the privacy manifest (required-reason APIs), Apple platforms only
//   FaultInjection      the durable steps' test hook: the command-line tools link it, no app does
//   BaseFormat          base files: header, blocks, both readers, the writer
//   DirectoryContainer  the App Group container: manifest, SHA-256, and ContainerTransaction (the
//                       writers' lock, content-addressed bases, one manifest rename)
//   CallDirectoryLoader what the extension runs: merges, the cap, two-phase selection
//   ProcessMetrics      /proc/self/status and sizes (ByteCount)
//   HeapProbe           jemalloc's heap peak, found at run time
//   ExtensionReport     the report a measured process prints
//   SystemChannel       the extension ↔ system frames, both directions
//   PhoneNormalization  written numbers → CallKit numbers
//   CallDirectoryApp    the app's half: stage, choose, sync (chunks past the cap, the journal,
//                       parts) through CallDirectoryManaging, as an app drives CXCallDirectoryManager
//   CallKitAdapter      CXCallDirectoryExtensionContext and CXCallDirectoryManager behind the
//                       core's protocols (Apple platforms only; Foundation and CallKit there)
//
// The graph: the modules left of each arrow are used by the one on its right, lowest layer
// first. Scripts/check-module-graph.py (in CI) fails when these lines, the targets'
// dependencies below and the files' imports disagree; `--print-header` prints them afresh.
//
// Foundation allowed: ProcessSpawning, CallDirectoryHost, DirectoryCompiler, Datasets,
// LiveLookupExport, BenchMeasuring, BenchReporting, BenchGating, ReleaseDownload, calldir,
// calldir-baselines, calldir-fuzz.
//
//   CallDirectoryCore ← CallKitAdapter
//   ByteCoding ← PhoneNormalization
//   ByteCoding, PrivacyInfo ← SystemCalls
//   ByteCoding, SystemCalls ← BaseFormat
//   SystemCalls ← FaultInjection
//   ByteCoding, SystemCalls ← ProcessMetrics
//   ByteCoding, CallDirectoryCore, SystemCalls ← SystemChannel
//   BaseFormat, ByteCoding, SystemCalls ← DirectoryContainer
//   CallDirectoryCore, HeapProbe, ProcessMetrics, SystemCalls ← ExtensionReport
//   ProcessMetrics, SystemCalls ← ProcessSpawning
//   BaseFormat, ByteCoding, CSQLite, CallDirectoryCore, FaultInjection, ProcessSpawning,
//     SystemCalls, SystemChannel ← CallDirectoryHost
//   BaseFormat, CallDirectoryCore, DirectoryContainer, SystemCalls ← CallDirectoryLoader
//   BaseFormat, ByteCoding, CMalloc, CZlib, DirectoryContainer, PhoneNormalization, ProcessMetrics,
//     SystemCalls ← DirectoryCompiler
//   BaseFormat, ByteCoding, CZlib, DirectoryContainer, SystemCalls ← ReleaseFormat
//   BaseFormat, CallDirectoryCore, CallDirectoryLoader, DirectoryContainer, PhoneNormalization,
//     ReleaseFormat, SystemCalls ← CallDirectoryApp
//   BaseFormat, ByteCoding, DirectoryCompiler, DirectoryContainer, PhoneNormalization ← Datasets
//   BaseFormat, ByteCoding, CallDirectoryLoader, DirectoryContainer, SystemCalls ← LiveLookupExport
//   ReleaseFormat ← ReleaseDownload
//   ByteCoding, CallDirectoryCore, CallDirectoryHost, ExtensionReport, ProcessMetrics, SystemCalls,
//     SystemChannel ← calldir-baselines
//   BaseFormat, CallDirectoryCore, CallDirectoryLoader, ExtensionReport, FaultInjection,
//     SystemCalls, SystemChannel ← calldir-extension
//   BaseFormat, ByteCoding, DirectoryCompiler, DirectoryContainer, PhoneNormalization,
//     ReleaseFormat, SystemChannel ← calldir-fuzz
//   FaultInjection, ReleaseFormat, SystemCalls ← calldir-patch
//   BaseFormat, CZlib, CallDirectoryApp, CallDirectoryCore, CallDirectoryHost, CallDirectoryLoader,
//     Datasets, DirectoryContainer, ExtensionReport, ProcessMetrics, ProcessSpawning,
//     ReleaseFormat, SystemCalls ← BenchMeasuring
//   BaseFormat, BenchMeasuring, CallDirectoryHost, ProcessMetrics, SystemCalls ← BenchReporting
//   BaseFormat, BenchMeasuring, BenchReporting, CallDirectoryCore, Datasets, DirectoryContainer,
//     ProcessMetrics, ProcessSpawning, ReleaseFormat ← BenchGating
//   BaseFormat, BenchGating, BenchMeasuring, BenchReporting, ByteCoding, CallDirectoryApp,
//     CallDirectoryCore, CallDirectoryHost, CallDirectoryLoader, Datasets, DirectoryCompiler,
//     DirectoryContainer, FaultInjection, HeapProbe, LiveLookupExport, PhoneNormalization,
//     ProcessMetrics, ProcessSpawning, ReleaseDownload, ReleaseFormat, SystemCalls ← calldir

/// The modules an iOS app or its extensions link that build without Foundation (Glibc/Darwin
/// only behind `#if canImport`, in SystemCalls), lowest first: they build for iOS 16 and
/// macOS 13. Scripts/check-module-graph.py checks that none imports Foundation and that each
/// uses only modules of these two lists and the mirrored packages.
let iOSModules = [
  "CallDirectoryCore", "ByteCoding", "SystemCalls", "PhoneNormalization", "BaseFormat",
  "DirectoryContainer", "CallDirectoryLoader", "ReleaseFormat", "CallDirectoryApp",
]
/// The modules an iOS app links that use Foundation (and CallKit) on Apple platforms.
let iOSModulesOnFoundation = ["ReleaseDownload", "CallKitAdapter"]

let package = Package(
  name: "calldir",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .executable(name: "calldir", targets: ["calldir"]),
    .executable(name: "calldir-extension", targets: ["calldir-extension"]),
    .executable(name: "calldir-baselines", targets: ["calldir-baselines"]),
    .executable(name: "calldir-patch", targets: ["calldir-patch"]),
    .library(name: "CallDirectoryCore", targets: ["CallDirectoryCore"]),
    .library(name: "BaseFormat", targets: ["BaseFormat"]),
    .library(name: "CallDirectoryLoader", targets: ["CallDirectoryLoader"]),
    .library(name: "CallKitAdapter", targets: ["CallKitAdapter"]),
    // The app's half: what an iOS app links to stage, choose and sync.
    .library(name: "DirectoryContainer", targets: ["DirectoryContainer"]),
    .library(name: "CallDirectoryApp", targets: ["CallDirectoryApp"]),
    .library(name: "PhoneNormalization", targets: ["PhoneNormalization"]),
    .library(name: "ReleaseFormat", targets: ["ReleaseFormat"]),
    // The client an iOS app fetches a release with: URLSession, Range resume, statuses checked.
    .library(name: "ReleaseDownload", targets: ["ReleaseDownload"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // The gate settings file (.calldir-gate.yml). TOMLKit, the other mirrored parser, needs
    // karwa/swift-checkit, which this machine cannot resolve.
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
    // Builds the DocC catalogs (swift package generate-documentation); a plugin only, nothing
    // links it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // The tests' loopback release server (Tests/ReleaseServer); nothing a product links uses it.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
  ],
  targets: [
    // MARK: iOS-buildable layers (no Foundation)
    .target(name: "CallDirectoryCore"),
    // CallKit behind calldir's protocols; empty where CallKit is missing (built for iOS by
    // .github/workflows/ios.yml, never here).
    .target(name: "CallKitAdapter", dependencies: ["CallDirectoryCore"]),
    .target(name: "ByteCoding"),
    .target(
      name: "SystemCalls",
      dependencies: [
        "ByteCoding", .product(name: "SystemPackage", package: "swift-system"),
        .target(name: "PrivacyInfo", condition: .when(platforms: [.iOS, .macOS, .macCatalyst])),
      ]),
    // The privacy manifest of the required-reason APIs (stat, fstat, fstatvfs), bundled with
    // every app and extension that links SystemCalls, on Apple's platforms.
    .target(name: "PrivacyInfo", resources: [.copy("PrivacyInfo.xcprivacy")]),
    // The durable steps' test hook: linked by the command-line tools only, never by a library
    // an app links (issue 40: no fault injection in what ships to iOS).
    .target(name: "FaultInjection", dependencies: ["SystemCalls"]),
    .target(
      name: "BaseFormat",
      dependencies: [
        "ByteCoding", "SystemCalls",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .target(
      name: "DirectoryContainer",
      dependencies: [
        "BaseFormat", "ByteCoding", "SystemCalls",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .target(
      name: "CallDirectoryLoader",
      dependencies: [
        "CallDirectoryCore", "BaseFormat", "DirectoryContainer", "SystemCalls",
        .product(name: "HeapModule", package: "swift-collections"),
      ]),
    .target(name: "ProcessMetrics", dependencies: ["ByteCoding", "SystemCalls"]),
    .target(
      name: "ProcessSpawning",
      dependencies: [
        "ProcessMetrics", "SystemCalls", .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .target(
      name: "PhoneNormalization",
      dependencies: ["ByteCoding", .product(name: "ExtrasBase64", package: "swift-extras-base64")]),
    .target(
      name: "SystemChannel",
      dependencies: [
        "CallDirectoryCore", "ByteCoding", "SystemCalls",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    // Finds jemalloc's `mallctl` at run time (dlsym): no build-time dependency on jemalloc.
    // glibc before 2.34 keeps dlsym in libdl.
    .target(name: "HeapProbe", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    .target(
      name: "ExtensionReport",
      dependencies: [
        "CallDirectoryCore", "ProcessMetrics", "HeapProbe", "SystemCalls",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),

    // MARK: The processes under test
    .executableTarget(
      name: "calldir-patch", dependencies: ["ReleaseFormat", "FaultInjection", "SystemCalls"]),
    .executableTarget(
      name: "calldir-extension",
      dependencies: [
        "CallDirectoryCore", "BaseFormat", "CallDirectoryLoader", "ExtensionReport",
        "SystemChannel", "FaultInjection", "SystemCalls",
      ]),
    // The fuzz targets: replays inputs in a normal build, libFuzzer's driver in Scripts/fuzz.sh's.
    .executableTarget(
      name: "calldir-fuzz",
      dependencies: [
        "BaseFormat", "ByteCoding", "DirectoryContainer", "SystemChannel", "DirectoryCompiler",
        "PhoneNormalization", "ReleaseFormat",
      ]),
    .executableTarget(
      name: "calldir-baselines",
      dependencies: [
        "CallDirectoryCore", "ExtensionReport", "ByteCoding", "SystemCalls", "SystemChannel",
        "CallDirectoryHost", "ProcessMetrics",
      ]),

    // MARK: The simulated system (Foundation allowed)
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(
      name: "CallDirectoryHost",
      dependencies: [
        "CSQLite", "CallDirectoryCore", "ByteCoding", "BaseFormat", "ProcessSpawning",
        "SystemChannel", "SystemCalls", "FaultInjection",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),

    // MARK: The app's half (no Foundation: it builds for iOS)
    .target(
      name: "CallDirectoryApp",
      dependencies: [
        "CallDirectoryCore", "CallDirectoryLoader", "DirectoryContainer", "BaseFormat",
        "SystemCalls", "ReleaseFormat", "PhoneNormalization",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),

    .target(
      name: "ReleaseFormat",
      dependencies: [
        "BaseFormat", "ByteCoding", "DirectoryContainer", "SystemCalls", "CZlib",
        .product(name: "SystemPackage", package: "swift-system"),
        .product(name: "HeapModule", package: "swift-collections"),
      ]),

    .target(name: "ReleaseDownload", dependencies: ["ReleaseFormat"]),
    // MARK: The compiler (Foundation allowed)
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // glibc's mallopt, for the compiler's process (LargeAllocations).
    .systemLibrary(name: "CMalloc"),
    .target(
      name: "DirectoryCompiler",
      dependencies: [
        "CZlib", "ByteCoding", "BaseFormat", "DirectoryContainer", "PhoneNormalization",
        "ProcessMetrics", "SystemCalls", "CMalloc",
        .product(name: "HeapModule", package: "swift-collections"),
      ]),

    // MARK: Tooling (Foundation allowed)
    // Live Caller ID Lookup's keyword databases from a compiled container (calldir export
    // lcidl); Protos/ holds the schemas CI decodes the output against.
    .target(
      name: "LiveLookupExport",
      dependencies: [
        "BaseFormat", "ByteCoding", "CallDirectoryLoader", "DirectoryContainer", "SystemCalls",
      ],
      exclude: ["Protos"]),
    .target(
      name: "Datasets",
      dependencies: [
        "ByteCoding", "BaseFormat", "DirectoryContainer", "DirectoryCompiler", "PhoneNormalization",
      ]),
    // The harness in three rooms, the graph one way: BenchMeasuring runs the benches and returns
    // their runs as values, BenchReporting writes them (CSV, charts, JSON, history, summaries),
    // BenchGating judges them (the checks, the verdicts, `calldir gate` and its budgets).
    .target(
      name: "BenchMeasuring",
      dependencies: [
        "ProcessMetrics", "ProcessSpawning", "Datasets", "CallDirectoryCore", "BaseFormat",
        "DirectoryContainer", "ExtensionReport", "CallDirectoryHost", "CallDirectoryApp",
        "CallDirectoryLoader", "ReleaseFormat", "CZlib", "SystemCalls",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .target(
      name: "BenchReporting",
      dependencies: [
        "BenchMeasuring", "BaseFormat", "CallDirectoryHost", "ProcessMetrics", "SystemCalls",
      ]),
    .target(
      name: "BenchGating",
      dependencies: [
        "BenchMeasuring", "BenchReporting", "BaseFormat", "CallDirectoryCore", "Datasets",
        "DirectoryContainer", "ProcessMetrics", "ProcessSpawning", "ReleaseFormat",
        .product(name: "Yams", package: "Yams"),
      ]),
    .executableTarget(
      name: "calldir",
      dependencies: [
        "BenchMeasuring", "BenchReporting", "BenchGating", "Datasets", "BaseFormat", "ByteCoding",
        "CallDirectoryHost",
        "CallDirectoryApp",
        "CallDirectoryLoader", "CallDirectoryCore", "PhoneNormalization", "DirectoryCompiler",
        "DirectoryContainer", "ProcessMetrics", "ProcessSpawning", "ReleaseFormat",
        "ReleaseDownload", "FaultInjection", "LiveLookupExport", "SystemCalls", "HeapProbe",
        .product(name: "SystemPackage", package: "swift-system"),
        // Not linked: listed so that `swift run calldir` also builds the measured executables,
        // which `calldir bench` spawns from its own directory.
        "calldir-extension", "calldir-baselines", "calldir-patch",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // MARK: Tests
    .target(
      name: "TestSupport", dependencies: ["Datasets", "FaultInjection", "ProcessSpawning"],
      path: "Tests/TestSupport"),
    .target(
      name: "ReleaseServer",
      dependencies: [
        "CZlib", "DirectoryContainer", .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Tests/ReleaseServer"),
    .executableTarget(
      name: "calldir-chain-release",
      dependencies: ["BaseFormat", "DirectoryContainer", "ReleaseFormat"],
      path: "Tests/Fixtures/PatchChainRelease"),
    .executableTarget(
      name: "calldir-misbehaving-extension", dependencies: ["CallDirectoryCore", "SystemChannel"],
      path: "Tests/Fixtures/MisbehavingExtension"),
    .target(
      name: "HostTestSupport",
      dependencies: [
        "CallDirectoryHost", "CallDirectoryApp", "CallDirectoryLoader", "BaseFormat",
        "ProcessSpawning", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
      ],
      path: "Tests/HostTestSupport"),
    .testTarget(
      name: "CallDirectoryHostTests",
      dependencies: [
        "CallDirectoryHost", "CallDirectoryCore", "CallDirectoryApp", "CallDirectoryLoader",
        "ProcessSpawning", "HostTestSupport", "TestSupport", "calldir-misbehaving-extension",
      ]),
    .testTarget(
      name: "CallDirectoryAppTests",
      dependencies: [
        "CallDirectoryApp", "CallDirectoryHost", "CallDirectoryCore", "CallDirectoryLoader",
        "BaseFormat", "Datasets", "DirectoryCompiler", "DirectoryContainer",
        "HostTestSupport", "ReleaseFormat", "SystemCalls",
        .product(name: "SystemPackage", package: "swift-system"),
        "TestSupport", "calldir-extension",
      ]),
    .testTarget(
      name: "ProcessSpawningTests",
      dependencies: [
        "ByteCoding", "ProcessMetrics", "ProcessSpawning", "SystemCalls", "TestSupport",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .testTarget(
      name: "DirectoryContainerTests",
      dependencies: ["DirectoryContainer", "BaseFormat", "ByteCoding", "TestSupport"]),
    .testTarget(
      name: "CallDirectoryLoaderTests",
      dependencies: [
        "CallDirectoryLoader", "DirectoryContainer", "BaseFormat", "Datasets", "TestSupport",
      ]),
    .testTarget(name: "DatasetsTests", dependencies: ["Datasets", "BaseFormat", "TestSupport"]),
    .testTarget(name: "ProcessMetricsTests", dependencies: ["ProcessMetrics"]),
    .testTarget(
      name: "ExtensionReportTests", dependencies: ["ExtensionReport", "CallDirectoryCore"]),
    .testTarget(
      name: "PhoneNormalizationTests", dependencies: ["PhoneNormalization"], exclude: ["Vectors"]),
    .testTarget(name: "ByteCodingTests", dependencies: ["ByteCoding"]),
    .testTarget(
      name: "ReleaseFormatTests",
      dependencies: [
        "ReleaseFormat", "ReleaseDownload", "BaseFormat", "DirectoryContainer", "SystemChannel",
        "TestSupport",
      ]),
    // Runs the built `calldir`: listed so that `swift test` builds it first.
    .testTarget(
      name: "CommandLineTests",
      dependencies: [
        "TestSupport", "calldir", "calldir-fuzz", "DirectoryContainer", "BaseFormat",
        "CallDirectoryCore", "CallDirectoryHost", "CallDirectoryLoader", "Datasets", "SystemCalls",
        "FaultInjection",
        "ReleaseDownload", "ReleaseFormat", "ReleaseServer",
      ],
      exclude: ["Help"]),
    .testTarget(
      name: "SystemChannelTests",
      dependencies: [
        "SystemChannel", "CallDirectoryCore",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .testTarget(
      name: "DirectoryCompilerTests",
      dependencies: [
        "DirectoryCompiler", "BaseFormat", "ByteCoding", "CallDirectoryLoader", "Datasets",
        "DirectoryContainer",
        "PhoneNormalization", "TestSupport", "SystemCalls",
      ]),
    .testTarget(
      name: "CallDirectoryCoreTests", dependencies: ["CallDirectoryCore"]),
    .testTarget(
      name: "LiveLookupExportTests",
      dependencies: [
        "LiveLookupExport", "BaseFormat", "DirectoryContainer", "TestSupport",
      ]),
    .testTarget(
      name: "BaseFormatTests",
      dependencies: [
        "BaseFormat", "ByteCoding", "CallDirectoryCore", "CallDirectoryLoader", "TestSupport",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .testTarget(
      name: "BenchHarnessTests",
      dependencies: [
        "BenchMeasuring", "BenchReporting", "BenchGating", "Datasets", "BaseFormat",
        "CallDirectoryHost", "CallDirectoryLoader",
        "DirectoryContainer", "ProcessMetrics", "ProcessSpawning", "ExtensionReport", "TestSupport",
        "DirectoryCompiler",
      ]),
  ]
)

// MARK: Strict memory safety (SE-0458, issue 57)

/// Targets left out of strict memory safety: none. Each room's unsafe uses are acknowledged one
/// by one (`unsafe`), with the invariant that makes them safe in a `// Safe:` comment beside
/// them (issue 57, item 1).
let roomTargetsNotYetStrict: Set<String> = []
// Every target of Sources/ compiles in strict memory safety, and an unacknowledged unsafe
// use there is an error: code without a room cannot use unsafe constructs at all, and a room
// says `unsafe` at each use, with the invariant that makes it safe in a `// Safe:` comment
// beside it. (Tests/ and its fixtures are not: they lend arrays' bytes freely, and nothing they
// hold ships.)
for target in package.targets
where target.type != .system && target.type != .test && target.path == nil
  && !roomTargetsNotYetStrict.contains(target.name)
{
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error),
    ]
}
