#if canImport(Glibc)
import Glibc
#endif
internal import SystemCalls
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import UniformTypeIdentifiers

/// Google's Magika model (a small neural network over a file's first and last kilobyte, Apache-2.0), asked
/// through ONNX Runtime's C API when both are installed, for text that nothing else names: a file with no
/// name uti knows whose content every other reader leaves plain text (a script without `#!`, source pasted
/// into an upload). Nothing is downloaded, and without them identification is what it always is.
///
/// It is asked only when identification is told to (`FileIdentifier.Options.usesModel`; `uti identify --model`,
/// `uti-server --model`; `UTI_MAGIKA=on` in the environment), so that the same file gets the same answer on every
/// machine, whatever Python packages happen to be installed there.
///
/// Where it looks, first found wins:
/// - `UTI_MAGIKA=off` turns the model off, even where it is asked for.
/// - The model: `UTI_MAGIKA_MODEL` (a directory holding `model.onnx` and `config.min.json`), else the
///   newest `magika/models/standard_v3_*` of Python's `magika` package (`pip install magika`) in
///   `$PYTHONPATH`, `$VIRTUAL_ENV`, the user's site-packages and the system's.
/// - ONNX Runtime: `UTI_ONNXRUNTIME_LIBRARY` (a path to `libonnxruntime.so`), else the copy in Python's
///   `onnxruntime` package beside the model's, else the system's `libonnxruntime.so.1`.
///
/// Both are loaded the first time a file asks, once per process; a model that cannot be loaded (a damaged
/// configuration, an ONNX Runtime too old) is reported by `MagikaModel.status` and never asked again.
///
/// Sendable by ONNX Runtime's rule: a session's `Run` may be called from any number of threads at once, and
/// nothing here changes after loading.
public final class MagikaModel: @unchecked Sendable {
    /// The model's name (`standard_v3_3`), for evidence.
    public let name: String
    /// The directory the model was read from.
    public let directory: String
    /// The ONNX Runtime library that runs it, and its version.
    public let runtime: String
    /// The version the loaded ONNX Runtime reports for itself (`1.20.1`), or `?` when it does not say.
    public let runtimeVersion: String

    let configuration: Configuration
    private let api: API
    private let session: OpaquePointer
    private let memory: OpaquePointer

    /// What Magika's model says of some bytes: its label, the type uti gives that label, and the score.
    public struct Prediction: Sendable, Hashable {
        /// Magika's label after its overwrite map (`python`, `txt`, `unknown`).
        public var label: String
        /// The model's probability for the label, 0 to 1.
        public var score: Double
        /// Whether the score reaches the label's threshold (Magika's own, else its medium confidence) and
        /// `minimumScore`.
        public var isConfident: Bool
    }

    /// The lowest score uti takes, whatever Magika's threshold for the label: the model is asked only about
    /// text every other reader left plain, where a guess below it was wrong more often than right on the
    /// files installed under `/usr` (Benchmarks/realtrees.py; the Identification article of the FileIdentification catalog).
    public static let minimumScore = 0.8

    /// Whether the environment asks for the model: `UTI_MAGIKA` is `on` (or `1`, `yes`, `true`), the default of
    /// `FileIdentifier.Options.usesModel`.
    public static var isRequestedByEnvironment: Bool {
        guard let value = environment("UTI_MAGIKA")?.lowercased() else { return false }
        return ["on", "1", "yes", "true"].contains(value)
    }

    /// The model, when one is installed and loads; `nil` otherwise (see `status`).
    public static var shared: MagikaModel? {
        if case .success(let model) = loaded { return model }
        return nil
    }

    /// What happened when the model was looked for: `loaded ...`, `off`, `not installed ...` or why it failed.
    public static var status: String {
        switch loaded {
        case .success(let model): "loaded \(model.name) from \(model.directory) with ONNX Runtime \(model.runtimeVersion) (\(model.runtime))"
        case .failure(let failure): failure.description
        }
    }

