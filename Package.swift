// swift-tools-version:6.0
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

let package = Package(
    name: "uti",
    products: [
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "FileIdentification", targets: ["FileIdentification"]),
        .library(name: "DocumentRouting", targets: ["DocumentRouting"]),
        .executable(name: "uti", targets: ["uti"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The built-in type database, compiled from TypeDB/*.plist by `compile-typedb` into a byte array that the
        // library reads in place: nothing is parsed at start-up.
        .target(name: "CTypeDatabase"),
        .target(
            name: "UniformTypeIdentifiers",
            dependencies: ["CTypeDatabase"],
            swiftSettings: strictness
        ),
        // libmagic, from Debian's libmagic-dev (pkg-config libmagic).
        .systemLibrary(
            name: "CMagic",
            pkgConfig: "libmagic",
            providers: [.apt(["libmagic-dev"])]
        ),
        // fts(3) for walking directory trees; Swift's Glibc module does not export it.
        .systemLibrary(name: "CFileTreeWalk"),
        .target(
            name: "FileIdentification",
            dependencies: ["UniformTypeIdentifiers", "CTypeDatabase", "CMagic", "CFileTreeWalk"],
            swiftSettings: strictness
        ),
        .target(
            name: "DocumentRouting",
            dependencies: ["FileIdentification", "UniformTypeIdentifiers"],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "compile-typedb",
            dependencies: ["UniformTypeIdentifiers"],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "uti",
            dependencies: [
                "UniformTypeIdentifiers",
                "FileIdentification",
                "DocumentRouting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "UniformTypeIdentifiersTests",
            dependencies: ["UniformTypeIdentifiers"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "FileIdentificationTests",
            dependencies: ["FileIdentification"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "DocumentRoutingTests",
            dependencies: ["DocumentRouting"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "UTICommandTests",
            dependencies: ["uti"],
            swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)
#endif
