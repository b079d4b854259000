import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `uti purge` and `uti apps run-lock`: emptying caches and tmp/ of apps that are not running.
@Suite("uti purge and run-lock")
struct PurgeCommandTests {
    typealias Setup = RouteCommandTests.Setup

    /// Sets a file's (or a directory's, or a link's own) access and modification times, in seconds since 1970.
    static func setTimes(_ path: String, _ seconds: Int) {
        let times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) == 0, "\(path)")
    }

    /// A container with caches of known ages (oldest first: `c`, `d/`, `a`, `b`), a link in the caches
    /// to a file outside, documents and application support; returns the container's path.
    static func populate(_ setup: Setup, outside: String) throws -> String {
        let container = setup.root + "/Containers/com.example.viewer"
        let caches = container + "/Library/Caches"
        try FileManager.default.createDirectory(atPath: caches + "/d/inner", withIntermediateDirectories: true)
        for (name, size) in [("a", 5_000), ("b", 1), ("c", 20_000), ("d/inner/x", 9_000)] {
            try Data(repeating: 0x61, count: size).write(to: URL(filePath: caches + "/" + name))
        }
        #expect(symlink(outside, caches + "/link-out") == 0)
        for (name, time) in [("c", 1_000_000_000), ("d/inner/x", 1_100_000_000), ("d/inner", 1_100_000_000), ("d", 1_100_000_000),
                             ("a", 1_200_000_000), ("b", 1_300_000_000), ("link-out", 1_400_000_000)] {
            setTimes(caches + "/" + name, time)
        }
        try Data("keep".utf8).write(to: URL(filePath: container + "/Documents/keep.txt"))
        try Data("db".utf8).write(to: URL(filePath: container + "/Library/Application Support/store.db"))
        return container
    }

    static func untouched(_ container: String, outside: String) throws {
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "outside", "the link's target is untouched")
        #expect(try String(contentsOfFile: container + "/Documents/keep.txt", encoding: .utf8) == "keep")
        #expect(try String(contentsOfFile: container + "/Library/Application Support/store.db", encoding: .utf8) == "db")
        #expect(FileManager.default.fileExists(atPath: container + "/Library/Caches/CACHEDIR.TAG"), "the tag stays")
    }

    @Test("--caches removes every entry, least recently used first; a link is removed as a link; Documents and Application Support stay")
    func cachesOldestFirst() throws {
        let setup = try Setup()
        let outside = try setup.files.write("outside", to: "outside.txt")
        let container = try Self.populate(setup, outside: outside)
        let caches = container + "/Library/Caches"
        // A goal no file system reaches: everything goes, in order.
        let result = try setup.run(["purge", "--caches", "--below-free", "1000000T", "--json"])
        #expect(result.status == 0, "\(result)")
        let report = try jsonObject(try #require(result.lines.first))
        let removed = try #require(report["removed"] as? [[String: Any]])
        #expect(removed.compactMap { $0["path"] as? String } == ["c", "d", "a", "b", "link-out"].map { caches + "/" + $0 })
        #expect(removed.compactMap { $0["lastUsed"] as? Int } == [1_000_000_000, 1_100_000_000, 1_200_000_000, 1_300_000_000, 1_400_000_000])
        #expect((removed.first?["bytes"] as? Int ?? 0) >= 20_000)
        #expect(report["freedBytes"] as? Int == removed.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: caches) == ["CACHEDIR.TAG"])
        try Self.untouched(container, outside: outside)
    }

    @Test("--below-free 0 removes nothing; --dry-run reports without removing; plain --caches empties the caches")
    func belowFreeBounds() throws {
        let setup = try Setup()
        let outside = try setup.files.write("outside", to: "outside.txt")
        let container = try Self.populate(setup, outside: outside)
        let caches = container + "/Library/Caches"
        let before = try FileManager.default.contentsOfDirectory(atPath: caches).sorted()
        let none = try setup.run(["purge", "--caches", "--below-free", "0"])
        #expect(none.status == 0 && none.lines == ["com.example.viewer: freed 0 bytes in 0 entries of Library/Caches"], "\(none)")
        let dry = try setup.run(["purge", "--caches", "--dry-run", "-v"])
        #expect(dry.status == 0 && dry.lines.first?.hasPrefix("would remove \(caches)/c (") == true, "\(dry)")
        #expect(dry.lines.last?.hasPrefix("com.example.viewer: would free") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: caches).sorted() == before)
        let all = try setup.run(["purge", "--caches"])
        #expect(all.status == 0 && all.lines.last?.contains("in 5 entries of Library/Caches") == true, "\(all)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caches) == ["CACHEDIR.TAG"])
        try Self.untouched(container, outside: outside)
    }

    @Test("--below-free stops once the file system has that much available (a tmpfs of known size)",
          .enabled(if: Tools.canMountTmpfs, "needs root to mount a tmpfs whose free space nothing else changes"))
    func belowFreeStops() throws {
        let files = try TemporaryDirectory()
        let tmpfs = try TemporaryMount(.tmpfs(size: "8m"), in: files, name: "tmpfs")
        let mount = tmpfs.path
        try files.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.plain</string></dict></plist>
            """, to: "Plain.app/Contents/Info.plist")
        let environment = ["UTI_ROOT": mount + "/root"]
        #expect(try UTIBinary.run(["apps", "register", files.file("Plain.app")], environment: environment).status == 0)
        let caches = mount + "/root/Containers/com.example.plain/Library/Caches"
        for (index, name) in ["old", "older", "oldest", "new"].enumerated() {
            try Data(repeating: 0x62, count: 1 << 20).write(to: URL(filePath: caches + "/" + name))
            Self.setTimes(caches + "/" + name, [1_300_000_000, 1_200_000_000, 1_100_000_000, 1_400_000_000][index])
        }
        var space = statvfs()
        #expect(statvfs(caches, &space) == 0)
        let available = Int(space.f_bavail) * Int(space.f_frsize)
        // 1.5 MiB more than now: the oldest MiB is not enough, the next one is.
        let goal = available + 3 << 19
        let result = try UTIBinary.run(["purge", "--caches", "--below-free", String(goal), "-v"], environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.prefix(2) == ["removed \(caches)/oldest (1.0 MiB)", "removed \(caches)/older (1.0 MiB)"], "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: caches).sorted() == ["CACHEDIR.TAG", "new", "old"])
    }

    @Test("a container whose app holds its run lock (a second process) is left alone and reported; released, it is purged")
    func runningAppSkipped() throws {
        let setup = try Setup()
        let caches = setup.root + "/Containers/com.example.viewer/Library/Caches"
        let temporary = setup.temporary
        try Data("cached".utf8).write(to: URL(filePath: caches + "/cached"))
        try Data("scratch".utf8).write(to: URL(filePath: temporary + "/scratch"))

        let holder = try RunLockHolder(root: setup.root, bundleIdentifier: "com.example.viewer")
        #expect(holder.announcement.hasPrefix("holding the run lock of com.example.viewer (shared)"))

        let skipped = try setup.run(["purge", "--caches", "--tmp"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.lines == ["com.example.viewer: Library/Caches skipped: in use: a process holds its run lock (.uti-run.lock)",
                                  "com.example.viewer: tmp skipped: in use: a process holds its run lock (.uti-run.lock)"])
        #expect(FileManager.default.fileExists(atPath: caches + "/cached") && FileManager.default.fileExists(atPath: temporary + "/scratch"))
        let json = try jsonObject(try #require(try setup.run(["purge", "--caches", "--json"]).lines.first))
        #expect((json["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "running")
        // An exclusive taker that does not wait is refused while the app runs.
        #expect(try setup.run(["apps", "run-lock", "--exclusive", "--no-wait", "com.example.viewer", "true"]).status == 1)

        #expect(try holder.release() == 0)
        let purged = try setup.run(["purge", "--caches", "--tmp"])
        #expect(purged.lines.contains { $0.hasPrefix("com.example.viewer: freed") && $0.hasSuffix("in 1 entry of Library/Caches") }, "\(purged)")
        #expect(!FileManager.default.fileExists(atPath: caches + "/cached") && !FileManager.default.fileExists(atPath: temporary + "/scratch"))
    }

    @Test("run-lock runs a command holding the lock (inherited: a purge the command starts sees the app running) and exits with its status")
    func runLockCommand() throws {
        let setup = try Setup()
        try Data("cached".utf8).write(to: URL(filePath: setup.root + "/Containers/com.example.viewer/Library/Caches/cached"))
        let inside = try setup.run(["apps", "run-lock", "com.example.viewer", "--", UTIBinary.url.path, "purge", "--caches"])
        #expect(inside.status == 0 && inside.lines == ["com.example.viewer: Library/Caches skipped: in use: a process holds its run lock (.uti-run.lock)"],
                "\(inside)")
        #expect(try setup.run(["apps", "run-lock", "com.example.viewer", "sh", "-c", "exit 7"]).status == 7)
        #expect(try setup.run(["apps", "run-lock", "com.example.viewer", "uti-no-such-command"]).status == 127)
        #expect(try setup.run(["apps", "run-lock", "com.example.nobody", "true"]).status == 2)
        // A link planted as the lock file is refused, never followed.
        let lock = setup.root + "/Containers/com.example.viewer/.uti-run.lock"
        try FileManager.default.removeItem(atPath: lock)
        let target = try setup.files.write("target", to: "target")
        #expect(symlink(target, lock) == 0)
        #expect(try setup.run(["apps", "run-lock", "com.example.viewer", "true"]).status == 2)
        let purge = try setup.run(["purge", "--caches"])
        #expect(purge.lines.first?.contains("cannot be opened") == true, "\(purge)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "target")
    }

    @Test("--tmp --older-than removes only entries unused for that long, and never a delivery in progress")
    func temporaryOlderThan() throws {
        let setup = try Setup()
        let temporary = setup.temporary
        let now = Int(time(nil))
        try FileManager.default.createDirectory(atPath: temporary + "/old-dir/sub", withIntermediateDirectories: true)
        for name in ["old", "recent", "old-dir/sub/file", "1.2.3.uti-delivery"] {
            try Data("x".utf8).write(to: URL(filePath: temporary + "/" + name))
        }
        for (name, age) in [("old", 4 * 86_400), ("old-dir/sub/file", 5 * 86_400), ("old-dir/sub", 5 * 86_400), ("old-dir", 5 * 86_400),
                            ("recent", 3_600), ("1.2.3.uti-delivery", 10 * 86_400)] {
            Self.setTimes(temporary + "/" + name, now - age)
        }
        let result = try setup.run(["purge", "--tmp", "--older-than", "3d", "--json"])
        #expect(result.status == 0, "\(result)")
        let report = try jsonObject(try #require(result.lines.first))
        let removed = try #require(report["removed"] as? [[String: Any]])
        #expect(removed.compactMap { $0["path"] as? String } == ["old", "old-dir"].map { temporary + "/" + $0 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).sorted() == ["1.2.3.uti-delivery", "CACHEDIR.TAG", "recent"])
        let rest = try setup.run(["purge", "--tmp", "--older-than", "30m"]).lines
        #expect(rest.count == 1 && rest.first?.hasPrefix("com.example.viewer: freed ") == true && rest.first?.hasSuffix(" in 1 entry of tmp") == true, "\(rest)")
    }

    @Test("bad options: exit status 64", arguments: [
        ["purge"], ["purge", "--caches", "--below-free", "5X"], ["purge", "--caches", "--below-free", "-1"], ["purge", "--caches", "--below-free", "1.5"],
        ["purge", "--tmp", "--older-than", "3x"], ["purge", "--tmp", "--older-than", "h"], ["purge", "--caches", "--older-than", "1d"],
        ["purge", "--tmp", "--below-free", "1G"],
    ])
    func badOptions(arguments: [String]) throws {
        let setup = try Setup()
        let result = try setup.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("a Library/Caches replaced by a link out of the container is reported and never followed")
    func cachesLinkedOut() throws {
        let setup = try Setup()
        let outside = try setup.files.makeDirectory("elsewhere")
        try Data("precious".utf8).write(to: URL(filePath: outside + "/precious"))
        let caches = setup.root + "/Containers/com.example.viewer/Library/Caches"
        try FileManager.default.removeItem(atPath: caches)
        #expect(symlink(outside, caches) == 0)
        let result = try setup.run(["purge", "--caches"])
        #expect(result.status == 0 && result.lines == ["com.example.viewer: Library/Caches skipped: not a directory (a symbolic link?); left alone"], "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["precious"])
    }
}

/// A second process holding an app's run lock (`uti apps run-lock BUNDLE-ID`, which keeps it until its
/// standard input closes): known to hold it once it has said so, with no sleeping and no polling.
final class RunLockHolder {
    let process = Process()
    private let input = Pipe.closingOnExec(), output = Pipe.closingOnExec()
    /// The line it printed once the lock was held.
    private(set) var announcement = ""

    init(root: String, bundleIdentifier: String) throws {
        process.executableURL = UTIBinary.url
        process.arguments = ["apps", "run-lock", bundleIdentifier]
        process.environment = ProcessInfo.processInfo.environment.merging(["UTI_ROOT": root]) { $1 }
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var announced = Data()
        while !announced.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            announced += chunk
        }
        announcement = String(decoding: announced, as: UTF8.self)
    }

    /// Closes its standard input, so that it lets the lock go; its exit status.
    func release() throws -> Int32 {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        // SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM among them.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
