import Foundation
import CExtendedAttributes
import AppContainers
import ContainerTestSupport
import FileIdentification
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The library side of backups and purging: `Registry.backupItems`, `BackupExclusion`, `RunLock`,
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

    /// The value of an extended attribute of `path` (not following a link), `nil` when it has none.
    static func attribute(_ name: String, of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = lgetxattr(path, name, &buffer, buffer.count)
        return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    @Test("exclude sets the attribute and tags a directory; again changes nothing; include removes both, but a tag uti did not write")
    func excludeAndInclude() throws {
        let (workspace, container) = try Self.registered()
        let scratch = container + "/Documents/Scratch"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let exclusion = BackupExclusion(registry: workspace.registry)
        let excluded = try exclusion.exclude(RawFilePath(scratch))
        #expect(excluded.changed && excluded.tagged && excluded.bundleIdentifier == "com.example.viewer" && excluded.path == scratch)
        #expect(Self.attribute(BackupExclusion.attributeName, of: scratch) == "1")
        let tag = try Data(contentsOf: URL(filePath: scratch + "/CACHEDIR.TAG"))
        #expect(Array(tag.prefix(43)) == Array("Signature: 8a477f597d28d172789f06886806bc55".utf8))
        #expect(try exclusion.exclude(RawFilePath(scratch)).changed == false)
        let included = try exclusion.include(RawFilePath(scratch))
        #expect(included.changed && !included.tagged)
        #expect(Self.attribute(BackupExclusion.attributeName, of: scratch) == nil)
        #expect(!FileManager.default.fileExists(atPath: scratch + "/CACHEDIR.TAG"))
        #expect(try workspace.registry.backupItems().items.map(\.path.string).contains(scratch))
        // A tag someone else wrote stays, and the outcome says so.
        try Data("Signature: 8a477f597d28d172789f06886806bc55\n# mine\n".utf8).write(to: URL(filePath: scratch + "/CACHEDIR.TAG"))
        try exclusion.exclude(RawFilePath(scratch))
        #expect(try exclusion.include(RawFilePath(scratch)).tagged)
        #expect(FileManager.default.fileExists(atPath: scratch + "/CACHEDIR.TAG"))
        // Library/Caches and tmp are never backed up: they cannot be included.
        for never in ["/Library/Caches", "/tmp"] {
            let error = try #require(throws: BackupError.self) { try exclusion.include(RawFilePath(container + never)) }
            #expect(error.reason.kind == .neverBackedUp, "\(never): \(error)")
        }
    }

    @Test("the exclusion goes with the item when it is renamed or moved")
    func survivesRename() throws {
        let (workspace, container) = try Self.registered()
        let documents = container + "/Documents"
        try Data("iso".utf8).write(to: URL(filePath: documents + "/disk.iso"))
        try FileManager.default.createDirectory(atPath: documents + "/Build/objects", withIntermediateDirectories: true)
        let exclusion = BackupExclusion(registry: workspace.registry)
        try exclusion.exclude(RawFilePath(documents + "/disk.iso"))
        try exclusion.exclude(RawFilePath(documents + "/Build"))
        try FileManager.default.createDirectory(atPath: documents + "/Archive", withIntermediateDirectories: true)
        #expect(rename(documents + "/disk.iso", documents + "/Archive/renamed.iso") == 0)
        #expect(rename(documents + "/Build", documents + "/Output") == 0)
        #expect(try exclusion.isExcluded(RawFilePath(documents + "/Archive/renamed.iso")))
        let listed = try workspace.registry.backupItems(for: "com.example.viewer").items.map(\.path.string)
        #expect(listed.contains(documents + "/Archive") && !listed.contains(documents + "/Archive/renamed.iso"))
        #expect(!listed.contains { $0.hasPrefix(documents + "/Output") })
    }

    @Test("refused by where a path leads, not how it is spelt: outside, through a link out, the container itself, a link, the bundle")
    func refusedByLocation() throws {
        let (workspace, container) = try Self.registered()
        let outsideDirectory = workspace.path + "/outside"
        try FileManager.default.createDirectory(atPath: outsideDirectory, withIntermediateDirectories: true)
        let outside = outsideDirectory + "/secret.txt"
        try Data("secret".utf8).write(to: URL(filePath: outside))
        #expect(symlink(outsideDirectory, container + "/Documents/escape") == 0)
        try Data("x".utf8).write(to: URL(filePath: container + "/Documents/inside.txt"))
        #expect(symlink(container + "/Documents", workspace.path + "/into") == 0)
        let exclusion = BackupExclusion(registry: workspace.registry)
        for (path, kind) in [
            (outside, BackupError.Reason.Kind.notInContainer),
            (container + "/Documents/escape/secret.txt", .notInContainer),
            (container + "/Documents/../../../../outside/secret.txt", .notInContainer),
            (container + "/Documents/escape", .symbolicLink),
            (container, .notAnItem),
            (container + "/Documents/..", .notAnItem),
            (workspace.registry.root + "/registry.json", .notInContainer),
            (workspace.path + "/apps/com.example.viewer.app", .notAnItem),
        ] {
            let error = try #require(throws: BackupError.self, "\(path)") { try exclusion.exclude(RawFilePath(path)) }
            #expect(error.reason.kind == kind, "\(path): \(error)")
        }
        #expect(Self.attribute(BackupExclusion.attributeName, of: outside) == nil, "nothing outside was touched")
        // A path that reaches into the container through a link outside it is the container's item.
        #expect(try exclusion.exclude(RawFilePath(workspace.path + "/into/inside.txt")).path == container + "/Documents/inside.txt")
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
