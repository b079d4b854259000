import Benchmark
import UniformTypeIdentifiers

/// Time per lookup for the operations every identification makes, on the built-in database
/// and again after 10,000 extra types are registered: the figures should not move, since every
/// lookup is a hash probe plus a walk bounded by the depth of the hierarchy.
let benchmarks: @Sendable () -> Void = {
    // Each sample times a thousand operations: one alone is shorter than reading the clock twice (on this
    // virtual machine, about 170 ns), which is what a sample of one measured.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 1_000,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    /// Registers the 10,000 extra types once, the first time a benchmark that needs them runs.
    func lookups(_ label: String, before prepare: @escaping @Sendable () -> Void = {}) {
        func measure(_ name: String, _ body: @escaping @Sendable () -> Void) {
            Benchmark("\(label) \(name)") { benchmark in
                prepare()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { body() }
                benchmark.stopMeasurement()
            }
        }
        // What a sample costs besides the operation: the loop, the closure and blackHole.
        measure("baseline: the harness alone (blackHole(true))") { blackHole(true) }
        measure("UTType(filenameExtension: \"jpg\")") { blackHole(UTType(filenameExtension: "jpg")) }
        measure("UTType(filenameExtension: \"unknownext\") (dynamic)") { blackHole(UTType(filenameExtension: "unknownext")) }
        measure("UTType(\"public.jpeg\")") { blackHole(UTType("public.jpeg")) }
        // conforms(to:) between two types the caller holds (the closure's captures), and between two constants,
        // which adds copying each out of its global (retaining its identifier) and releasing it afterwards.
        let python = UTType.pythonScript, text = UTType.text, image = UTType.image
        measure("conforms(to:) true (python -> public.text)") { blackHole(python.conforms(to: text)) }
        measure("conforms(to:) false (python -> public.image)") { blackHole(python.conforms(to: image)) }
        measure("conforms(to:) true, two constants (UTType.pythonScript -> .text)") { blackHole(UTType.pythonScript.conforms(to: .text)) }
        measure("UTType(mimeType: \"application/gzip\") (identifier of 23 bytes)") { blackHole(UTType(mimeType: "application/gzip")) }
    }

    // Benchmarks run in name order, so the ones after registration cannot rely on running later:
    // each registers the extra types first if that has not happened yet.
    lookups("built-in:")
    lookups("with 10,000 registered:", before: { _ = extraTypesRegistered })

    Benchmark("register 10,000 types in a new database", configuration: .init(scalingFactor: .one)) { benchmark in
        let database = TypeDatabase()
        benchmark.startMeasurement()
        blackHole(try? database.register(extraTypes))
        benchmark.stopMeasurement()
    }
}

let extraTypes = (0..<10_000).map { index in
    TypeDeclaration(identifier: "com.example.bench.type\(index)", conformsTo: ["public.data"],
                    tags: [.filenameExtension: ["bench\(index)"]], kind: .exported, source: "bench")
}

/// Registering in the shared database, once.
let extraTypesRegistered: Bool = (try? TypeDatabase.shared.register(extraTypes)) != nil