    private static let loaded: Result<MagikaModel, LoadFailure> = Result { () throws(LoadFailure) in try load() }

    /// Why there is no model.
    struct LoadFailure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Predicting

    /// The prediction for the bytes of `source`, `nil` when there are too few (after white space) for the
    /// model, as Magika itself decides.
    func predict(_ source: some ByteSource) throws(IdentificationError.Reason) -> Prediction? {
        let window = min(configuration.blockSize, source.count)
        guard source.count >= configuration.minimumSize, window > 0 else { return nil }
        let head = try source.bytes(at: 0, length: window)
        let tail = source.count <= window ? head : try source.bytes(at: source.count - window, length: window)
        guard let features = configuration.features(head: head, tail: tail) else { return nil }
        FaultInjection.passModelGate()
        guard let probabilities = run(features), probabilities.count == configuration.labels.count,
              let best = probabilities.indices.max(by: { probabilities[$0] < probabilities[$1] }) else { return nil }
        let modelLabel = configuration.labels[best]
        let label = configuration.overwrite[modelLabel] ?? modelLabel
        let score = Double(probabilities[best])
        let threshold = max(configuration.thresholds[modelLabel] ?? configuration.mediumConfidence, Self.minimumScore)
        return Prediction(label: label, score: score, isConfident: score >= threshold)
    }

