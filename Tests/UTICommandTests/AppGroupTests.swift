import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Application groups: one shared container per group, for its members only, gone with the last
/// member's data.
@Suite("Application groups")
struct AppGroupTests {
    typealias Setup = RouteCommandTests.Setup

    static func manifest(_ identifier: String, groups: [String], team: String? = nil) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>\(identifier)</string>
        <key>com.apple.security.application-groups</key><array>\(groups.map { "<string>\($0)</string>" }.joined())</array>
        \(team.map { "<key>com.apple.developer.team-identifier</key><string>\($0)</string>" } ?? "")
        </dict></plist>
        """
    }

    static let group = "group.com.example.shared"

    /// The viewer of `Setup`, plus two apps in `group` (one also in a team-prefixed group).
    static func setUp() throws -> Setup {
        let setup = try Setup()
        let first = try setup.files.write(manifest("com.example.one", groups: [group, "ABCDE12345.com.example.team"], team: "ABCDE12345"),
                                          to: "One.plist")
        let second = try setup.files.write(manifest("com.example.two", groups: [group], team: "ABCDE12345"), to: "Two.plist")
        for path in [first, second] {
            let registered = try setup.run(["apps", "register", path])
            #expect(registered.status == 0, "\(registered.standardError)")
        }
        return setup
    }

    static func isDirectory(_ path: String, mode expected: mode_t? = nil) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return false }
        return expected.map { status.st_mode & 0o777 == $0 } ?? true
    }

    @Test("apps groups --json lists each group with its members and path; apps show names the app's groups")
    func sharedContainer() throws {
        let setup = try Self.setUp()
        let shared = setup.root + "/Shared/AppGroup/" + Self.group
        let listed = try setup.run(["apps", "groups", "--json"])
        #expect(listed.status == 0)
        let objects = try listed.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["identifier"] as? String } == [Self.group, "ABCDE12345.com.example.team"])
        #expect(objects.first?["members"] as? [String] == ["com.example.one", "com.example.two"])
        #expect(objects.first?["path"] as? String == shared)
        let shown = try setup.run(["apps", "show", "--json", "com.example.two"])
        #expect(shown.standardOutput.contains("\"applicationGroups\":[\"\(Self.group)\"]"), "\(shown.standardOutput)")
    }

    @Test("members get the shared path; any other app is refused with exit status 2, as the platform refuses it")
    func membersOnly() throws {
        let setup = try Self.setUp()
        let shared = setup.root + "/Shared/AppGroup/" + Self.group
        for member in ["com.example.one", "com.example.TWO"] {
            let asked = try setup.run(["apps", "container", "--group", Self.group, member])
            #expect(asked.status == 0 && asked.lines == [shared], "\(member): \(asked)")
        }
        let caches = try setup.run(["apps", "container", "--group", Self.group, "--caches", "com.example.one"])
        #expect(caches.lines == [shared + "/Library/Caches"])
        let outsider = try setup.run(["apps", "container", "--group", Self.group, "com.example.viewer"])
        #expect(outsider.status == 2 && outsider.standardOutput.isEmpty)
        #expect(outsider.standardError.contains("is not a member of the application group"), "\(outsider.standardError)")
        let teamOnly = try setup.run(["apps", "container", "--group", "ABCDE12345.com.example.team", "com.example.two"])
        #expect(teamOnly.status == 2)
        #expect(try setup.run(["apps", "container", "--group", "../../etc", "com.example.one"]).status == 2)
        #expect(try setup.run(["apps", "container", "--group", Self.group, "--inbox", "com.example.one"]).status == 64)
    }

    // What the library decides (which identifiers are refused, when the shared container goes) is tested in
    // DocumentRoutingTests' ApplicationGroupTests; here, what the command line says about it.

    @Test("a refused group identifier: exit status 2, the key at fault named, nothing made")
    func invalidGroup() throws {
        let setup = try Setup()
        let path = try setup.files.write(Self.manifest("com.example.bad", groups: ["group.../../x"]), to: "Bad.plist")
        let registered = try setup.run(["apps", "register", path])
        #expect(registered.status == 2, "\(registered)")
        #expect(registered.standardError.contains("com.apple.security.application-groups[0]"), "\(registered.standardError)")
        #expect(!FileManager.default.fileExists(atPath: setup.root + "/Shared"))
    }

    @Test("unregistering the last member with its data: the group leaves the listing, and the registry checks clean")
    func removedWithTheLastMember() throws {
        let setup = try Self.setUp()
        #expect(try setup.run(["apps", "unregister", "--delete-data", "com.example.one"]).status == 0)
        #expect(try setup.run(["apps", "unregister", "--delete-data", "com.example.two"]).status == 0)
        #expect(try setup.run(["apps", "groups"]).standardOutput.isEmpty)
        #expect(try setup.run(["apps", "check"]).status == 0)
    }

    @Test("a backup takes the group's Library but for its Caches, which carry a CACHEDIR.TAG")
    func backup() throws {
        let setup = try Self.setUp()
        let shared = setup.root + "/Shared/AppGroup/" + Self.group
        let tag = try Data(contentsOf: URL(filePath: shared + "/Library/Caches/CACHEDIR.TAG"))
        #expect(tag.starts(with: Data("Signature: 8a477f597d28d172789f06886806bc55".utf8)))
        try setup.files.write("keep", to: "root/Shared/AppGroup/\(Self.group)/Library/Application Support/state.db")
        try setup.files.write("again", to: "root/Shared/AppGroup/\(Self.group)/Library/Caches/thumbs.bin")
        for arguments in [["backup", "list"], ["backup", "list", "com.example.two"]] {
            let listed = try setup.run(arguments)
            #expect(listed.status == 0, "\(listed)")
            #expect(listed.lines.contains(shared + "/Library/Application Support/state.db"), "\(arguments): \(listed.standardOutput)")
            #expect(!listed.standardOutput.contains("thumbs.bin"))
        }
        #expect(!(try setup.run(["backup", "list", "com.example.viewer"]).standardOutput.contains("AppGroup")), "not a member")
    }

    @Test("purging caches empties a group's shared caches only while none of its members runs")
    func purge() throws {
        let setup = try Self.setUp()
        let caches = setup.root + "/Shared/AppGroup/" + Self.group + "/Library/Caches"
        try setup.files.write("old", to: "root/Shared/AppGroup/\(Self.group)/Library/Caches/thumbs.bin")
        try setup.files.write("keep", to: "root/Shared/AppGroup/\(Self.group)/Library/Application Support/state.db")
        // A member holds its run lock, from another process.
        let holder = try RunLockHolder(root: setup.root, bundleIdentifier: "com.example.two")
        #expect(holder.announcement.hasPrefix("holding the run lock"))
        let blocked = try setup.run(["purge", "--caches", "--json"])
        #expect(blocked.status == 0, "\(blocked)")
        #expect(FileManager.default.fileExists(atPath: caches + "/thumbs.bin"), "a member runs: \(blocked.standardOutput)")
        #expect(blocked.standardOutput.contains(Self.group) && blocked.standardOutput.contains("running"), "\(blocked.standardOutput)")
        #expect(try holder.release() == 0)
        let purged = try setup.run(["purge", "--caches", "com.example.one"])
        #expect(purged.status == 0, "\(purged)")
        #expect(!FileManager.default.fileExists(atPath: caches + "/thumbs.bin"), "\(purged.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: caches + "/CACHEDIR.TAG"))
        #expect(FileManager.default.fileExists(atPath: setup.root + "/Shared/AppGroup/\(Self.group)/Library/Application Support/state.db"))
    }

    @Test("a link planted for a group's shared container is refused, and nothing is written through it")
    func plantedLink() throws {
        let setup = try Setup()
        let outside = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: setup.root + "/Shared/AppGroup", withIntermediateDirectories: true)
        #expect(symlink(outside.path, setup.root + "/Shared/AppGroup/" + Self.group) == 0)
        let path = try setup.files.write(Self.manifest("com.example.one", groups: [Self.group]), to: "One.plist")
        let registered = try setup.run(["apps", "register", path])
        #expect(registered.status == 2, "\(registered)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test("kill -9 before every change of unregistering the last member with its data: the registry works after each, and the group goes",
          .tags(.stress), Tools.wholeSuiteOnly, Tools.needsFaultInjection)
    func crashWhileRemoving() throws {
        var step = 1
        while step < 200 {
            let setup = try Self.setUp()
            try setup.files.write("data", to: "root/Shared/AppGroup/\(Self.group)/Library/Caches/c")
            #expect(try setup.run(["apps", "unregister", "--delete-data", "com.example.one"]).status == 0)
            let crashed = try UTIBinary.run(["apps", "unregister", "--delete-data", "com.example.two"],
                                            environment: ["UTI_ROOT": setup.root, "UTI_FAULT_INJECTION_KILL_AT": String(step)])
            #expect(try setup.run(["apps", "list"]).status == 0, "killed before change \(step)")
            let groups = try setup.run(["apps", "groups"])
            #expect(groups.status == 0, "killed before change \(step)")
            let registered = try setup.run(["apps", "list"]).standardOutput.contains("com.example.two")
            // Registered still (killed before the state was written), or unregistered with the group's removal
            // decided: the next change finishes it.
            #expect(groups.standardOutput.contains(Self.group) == registered, "killed before change \(step): \(groups.standardOutput)")
            #expect(try setup.run(["apps", "check", "--repair"]).status == 0, "killed before change \(step)")
            if !registered {
                #expect(!FileManager.default.fileExists(atPath: setup.root + "/Shared/AppGroup/" + Self.group), "killed before change \(step)")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.root + "/Shared/AppGroup")
                #expect(leftovers.isEmpty, "killed before change \(step): \(leftovers)")
            }
            if crashed.status == 0 { break }
            step += 1
        }
        #expect(step > 2 && step < 200, "\(step)")
    }
}
