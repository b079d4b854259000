import Benchmark
import UniformTypeIdentifiers

/// Nanoseconds per lookup for the operations every identification makes, on the built-in database
/// and again after 10,000 extra types are registered: the figures should not move, since every
/// lookup is a hash probe plus a walk bounded by the depth of the hierarchy.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 1_000,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    func lookups(_ label: String) {
        Benchmark("\(label) UTType(filenameExtension: \"jpg\")") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(UTType(filenameExtension: "jpg")) }
        }
        Benchmark("\(label) UTType(filenameExtension: \"unknownext\") (dynamic)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(UTType(filenameExtension: "unknownext")) }
        }
        Benchmark("\(label) UTType(mimeType: \"application/gzip\")") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(UTType(mimeType: "application/gzip")) }
        }
        Benchmark("\(label) UTType(\"public.jpeg\")") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(UTType("public.jpeg")) }
        }
        let python = UTType.pythonScript
        Benchmark("\(label) conforms(to:) true (python -> public.text)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(python.conforms(to: .text)) }
        }
        Benchmark("\(label) conforms(to:) false (python -> public.image)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(python.conforms(to: .image)) }
        }
    }

    lookups("built-in:")

    Benchmark("register 10,000 extra types") { benchmark in
        // Runs once; the lookups below then see a database of built-in + 10,000 types.
        guard TypeDatabase.shared.declarations.count < 10_000 else { return }
        let extra = (0..<10_000).map { index in
            TypeDeclaration(identifier: "com.example.bench.type\(index)", conformsTo: ["public.data"],
                            tags: [.filenameExtension: ["bench\(index)"]], kind: .exported, source: "bench")
        }
        benchmark.startMeasurement()
        _ = try? TypeDatabase.shared.register(extra)
        benchmark.stopMeasurement()
    }

    lookups("+10,000 registered:")
}
