import Foundation
import DocumentRouting
import FileIdentification
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The library side of issue 14's backup and purging: `Registry.backupItems`, `BackupExclusion`, `RunLock`,
/// `Registry.purgeCaches` and `purgeTemporary`.
@Suite("Backup and purging")
struct BackupAndPurgeTests {
    static func registered() throws -> (Workspace, String) {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.app("com.example.viewer", []))
        return (workspace, try workspace.registry.containerPath("com.example.viewer"))
    }

    @Test("backupItems lists Documents/ and Library/ depth first in byte order, without Caches, tmp or excluded items")
    func items() throws {
        let (workspace, container) = try Self.registered()
        try FileManager.default.createDirectory(atPath: container + "/Documents/B/inner", withIntermediateDirectories: true)
        try Data("a".utf8).write(to: URL(filePath: container + "/Documents/a.txt"))
        try Data("x".utf8).write(to: URL(filePath: container + "/Documents/B/inner/x"))
        try Data("c".utf8).write(to: URL(filePath: container + "/Library/Caches/c"))
        try Data("t".utf8).write(to: URL(filePath: container + "/tmp/t"))
        let exclusion = BackupExclusion(registry: workspace.registry)
        let outcome = try exclusion.exclude(RawFilePath(container + "/Documents/B/inner"))
        #expect(outcome.isDirectory && outcome.changed && outcome.tagged && outcome.relativePath == "Documents/B/inner")
        #expect(try exclusion.isExcluded(RawFilePath(container + "/Documents/B/inner")))
        let listing = try workspace.registry.backupItems()
        #expect(listing.problems.isEmpty)
        #expect(listing.items.map(\.path.string) == ["Documents", "Documents/B", "Documents/Inbox", "Documents/a.txt",
                                                     "Library", "Library/Application Support", "Library/Preferences"].map { container + "/" + $0 })
        #expect(listing.items.map(\.kind) == [.directory, .directory, .directory, .file, .directory, .directory, .directory])
        #expect(Set(listing.items.map(\.bundleIdentifier)) == ["com.example.viewer"])
    }

    @Test("exclusion errors say why, by kind", arguments: [
        ("/etc/hostname", BackupError.Reason.Kind.notInContainer),
        ("/proc/self/status", .notInContainer),
        ("/dev/null", .notAFileOrDirectory),
    ])
    func refusals(path: String, kind: BackupError.Reason.Kind) throws {
        let (workspace, _) = try Self.registered()
        let error = try #require(throws: BackupError.self) { try BackupExclusion(registry: workspace.registry).exclude(RawFilePath(path)) }
        #expect(error.reason.kind == kind, "\(error)")
    }

    @Test("RunLock: shared holders together; an exclusive taker that does not wait is turned away, and purging skips the app")
    func runLock() throws {
        let (workspace, container) = try Self.registered()
        try Data("c".utf8).write(to: URL(filePath: container + "/Library/Caches/c"))
        let first = try #require(try RunLock.acquire("com.example.viewer", in: workspace.registry))
        let second = try #require(try RunLock.acquire("com.Example.Viewer", in: workspace.registry, waiting: false))
        #expect(first.path == container + "/.uti-run.lock" && !second.isExclusive)
        #expect(try RunLock.acquire("com.example.viewer", in: workspace.registry, exclusive: true, waiting: false) == nil)
        let report = try workspace.registry.purgeCaches()
        #expect(report.removed.isEmpty && report.skipped.map(\.reason) == [.running] && report.purgedApps.isEmpty)
        withExtendedLifetime((first, second)) {}
    }

    @Test("purgeTemporary(olderThan:) compares with `now`, and a dry run removes nothing")
    func temporaryAges() throws {
        let (workspace, container) = try Self.registered()
        try Data("t".utf8).write(to: URL(filePath: container + "/tmp/t"))
        let times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, container + "/tmp/t", times, 0) == 0)
        #expect(try workspace.registry.purgeTemporary(olderThan: .seconds(100), now: 1_000_050).removed.isEmpty)
        let dry = try workspace.registry.purgeTemporary(olderThan: .seconds(100), dryRun: true, now: 1_000_100)
        #expect(dry.dryRun && dry.removed.map(\.path.string) == [container + "/tmp/t"] && dry.removed.first?.lastUsed == 1_000_000)
        #expect(FileManager.default.fileExists(atPath: container + "/tmp/t"))
        let done = try workspace.registry.purgeTemporary(olderThan: .seconds(100), now: 1_000_100)
        #expect(done.removed.count == 1 && done.failures.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: container + "/tmp") == ["CACHEDIR.TAG"])
    }

    @Test("naming an app that is not registered is an error, before anything is touched")
    func notRegistered() throws {
        let (workspace, _) = try Self.registered()
        let error = try #require(throws: RegistryError.self) { try workspace.registry.purgeCaches(apps: ["com.example.nobody"]) }
        #expect(error.reason.kind == .notRegistered)
    }
}
