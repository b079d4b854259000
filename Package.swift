// swift-tools-version:6.1
import PackageDescription

// On Apple platforms the system's UniformTypeIdentifiers framework is the real thing: this package must not
// shadow it, so the module and everything built on our extensions of it exist only where the system has none.
#if canImport(Darwin)
let package = Package(name: "uti", products: [], targets: [])
#else
let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Release builds of the executables carry the Swift runtime, and the C++ runtime it needs, inside them: what
// `swift build -c release` makes starts without loading and relocating the toolchain's shared libraries
// (a third of `uti identify`'s start-up, docs/Performance.md) and runs on a machine without Swift. The C++
// runtime comes from its static archive through the linker script in Packaging/link; libgcc likewise.
// Only these two executables link so: a client of the library products builds as it chooses.
// (`-static-stdlib` when compiling too: objects compiled so name the static libraries their imports need.)
let selfContainedRelease: (swift: [SwiftSetting], linker: [LinkerSetting]) = (
    [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
    [.unsafeFlags(["-static-stdlib", "-L", "\(Context.packageDirectory)/Packaging/link", "-Xclang-linker", "-static-libgcc"],
                  .when(configuration: .release))]
)

let package = Package(
    name: "uti",
    products: [
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "FileIdentification", targets: ["FileIdentification"]),
        .library(name: "AppContainers", targets: ["AppContainers"]),
        .library(name: "DocumentRouting", targets: ["DocumentRouting"]),
        .library(name: "ContainerSync", targets: ["ContainerSync"]),
        .executable(name: "uti", targets: ["uti"]),
        .executable(name: "uti-server", targets: ["uti-server"]),
    ],
    traits: [
        .trait(
            name: "BuiltInSharedMIMEInfo",
            description: """
                Compile shared-mime-info 2.4's content rules (and Apache Tika's own types) into FileIdentification, so \
                that machines with an older or no shared-mime-info identify as well as newer ones. That data is \
                GPL-2.0-or-later (see NOTICE); without this trait, identification reads the system's /usr/share/mime only.
                """
        ),
        .default(enabledTraits: ["BuiltInSharedMIMEInfo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // Without Hummingbird's default traits: its swift-configuration readers (a package of 48 sources, built in
        // every build) and the URL-encoded form coder's full Foundation, neither of which uti uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Already in the graph through Hummingbird; named for the channel handler that cuts off slow clients and
        // for the service group that bounds graceful shutdown.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation`: the libraries' DocC reference (docs/Testing.md, Packaging/build-docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The one place system calls are made: swift-system's FilePath, FileDescriptor and Errno, and what it
        // lacks (openat and the other *at calls, whole writes under RLIMIT_FSIZE, atomic replacement, tree
        // removal through descriptors). Not a product: clients see its effects, not its API.
        // Fault injection (`UTI_FAULT_INJECTION_KILL_AT`, for the crash tests) exists in debug builds only.
        .target(
            name: "SystemCalls",
            dependencies: ["CExtendedAttributes", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness + [.define("UTI_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        // The built-in type database, compiled from TypeDB/*.plist by `compile-typedb` into a byte array that the
        // library reads in place: nothing is parsed at start-up.
        .target(name: "CTypeDatabase"),
        // Byte scans in C: a literal's search by its first and last bytes (AVX2, SSE2), text's control characters,
        // memrchr (which Swift's Glibc module leaves out), PRONOM's filters of near literals.
        .target(name: "CByteScan"),
        .target(
            name: "UniformTypeIdentifiers",
            dependencies: ["CTypeDatabase", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        // shared-mime-info 2.4's compiled files (TypeDB/mime) as byte arrays; GPL-2.0-or-later data, linked only
        // with the BuiltInSharedMIMEInfo trait.
        .target(name: "CSharedMIMEInfo"),
        // libmagic, from Debian's libmagic-dev (pkg-config libmagic).
        .systemLibrary(
            name: "CMagic",
            pkgConfig: "libmagic",
            providers: [.apt(["libmagic-dev"])]
        ),
        // PCRE2, for GitHub Linguist's heuristics (Ruby's patterns, which PCRE2 reads as Ruby does).
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // libarchive's declarations, from Debian's libarchive-dev: the library is loaded with dlopen when archives'
        // members are read (FileIdentification's LibArchive), so that nothing else pays for loading it.
        .systemLibrary(
            name: "CArchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // zlib, from Debian's zlib1g-dev: ZIP entries' contents inflated for PRONOM's container signatures.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Extended attributes (getxattr(2) and kin), for the backup exclusion; Glibc's module lacks them too.
        .systemLibrary(name: "CExtendedAttributes"),
        .target(
            name: "FileIdentification",
            dependencies: [
                "UniformTypeIdentifiers", "CTypeDatabase", "CByteScan", "SystemCalls", "CMagic", "CPCRE2", "CArchive", "CZlib",
                .product(name: "SystemPackage", package: "swift-system"),
                .target(name: "CSharedMIMEInfo", condition: .when(traits: ["BuiltInSharedMIMEInfo"])),
            ],
            swiftSettings: strictness
        ),
        // The apps and their sandboxes: manifests, the registry, containers, application groups, iCloud
        // containers' directories, backup and purging. The two below build on it; it knows neither.
        .target(
            name: "AppContainers",
            dependencies: [
                "FileIdentification", "UniformTypeIdentifiers", "SystemCalls",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictness
        ),
        // Routing: a file or an upload identified and delivered into the Inbox of the app that handles it.
        .target(
            name: "DocumentRouting",
            dependencies: [
                "AppContainers", "FileIdentification", "UniformTypeIdentifiers", "SystemCalls",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictness
        ),
        // The sync of iCloud containers through rclone, and the key-value store: a program that routes
        // uploads does not link it.
        .target(
            name: "ContainerSync",
            dependencies: [
                "AppContainers", "UniformTypeIdentifiers", "SystemCalls",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictness
        ),
        // Build tooling, never linked by clients: the writer of the compiled format and the C sources.
        .target(
            name: "TypeDatabaseCompiler",
            dependencies: ["UniformTypeIdentifiers", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "compile-typedb",
            dependencies: ["TypeDatabaseCompiler"],
            swiftSettings: strictness
        ),
        // What the command line and the service print: the JSON objects of identifications and types.
        .target(
            name: "UTIReports",
            dependencies: ["FileIdentification", "UniformTypeIdentifiers", "AppContainers"],
            swiftSettings: strictness
        ),
        // The HTTP service (`uti serve`): identification, types and routing over HTTP, on Hummingbird. Not a
        // product: its API is this package's own (`package` access), for uti-server and the tests. A
        // separate executable, so that `uti` does not link SwiftNIO: linked in, it cost `uti identify` 14 to
        // 24 % of its start-up (measured in one run, docs/Performance.md).
        .target(
            name: "UTIService",
            dependencies: [
                "FileIdentification", "UniformTypeIdentifiers", "AppContainers", "DocumentRouting", "UTIReports",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            // The HTTP API's one description, compiled in (`GET /openapi.json` serves these bytes; the
            // repository's top-level `openapi.json` is a link to it).
            // The page at `/` (Page/), served as it is: no build step, nothing fetched from elsewhere.
            resources: [.embedInCode("openapi.json"), .embedInCode("Page/index.html"), .embedInCode("Page/uti.js"), .embedInCode("Page/uti.css")],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "uti-server",
            dependencies: [
                "UTIService", "FileIdentification", "UniformTypeIdentifiers", "AppContainers", "SystemCalls", "UTIReports",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness + selfContainedRelease.swift,
            linkerSettings: selfContainedRelease.linker
        ),
        // OpenSSL's libcrypto, from Debian's libssl-dev: the digests of `uti classify --hash`.
        .systemLibrary(
            name: "CLibcrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Digests of files' contents (libcrypto's) for `uti classify --hash`: a module of its own, so that what
        // links FileIdentification alone (the fuzz targets among them) links no cryptography.
        .target(
            name: "ContentDigests",
            dependencies: [
                "FileIdentification", "SystemCalls", "CLibcrypto",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "uti",
            dependencies: [
                "UniformTypeIdentifiers",
                "FileIdentification",
                "ContentDigests",
                "AppContainers",
                "DocumentRouting",
                "ContainerSync",
                "SystemCalls",
                "UTIReports",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictness + selfContainedRelease.swift,
            linkerSettings: selfContainedRelease.linker
        ),
        // What the test targets share: temporary directories, crafted databases, what the machine offers.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictness),
        .testTarget(
            name: "UniformTypeIdentifiersTests",
            dependencies: ["UniformTypeIdentifiers", "TypeDatabaseCompiler", "TestSupport", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "FileIdentificationTests",
            dependencies: ["FileIdentification", "TypeDatabaseCompiler", "TestSupport", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        // What the three test targets of the apps' side share: a registry and app bundles made for one test.
        .target(name: "ContainerTestSupport", dependencies: ["AppContainers", "TestSupport"], path: "Tests/ContainerTestSupport", swiftSettings: strictness),
        .testTarget(
            name: "AppContainersTests",
            dependencies: ["AppContainers", "ContainerTestSupport", "TestSupport", "CExtendedAttributes", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "DocumentRoutingTests",
            dependencies: ["DocumentRouting", "AppContainers", "ContainerTestSupport", "TestSupport", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ContainerSyncTests",
            dependencies: ["ContainerSync", "AppContainers", "ContainerTestSupport", "TestSupport", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "UTICommandTests",
            dependencies: ["uti", "uti-server", "TestSupport", "CExtendedAttributes"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "UTIServiceTests",
            dependencies: [
                "uti-server", "UTIService", "UTIReports", "AppContainers", "DocumentRouting", "FileIdentification", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzz targets (Fuzz/README.md), only when asked for: `UTI_FUZZING=1 swift build -c release
// -Xswiftc -sanitize=fuzzer,address --product FuzzZip`.
if Context.environment["UTI_FUZZING"] != nil {
    // SwiftPM names an executable's entry point `<Module>_main`; this C shim hands it to libFuzzer's driver.
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/Targets/CFuzzDriver"))
    for (name, dependencies) in [
        ("FuzzIdentify", ["FileIdentification"]), ("FuzzDeclarations", ["UniformTypeIdentifiers"]), ("FuzzManifest", ["AppContainers"]),
        ("FuzzZip", ["FileIdentification"]), ("FuzzOLE2", ["FileIdentification"]), ("FuzzModelConfiguration", ["FileIdentification"]),
        ("FuzzFramedRecords", ["FileIdentification"]), ("FuzzSyncedFiles", ["ContainerSync"]), ("FuzzArchive", ["FileIdentification"]),
    ] {
        package.targets.append(.executableTarget(
            name: name, dependencies: (dependencies + ["CFuzzDriver"]).map { .target(name: $0) }, path: "Fuzz/Targets/\(name)",
            swiftSettings: strictness))
        package.products.append(.executable(name: name, targets: [name]))
    }
}
#endif
