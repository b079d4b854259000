import Foundation
import AppContainers
import ContainerTestSupport
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Purging caches through the library: what goes, in which order, and what is never touched. (The command
/// line's options, output and exit statuses for the same: PurgeCommandTests.)
@Suite("Purging caches, in the library")
struct PurgeTests {
    /// A registered app whose caches hold entries of known ages (oldest first: `c`, `d/`, `a`, `b`, then a link
    /// to a file outside), beside documents and application support.
    struct Populated {
        let workspace: Workspace
        let container: String
        let outside: String
        var caches: String { container + "/Library/Caches" }

        init() throws {
            workspace = try Workspace()
            try workspace.app("com.example.viewer", [.init(types: ["public.image"])])
            try workspace.registry.register(appAt: workspace.path + "/apps/com.example.viewer.app")
            container = workspace.registry.root + "/Containers/com.example.viewer"
            outside = workspace.path + "/outside.txt"
            try Data("outside".utf8).write(to: URL(filePath: outside))
            let caches = container + "/Library/Caches"
            try FileManager.default.createDirectory(atPath: caches + "/d/inner", withIntermediateDirectories: true)
            for (name, size) in [("a", 5_000), ("b", 1), ("c", 20_000), ("d/inner/x", 9_000)] {
                try Data(repeating: 0x61, count: size).write(to: URL(filePath: caches + "/" + name))
            }
            #expect(symlink(outside, caches + "/link-out") == 0)
            for (name, seconds) in [("c", 1_000_000_000), ("d/inner/x", 1_100_000_000), ("d/inner", 1_100_000_000), ("d", 1_100_000_000),
                                    ("a", 1_200_000_000), ("b", 1_300_000_000), ("link-out", 1_400_000_000)] {
                let times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
                #expect(utimensat(AT_FDCWD, caches + "/" + name, times, AT_SYMLINK_NOFOLLOW) == 0)
            }
            try Data("keep".utf8).write(to: URL(filePath: container + "/Documents/keep.txt"))
            try Data("db".utf8).write(to: URL(filePath: container + "/Library/Application Support/store.db"))
        }

        func expectUntouched() throws {
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "outside", "the link's target is untouched")
            #expect(try String(contentsOfFile: container + "/Documents/keep.txt", encoding: .utf8) == "keep")
            #expect(try String(contentsOfFile: container + "/Library/Application Support/store.db", encoding: .utf8) == "db")
            #expect(FileManager.default.fileExists(atPath: caches + "/CACHEDIR.TAG"), "the tag stays")
        }
    }

    @Test("down to a goal no file system reaches: every entry, least recently used first; a link removed as a link")
    func oldestFirst() throws {
        let populated = try Populated()
        let report = try populated.workspace.registry.purgeCaches(belowFree: .max)
        #expect(report.removed.map(\.path.string) == ["c", "d", "a", "b", "link-out"].map { populated.caches + "/" + $0 })
        #expect(report.removed.map(\.lastUsed) == [1_000_000_000, 1_100_000_000, 1_200_000_000, 1_300_000_000, 1_400_000_000])
        #expect((report.removed.first?.bytes ?? 0) >= 20_000)
        #expect(report.freedBytes == report.removed.reduce(0) { $0 + $1.bytes } && report.purgedApps == ["com.example.viewer"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: populated.caches) == ["CACHEDIR.TAG"])
        try populated.expectUntouched()
    }

    @Test("a goal already met removes nothing; a dry run reports in order and removes nothing; no goal empties the caches")
    func goalsAndDryRuns() throws {
        let populated = try Populated()
        let registry = populated.workspace.registry
        let before = try FileManager.default.contentsOfDirectory(atPath: populated.caches).sorted()
        #expect(try registry.purgeCaches(belowFree: 0).removed.isEmpty)
        let dry = try registry.purgeCaches(dryRun: true)
        #expect(dry.dryRun && dry.removed.first?.path.string == populated.caches + "/c" && dry.removed.count == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: populated.caches).sorted() == before)
        #expect(try registry.purgeCaches().removed.count == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: populated.caches) == ["CACHEDIR.TAG"])
        try populated.expectUntouched()
    }

    @Test("a Library/Caches replaced by a link out of the container is skipped, never followed")
    func cachesLinkedOut() throws {
        let populated = try Populated()
        let elsewhere = populated.workspace.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(filePath: elsewhere + "/precious"))
        try FileManager.default.removeItem(atPath: populated.caches)
        #expect(symlink(elsewhere, populated.caches) == 0)
        let report = try populated.workspace.registry.purgeCaches()
        #expect(report.removed.isEmpty && report.skipped.map(\.reason) == [.notADirectory], "\(report.skipped)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["precious"])
    }
}
