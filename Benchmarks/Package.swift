// swift-tools-version:6.1
import PackageDescription

// Micro-benchmarks of the library (package-benchmark). Run from this folder:
//     swift package --disable-sandbox benchmark
// Whole-command comparisons against file(1) are the scripts beside this file.
let package = Package(
    name: "uti-benchmarks",
    dependencies: [
        .package(name: "uti", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "TypeLookups",
            dependencies: [
                .product(name: "UniformTypeIdentifiers", package: "uti"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TypeLookups",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
