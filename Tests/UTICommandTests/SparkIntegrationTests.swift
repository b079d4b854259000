import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Spark integration (Integrations/spark), run by its own check against `uti classify`: pyspark from
/// `.build-python` (`.ci/run` installs it) with the machine's Java.
enum SparkIntegration {
    static let repository = Tools.packageRoot
    static let python = Tools.buildPython ?? "/nonexistent/.build-python/bin/python"

    static var isAvailable: Bool {
        guard ["/usr/bin/java", "/usr/local/bin/java"].contains(where: FileManager.default.isExecutableFile(atPath:))
                || ProcessInfo.processInfo.environment["JAVA_HOME"] != nil else { return false }
        return Tools.buildPython(hasModule: "pyspark")
    }
}

@Suite("uti on Apache Spark", .serialized, .tags(.stress), Tools.wholeSuiteOnly,
       .enabled(if: SparkIntegration.isAvailable, "needs .build-python with pyspark (.ci/run installs it) and Java"))
struct SparkIntegrationTests {
    /// 2,000 files hold every case the check exists for (each kind of name at least twice, links at the root's
    /// top level) and cross partition boundaries: the listing is cut into 8 partitions, the roots' walk into
    /// as many as Spark makes. More files would measure Spark, not uti (Integrations/spark/README.md has that).
    @Test("2,000 files (unreadable, empty, names with spaces, line breaks and not UTF-8, links at the root): paths and content in local mode, roots and content on a standalone cluster of two workers, give exactly uti classify's records",
          .timeLimit(.minutes(20)))
    func sameAsClassify() throws {
        var arguments = [SparkIntegration.repository.appending(path: "Integrations/spark/tests/check_spark.py").path,
                         "--uti", UTIBinary.url.path, "--files", "2000", "--expect-unreadable"]
        let executable: URL
        if getuid() == 0 {
            // Root reads files of mode 000; without the capabilities that let it, it cannot, as anyone else.
            executable = URL(filePath: "/usr/bin/setpriv")
            arguments = ["--bounding-set", "-dac_override,-dac_read_search", SparkIntegration.python] + arguments
        } else {
            executable = URL(filePath: SparkIntegration.python)
        }
        let result = try UTIBinary.run(executable: executable, arguments)
        let report = result.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("[Stage") }.joined(separator: "\n")
        #expect(result.status == 0, "\(report)\n\(result.standardError.suffix(3000))")
        #expect(result.standardOutput.contains("all match"), "\(report)")
        for run in ["local, paths (roots)", "local, paths (listing)", "local, content", "local, missing binary", "local, uti failing",
                    "the job's listing, read", "cluster, paths (roots)", "cluster, content"] {
            #expect(result.standardOutput.contains(run + ":"), "\(run) did not run: \(report)")
        }
    }
}
