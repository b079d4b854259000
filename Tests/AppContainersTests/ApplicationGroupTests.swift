import Foundation
import AppContainers
import ContainerTestSupport
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Application groups through the library: one shared container per group, for its members only, gone with
/// the last member's data. (The command line's output and exit statuses for the same: AppGroupTests.)
@Suite("Application groups, in the library")
struct ApplicationGroupTests {
    static let group = "group.com.example.shared"
    static let teamGroup = "ABCDE12345.com.example.team"

    /// An Info.plist declaring `groups`, written in the workspace; its path.
    static func manifest(_ workspace: Workspace, _ identifier: String, groups: [String], team: String? = nil) throws -> String {
        var plist: [String: Any] = ["CFBundleIdentifier": identifier, "com.apple.security.application-groups": groups]
        if let team { plist["com.apple.developer.team-identifier"] = team }
        let path = workspace.path + "/apps/\(identifier).plist"
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(filePath: path))
        return path
    }

    /// Two apps in `group` (the first also in a team-prefixed group), registered.
    static func twoMembers() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try manifest(workspace, "com.example.one", groups: [group, teamGroup], team: "ABCDE12345"))
        try workspace.registry.register(appAt: try manifest(workspace, "com.example.two", groups: [group], team: "ABCDE12345"))
        return workspace
    }

    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        return status.st_mode & 0o777
    }

    @Test("the first member makes the group's shared container, private, with Library, Caches and Application Support; the groups are listed in order")
    func sharedContainer() throws {
        let workspace = try Self.twoMembers()
        let shared = workspace.registry.root + "/Shared/AppGroup/" + Self.group
        for directory in ["", "/Library", "/Library/Caches", "/Library/Application Support"] {
            #expect(Self.mode(shared + directory) == 0o700, "\(shared + directory)")
        }
        let groups = try workspace.registry.applicationGroups()
        #expect(groups.map(\.identifier) == [Self.group, Self.teamGroup])
        #expect(groups.first?.members == ["com.example.one", "com.example.two"] && groups.first?.path == shared)
        #expect(groups.first?.team == "ABCDE12345" && groups.first?.isOrphaned == false)
    }

    @Test("members get the shared path, whatever the case of their identifier; any other app is refused")
    func membersOnly() throws {
        let workspace = try Self.twoMembers()
        try workspace.app("com.example.viewer", [.init(types: ["public.image"])])
        try workspace.registry.register(appAt: workspace.path + "/apps/com.example.viewer.app")
        let shared = workspace.registry.root + "/Shared/AppGroup/" + Self.group
        #expect(try workspace.registry.path(ofGroup: Self.group, for: "com.example.one") == shared)
        #expect(try workspace.registry.path(ofGroup: Self.group, for: "com.example.TWO") == shared)
        for (group, app) in [(Self.group, "com.example.viewer"), (Self.teamGroup, "com.example.two")] {
            do {
                _ = try workspace.registry.path(ofGroup: group, for: app)
                Issue.record("\(app) was given \(group)")
            } catch {
                #expect(error.reason.kind == .notAGroupMember, "\(error)")
            }
        }
        do {
            _ = try workspace.registry.path(ofGroup: "../../etc", for: "com.example.one")
            Issue.record("a group that leaves the root was given")
        } catch {
            #expect(error.reason.kind == .invalidApplicationGroup || error.reason.kind == .notAGroupMember, "\(error)")
        }
    }

    @Test("a group identifier without Apple's prefix, or that would leave the root, refuses the manifest and makes nothing", arguments: [
        "com.example.shared", "group.", "abcde12345.com.example.x", "ABCDE1234.com.x", "group.../../x", "group.a/b", "ABCDE12345.",
    ])
    func invalidGroups(group: String) throws {
        let workspace = try Workspace()
        let path = try Self.manifest(workspace, "com.example.bad", groups: [group])
        do {
            try workspace.registry.register(appAt: path)
            Issue.record("\(group) was accepted")
        } catch {
            #expect(error.reason.kind == .manifest, "\(error)")
            #expect(error.reason.manifestError?.key == "com.apple.security.application-groups[0]", "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.registry.root + "/Shared"), "nothing made for \(group)")
    }

    @Test("the shared container stays while a member is left or the data is kept; it goes with the last member's data")
    func removedWithTheLastMember() throws {
        let workspace = try Self.twoMembers()
        let registry = workspace.registry
        let shared = registry.root + "/Shared/AppGroup/" + Self.group
        let notes = shared + "/Library/Application Support/notes.txt"
        #expect(FileManager.default.createFile(atPath: notes, contents: Data("notes".utf8)))
        try registry.unregister("com.example.one", deleteData: true)
        #expect(FileManager.default.fileExists(atPath: notes), "com.example.two is still a member")
        #expect(Self.mode(registry.root + "/Shared/AppGroup/" + Self.teamGroup) == nil, "its only member's data went")
        try registry.unregister("com.example.two", deleteData: false)
        #expect(FileManager.default.fileExists(atPath: notes), "the data was kept")
        #expect(try registry.applicationGroups().first?.keptBy == ["com.example.two"])
        // Registered again and unregistered with its data: now the last member's data goes, and the group's.
        try registry.register(appAt: workspace.path + "/apps/com.example.two.plist")
        try registry.unregister("com.example.two", deleteData: true)
        #expect(!FileManager.default.fileExists(atPath: shared))
        #expect(try registry.applicationGroups().isEmpty)
    }
}
