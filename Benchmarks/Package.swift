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
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
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
        // Benchmarks/service.py's part 7: a bare Hummingbird route, the baseline uti-server is measured against.
        .executableTarget(
            name: "BareRoute",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Benchmarks/BareRoute"
        ),
    ],
    swiftLanguageModes: [.v6]
)