    /// The model's output for one feature vector; `nil` when ONNX Runtime reports an error.
    private func run(_ features: [Int32]) -> [Float]? {
        var features = features
        var shape: [Int64] = [1, Int64(features.count)]
        return features.withUnsafeMutableBytes { data -> [Float]? in
            var input: OpaquePointer?
            guard api.check(api.createTensor(memory, data.baseAddress, data.count, &shape, shape.count, API.int32Element, &input)),
                  let input else { return nil }
            defer { api.releaseValue(input) }
            var output: OpaquePointer?
            let ran = "bytes".withCString { inputName in
                "target_label".withCString { outputName in
                    var inputNames: [UnsafePointer<CChar>?] = [inputName]
                    var outputNames: [UnsafePointer<CChar>?] = [outputName]
                    var inputs: [OpaquePointer?] = [input]
                    return api.check(api.run(session, nil, &inputNames, &inputs, 1, &outputNames, 1, &output))
                }
            }
            guard ran, let output else { return nil }
            defer { api.releaseValue(output) }
            var info: OpaquePointer?
            guard api.check(api.getTypeAndShape(output, &info)), let info else { return nil }
            var count = 0
            let counted = api.check(api.elementCount(info, &count))
            api.releaseTypeAndShape(info)
            var pointer: UnsafeMutableRawPointer?
            guard counted, count > 0, count <= 65_536, api.check(api.mutableData(output, &pointer)), let pointer else { return nil }
            return Array(UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: Float.self), count: count))
        }
    }

    // MARK: The configuration

    /// What `config.min.json` says of the model (version 3: the first and last bytes only).
    struct Configuration: Sendable, Equatable {
        var beginning: Int
        var end: Int
        var blockSize: Int
        var padding: Int32
        var minimumSize: Int
        var labels: [String]
        var thresholds: [String: Double]
        var overwrite: [String: String]
        var mediumConfidence: Double

        /// The members uti reads, as Foundation's `JSONDecoder` reads them; each is checked in `read`.
        private struct Members: Decodable {
            var versionMajor: Int?
            var protection: String?
            var useInputsAtOffsets: Bool?
            var midSize: Int?
            var blockSize: Int?
            var beginning: Int?
            var end: Int?
            var padding: Int?
            var minimumSize: Int?
            var labels: [String]?
            var thresholds: [String: Double]?
            var overwrite: [String: String]?
            var mediumConfidence: Double?

            enum CodingKeys: String, CodingKey {
                case versionMajor = "version_major", protection, useInputsAtOffsets = "use_inputs_at_offsets", midSize = "mid_size"
                case blockSize = "block_size", beginning = "beg_size", end = "end_size", padding = "padding_token"
                case minimumSize = "min_file_size_for_dl", labels = "target_labels_space", thresholds, overwrite = "overwrite_map"
                case mediumConfidence = "medium_confidence_threshold"
            }
        }

        /// Reads and checks a configuration (its size is bounded by its reader, `RegularFile.read(_:limit:)`); the
        /// reason names the member at fault.
        static func read(_ bytes: [UInt8]) throws(LoadFailure) -> Configuration {
            func fail(_ member: String, _ why: String) -> LoadFailure { LoadFailure(description: "config.min.json: \(member) \(why)") }
            let document: Members
            do {
                document = try JSONDecoder().decode(Members.self, from: Data(bytes))
            } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
                throw fail(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."), "is not of the type uti reads")
            } catch {
                throw LoadFailure(description: "config.min.json: not JSON (\(error))")
            }
            func integer(_ value: Int?, _ member: String, _ range: ClosedRange<Int>) throws(LoadFailure) -> Int {
                guard let value, range.contains(value) else { throw fail(member, "is not an integer in \(range)") }
                return value
            }
            func fraction(_ value: Double?, _ member: String) throws(LoadFailure) -> Double {
                guard let value, value >= 0, value <= 1 else { throw fail(member, "is not a number from 0 to 1") }
                return value
            }
            guard try integer(document.versionMajor, "version_major", 0...1000) == 3 else { throw fail("version_major", "is not 3 (the features uti computes)") }
            guard document.protection == "none" else { throw fail("protection", "is not \"none\"") }
            if document.useInputsAtOffsets == true { throw fail("use_inputs_at_offsets", "is not false") }
            guard try integer(document.midSize, "mid_size", 0...0) == 0 else { throw fail("mid_size", "is not 0") }
            let blockSize = try integer(document.blockSize, "block_size", 1...65_536)
            let beginning = try integer(document.beginning, "beg_size", 1...(blockSize - 1 > 0 ? blockSize - 1 : 1))
            let end = try integer(document.end, "end_size", 1...(blockSize - 1 > 0 ? blockSize - 1 : 1))
            let padding = try integer(document.padding, "padding_token", 0...65_535)
            let minimumSize = try integer(document.minimumSize, "min_file_size_for_dl", 1...beginning)
            guard let labels = document.labels, (2...4096).contains(labels.count) else {
                throw fail("target_labels_space", "is not a list of 2 to 4,096 labels")
            }
            guard labels.allSatisfy({ (1...64).contains($0.utf8.count) }) else { throw fail("target_labels_space", "holds a value that is no label") }
            var thresholds: [String: Double] = [:]
            for (label, value) in document.thresholds ?? [:] { thresholds[label] = try fraction(value, "thresholds.\(label)") }
            return Configuration(beginning: beginning, end: end, blockSize: blockSize, padding: Int32(padding), minimumSize: minimumSize,
                                 labels: labels, thresholds: thresholds, overwrite: document.overwrite ?? [:],
                                 mediumConfidence: try fraction(document.mediumConfidence, "medium_confidence_threshold"))
        }

        /// Magika's features: the first `blockSize` bytes without leading white space, their first
        /// `beginning` bytes padded at the end; the last `blockSize` bytes without trailing white space,
        /// their last `end` bytes padded at the start. `nil` when the beginning is padding by the
        /// minimum size: too little for the model.
        func features(head: [UInt8], tail: [UInt8]) -> [Int32]? {
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
            let start = head.firstIndex { !isSpace($0) } ?? head.endIndex
            let stop = (tail.lastIndex { !isSpace($0) }).map { $0 + 1 } ?? tail.startIndex
            let first = head[start...].prefix(beginning)
            let last = tail[..<stop].suffix(end)
            guard first.count >= minimumSize else { return nil }
            var features = first.map(Int32.init) + Array(repeating: padding, count: beginning - first.count)
            features += Array(repeating: padding, count: end - last.count) + last.map(Int32.init)
            return features
        }
    }

    // MARK: Finding and loading

    private init(name: String, directory: String, runtime: String, runtimeVersion: String, configuration: Configuration,
                 api: API, session: OpaquePointer, memory: OpaquePointer) {
        self.name = name
        self.directory = directory
        self.runtime = runtime
        self.runtimeVersion = runtimeVersion
        self.configuration = configuration
        self.api = api
        self.session = session
        self.memory = memory
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let string = String(cString: value)
        return string.isEmpty ? nil : string
    }

    /// The directories Python would import `magika` and `onnxruntime` from, in its order.
    static func packageDirectories() -> [String] {
        var roots: [String] = []
        if let path = environment("PYTHONPATH") { roots += path.split(separator: ":").map(String.init) }
        if let venv = environment("VIRTUAL_ENV") { roots += paths(matching: venv + "/lib/python3*/site-packages") }
        if let home = environment("HOME") { roots += paths(matching: home + "/.local/lib/python3*/site-packages") }
        roots += paths(matching: "/usr/local/lib/python3*/dist-packages") + paths(matching: "/usr/local/lib/python3*/site-packages")
        roots += ["/usr/lib/python3/dist-packages"]
        return roots
    }

    /// The paths `pattern` matches (glob(3)), sorted.
    static func paths(matching pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(pattern, 0, nil, &found) == 0, let list = found.gl_pathv else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { list[$0].map { String(cString: $0) } }.sorted()
    }

    /// The newest `standard_v3_*` model under `root/magika/models`, by the numbers in its name.
    static func newestModel(in root: String) -> String? {
        func version(_ path: String) -> [Int] {
            path.split(separator: "/").last.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
        }
        return paths(matching: root + "/magika/models/standard_v3_*")
            .filter { Processes.isReadable($0 + "/model.onnx") && Processes.isReadable($0 + "/config.min.json") }
            .max { version($0).lexicographicallyPrecedes(version($1)) }
    }

    private static func load() throws(LoadFailure) -> MagikaModel {
        if environment("UTI_MAGIKA") == "off" { throw LoadFailure(description: "off (UTI_MAGIKA=off)") }
        let roots = packageDirectories()
        var modelDirectory = environment("UTI_MAGIKA_MODEL")
        var modelRoot: String?
        if modelDirectory == nil {
            for root in roots {
                if let found = newestModel(in: root) { modelDirectory = found; modelRoot = root; break }
            }
        }
        guard let modelDirectory else {
            throw LoadFailure(description: "not installed (no magika/models/standard_v3_* in Python's package directories; UTI_MAGIKA_MODEL names one)")
        }
        let configuration: Configuration
        do {
            configuration = try Configuration.read(try RegularFile.read(modelDirectory + "/config.min.json", limit: 1 << 20))
        } catch let failure as LoadFailure {
            throw LoadFailure(description: "\(modelDirectory)/\(failure.description)")
        } catch {
            throw LoadFailure(description: "\(modelDirectory)/config.min.json: \(error)")
        }
        var libraries: [String] = []
        if let named = environment("UTI_ONNXRUNTIME_LIBRARY") {
            libraries = [named]
        } else {
            // The copy beside the model's package first, then the other package directories, then the system's.
            let ordered = (modelRoot.map { [$0] } ?? []) + roots.filter { $0 != modelRoot }
            for root in ordered { libraries += paths(matching: root + "/onnxruntime/capi/libonnxruntime.so*").reversed() }
            libraries.append("libonnxruntime.so.1")
        }
        var handle: UnsafeMutableRawPointer?
        var library = ""
        for candidate in libraries {
            if let opened = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) { handle = opened; library = candidate; break }
        }
        guard let handle else { throw LoadFailure(description: "no ONNX Runtime (pip install onnxruntime, or UTI_ONNXRUNTIME_LIBRARY)") }
        let api: API
        do { api = try API(handle: handle) } catch {
            dlclose(handle)
            throw LoadFailure(description: "\(library): \(error.description)")
        }
        let session = try api.session(model: modelDirectory + "/model.onnx")
        var memory: OpaquePointer?
        guard api.check(api.createCPUMemoryInfo(API.arenaAllocator, API.defaultMemory, &memory)), let memory else {
            throw LoadFailure(description: "\(library): no CPU memory info")
        }
        let name = modelDirectory.split(separator: "/").last.map(String.init) ?? modelDirectory
        let model = MagikaModel(name: name, directory: modelDirectory, runtime: library, runtimeVersion: api.version,
                                configuration: configuration, api: api, session: session, memory: memory)
        // The model's output must be one score per label: a configuration from another model is refused.
        guard let probe = model.run(configuration.features(head: Array(repeating: 0x41, count: 64), tail: Array(repeating: 0x41, count: 64)) ?? []),
              probe.count == configuration.labels.count else {
            throw LoadFailure(description: "\(modelDirectory): the model's output does not have one score for each of the \(configuration.labels.count) labels")
        }
        return model
    }

    // MARK: ONNX Runtime's C API, through its function table

    /// The entries of `OrtApi` this uses, by their index in the table (an append-only ABI: the same index
    /// in every release since API version 5).
    private struct API: @unchecked Sendable {
        typealias Status = OpaquePointer?
        typealias GetErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
        typealias CreateEnv = @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?) -> Status
        typealias OnObject = @convention(c) (OpaquePointer?) -> Status
        typealias CreateSession = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Status
        typealias Run = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<OpaquePointer?>?, Int,
                                        UnsafePointer<UnsafePointer<CChar>?>?, Int, UnsafeMutablePointer<OpaquePointer?>?) -> Status
        typealias Create = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Status
        typealias SetInteger = @convention(c) (OpaquePointer?, Int32) -> Status
        typealias CreateTensor = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int, UnsafePointer<Int64>?, Int, Int32,
                                                 UnsafeMutablePointer<OpaquePointer?>?) -> Status
        typealias MutableData = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Status
        typealias GetObject = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Status
        typealias ElementCount = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>?) -> Status
        typealias CreateCPUMemoryInfo = @convention(c) (Int32, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Status
        typealias Release = @convention(c) (OpaquePointer?) -> Void
        typealias ConfigEntry = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Status
        typealias GetApi = @convention(c) (UInt32) -> UnsafeRawPointer?
        typealias GetVersionString = @convention(c) () -> UnsafePointer<CChar>?
        typealias GetApiBase = @convention(c) () -> UnsafeRawPointer?

        static let int32Element: Int32 = 6           // ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32
        static let arenaAllocator: Int32 = 1         // OrtArenaAllocator
        static let defaultMemory: Int32 = 0          // OrtMemTypeDefault
        static let errorLogging: Int32 = 3           // ORT_LOGGING_LEVEL_ERROR
        static let allOptimizations: Int32 = 99      // ORT_ENABLE_ALL
        static let version: UInt32 = 5

        let version: String
        let errorMessage: GetErrorMessage
        let createEnv: CreateEnv
        let disableTelemetry: OnObject
        let createSession: CreateSession
        let run: Run
        let createSessionOptions: Create
        let setOptimization: SetInteger
        let setIntraOpThreads: SetInteger
        let setInterOpThreads: SetInteger
        let createTensor: CreateTensor
        let mutableData: MutableData
        let elementCount: ElementCount
        let getTypeAndShape: GetObject
        let createCPUMemoryInfo: CreateCPUMemoryInfo
        let releaseStatus: Release
        let releaseValue: Release
        let releaseTypeAndShape: Release
        let releaseSessionOptions: Release
        let configEntry: ConfigEntry

        init(handle: UnsafeMutableRawPointer) throws(LoadFailure) {
            guard let base = dlsym(handle, "OrtGetApiBase") else { throw LoadFailure(description: "not ONNX Runtime (no OrtGetApiBase)") }
            guard let apiBase = unsafeBitCast(base, to: GetApiBase.self)() else { throw LoadFailure(description: "OrtGetApiBase gave nothing") }
            let entries = apiBase.assumingMemoryBound(to: UnsafeRawPointer?.self)
            guard let getApiEntry = entries[0], let versionEntry = entries[1] else { throw LoadFailure(description: "an empty OrtApiBase") }
            version = unsafeBitCast(versionEntry, to: GetVersionString.self)().map { String(cString: $0) } ?? "?"
            guard let table = unsafeBitCast(getApiEntry, to: GetApi.self)(Self.version) else {
                throw LoadFailure(description: "ONNX Runtime \(version) does not offer API version \(Self.version)")
            }
            let functions = table.assumingMemoryBound(to: UnsafeRawPointer?.self)
            let named = version
            func entry<T>(_ index: Int, _ type: T.Type) throws(LoadFailure) -> T {
                guard let pointer = functions[index] else { throw LoadFailure(description: "ONNX Runtime \(named) lacks function \(index)") }
                return unsafeBitCast(pointer, to: type)
            }
            errorMessage = try entry(2, GetErrorMessage.self)
            createEnv = try entry(3, CreateEnv.self)
            disableTelemetry = try entry(6, OnObject.self)
            createSession = try entry(7, CreateSession.self)
            run = try entry(9, Run.self)
            createSessionOptions = try entry(10, Create.self)
            setOptimization = try entry(23, SetInteger.self)
            setIntraOpThreads = try entry(24, SetInteger.self)
            setInterOpThreads = try entry(25, SetInteger.self)
            createTensor = try entry(49, CreateTensor.self)
            mutableData = try entry(51, MutableData.self)
            elementCount = try entry(64, ElementCount.self)
            getTypeAndShape = try entry(65, GetObject.self)
            createCPUMemoryInfo = try entry(69, CreateCPUMemoryInfo.self)
            releaseStatus = try entry(93, Release.self)
            releaseValue = try entry(96, Release.self)
            releaseTypeAndShape = try entry(99, Release.self)
            releaseSessionOptions = try entry(100, Release.self)
            configEntry = try entry(130, ConfigEntry.self)
        }

        /// `true` for success (a null status); an error's status is released.
        func check(_ status: Status) -> Bool {
            guard let status else { return true }
            releaseStatus(status)
            return false
        }

        /// The message of a failed call, its status released.
        func failure(_ status: Status, _ doing: String) -> LoadFailure? {
            guard let status else { return nil }
            let message = errorMessage(status).map { String(cString: $0) } ?? "unknown error"
            releaseStatus(status)
            return LoadFailure(description: "ONNX Runtime \(version), \(doing): \(message)")
        }

        /// One session for the process: one thread per run (classify runs files in parallel already),
        /// threads that sleep rather than spin between runs, no telemetry.
        func session(model path: String) throws(LoadFailure) -> OpaquePointer {
            var environment: OpaquePointer?
            if let failure = failure(createEnv(Self.errorLogging, "uti", &environment), "creating its environment") { throw failure }
            _ = check(disableTelemetry(environment))
            var options: OpaquePointer?
            if let failure = failure(createSessionOptions(&options), "creating session options") { throw failure }
            defer { releaseSessionOptions(options) }
            _ = check(setIntraOpThreads(options, 1))
            _ = check(setInterOpThreads(options, 1))
            _ = check(setOptimization(options, Self.allOptimizations))
            _ = check(configEntry(options, "session.intra_op.allow_spinning", "0"))
            _ = check(configEntry(options, "session.inter_op.allow_spinning", "0"))
            var session: OpaquePointer?
            if let failure = failure(createSession(environment, path, options, &session), "loading \(path)") { throw failure }
            guard let session else { throw LoadFailure(description: "ONNX Runtime \(version) made no session for \(path)") }
            return session
        }
    }
}
