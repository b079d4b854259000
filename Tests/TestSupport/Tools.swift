public import Foundation
public import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What this machine offers the tests that need more than the package: each check is what a test's
/// `.enabled(if:)` condition reads, so a test that cannot run here is reported as skipped, with the reason.
public enum Tools {
    /// Whether an executable is on the usual paths.
    public static func has(_ name: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
    }

    /// Whether the tests run as root, so that permissions can be taken away only from another user.
    public static var isRoot: Bool { getuid() == 0 }

    /// Whether a file can be made unreadable to the test's process: as root, only through `setpriv` (run as `nobody`).
    public static var canTakePermissionsAway: Bool { !isRoot || has("setpriv") }

    /// Whether a small tmpfs can be mounted here: tried once, on a directory of its own, and unmounted.
    public static let canMountTmpfs: Bool = canMount(.tmpfs(size: "64k"))

    /// Whether a ramfs can be mounted here (a file system that keeps no user extended attributes): tried
    /// once, on a directory of its own, and unmounted.
    public static let canMountRamfs: Bool = canMount(.ramfs)

    /// Whether a file system of `kind` can be mounted here: tried once, on a directory of its own, and unmounted.
    private static func canMount(_ kind: TemporaryMount.Kind) -> Bool {
        guard isRoot, has("mount"), has("umount"), let directory = try? TemporaryDirectory(prefix: "uti-mount-probe") else { return false }
        return (try? TemporaryMount(kind, in: directory)) != nil
    }

    /// Runs a program to its end, output discarded; whether it exited 0.
    public static func run(_ executable: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }

    /// The shared sample-file corpora (`../shared/corpora` beside the package), which only some machines have.
    public static let corpora: URL = packageRoot.deletingLastPathComponent().appending(path: "shared/corpora")

    public static var hasCorpora: Bool { FileManager.default.fileExists(atPath: corpora.appending(path: "README.md").path) }

    /// The package's root directory.
    public static let packageRoot: URL = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Python of the repository's `.build-python` environment (which `.ci/run` makes: Tika's client,
    /// schemathesis, pyspark, Magika), `nil` when there is none.
    public static let buildPython: String? = {
        let python = packageRoot.appending(path: ".build-python/bin/python").path
        return FileManager.default.isExecutableFile(atPath: python) ? python : nil
    }()

    /// Whether `.build-python` can import `module`.
    public static func buildPython(hasModule module: String) -> Bool {
        guard let buildPython else { return false }
        let process = Process()
        process.executableURL = URL(filePath: buildPython)
        process.arguments = ["-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The site-packages directory of the repository's `.build-python` environment (which `.ci/run` makes)
    /// when it holds both Magika's model and ONNX Runtime: what `PYTHONPATH` names for uti to find them.
    public static let magikaPackages: String? = {
        let lib = packageRoot.appending(path: ".build-python/lib")
        guard let versions = try? FileManager.default.contentsOfDirectory(atPath: lib.path) else { return nil }
        for version in versions.sorted() where version.hasPrefix("python3") {
            let site = lib.appending(path: "\(version)/site-packages")
            let models = site.appending(path: "magika/models")
            let runtime = site.appending(path: "onnxruntime/capi")
            let hasModel = ((try? FileManager.default.contentsOfDirectory(atPath: models.path)) ?? []).contains { $0.hasPrefix("standard_v3") }
            let hasRuntime = ((try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []).contains { $0.hasPrefix("libonnxruntime.so") }
            if hasModel && hasRuntime { return site.path }
        }
        return nil
    }()

    /// Why a test that needs Magika's model is skipped.
    public static let needsMagika: Comment = "Python's magika and onnxruntime are not installed in .build-python (.ci/run installs them)"
}

extension Tools {
    /// Whether this build carries shared-mime-info 2.4's rules (the package trait `BuiltInSharedMIMEInfo`,
    /// which this test target sees as the library does).
    public static var hasBuiltInSharedMIMEInfo: Bool {
        #if BuiltInSharedMIMEInfo
        true
        #else
        false
        #endif
    }

    /// The reason given for skipping a test that needs the built-in shared-mime-info rules.
    public static let needsBuiltInSharedMIMEInfo: Comment = "needs shared-mime-info 2.4 built in (the BuiltInSharedMIMEInfo trait)"
}

extension Tag {
    /// Long stress tests (large trees, many processes, kill -9, big deliveries): the whole suite runs them,
    /// the fast lane leaves them out (see `Tools.wholeSuiteOnly`).
    @Tag public static var stress: Tag
}

extension Tools {
    /// Enables a test that runs rclone (Debian's package, which `.ci/run` installs).
    public static var needsRclone: ConditionTrait {
        .enabled(if: has("rclone"), "needs rclone (apt-get install rclone)")
    }

    /// Enables a test that asks a server with curl.
    public static var needsCurl: ConditionTrait {
        .enabled(if: has("curl"), "needs curl (apt-get install curl)")
    }
}

extension Tools {
    /// Whether this run is the fast lane: `UTI_TEST_LANE=fast swift test`.
    public static var isFastLane: Bool { ProcessInfo.processInfo.environment["UTI_TEST_LANE"] == "fast" }

    /// The condition of a stress test: skipped in the fast lane, run by `swift test` (the whole suite, what CI runs).
    public static var wholeSuiteOnly: ConditionTrait {
        .enabled(if: !isFastLane, "a stress test: the fast lane (UTI_TEST_LANE=fast) leaves it out")
    }
}

extension Tools {
    /// Whether the binaries under test carry fault injection (`UTI_FAULT_INJECTION_KILL_AT`,
    /// `UTI_FAULT_INJECTION_FAIL_SYNC`): debug builds do, release builds do not (see SystemCalls' FaultInjection).
    public static var hasFaultInjection: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// Enables a test only where the binaries carry fault injection.
    public static var needsFaultInjection: ConditionTrait {
        .enabled(if: hasFaultInjection, "fault injection exists in debug builds only")
    }
}

extension Tools {
    /// An executable product of this package (`uti`, `uti-server`), found in the build products directory that
    /// holds the running test bundle: the binary the tests run, as a person or a script would.
    public static func builtProduct(_ name: String) -> URL {
        let executable = URL(filePath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().appending(path: name)
    }
}
