import CExtendedAttributes
import Foundation
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a second attacker found in routing, types, groups and the service, each as it was reproduced:
/// every test here failed against the code before its fix.
@Suite("Routing, types and groups under a second attack")
struct HardeningIITests {
    typealias Setup = RouteCommandTests.Setup

    static func manifest(_ identifier: String, name: String = "App", types: [String] = ["public.data"], rank: String = "Default",
                         extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>\(identifier)</string>
        <key>CFBundleName</key><string>\(name)</string>
        <key>CFBundleDocumentTypes</key><array><dict>
        <key>LSItemContentTypes</key><array>\(types.map { "<string>\($0)</string>" }.joined())</array>
        <key>LSHandlerRank</key><string>\(rank)</string></dict></array>
        \(extra)</dict></plist>
        """
    }

    /// `renameat2(2)`, found at run time: Glibc's module does not declare it.
    private static let renameat2: (@convention(c) (CInt, UnsafePointer<CChar>, CInt, UnsafePointer<CChar>, CUnsignedInt) -> CInt)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (CInt, UnsafePointer<CChar>, CInt, UnsafePointer<CChar>, CUnsignedInt) -> CInt).self)
    }()

    /// Exchanges two names atomically, over and over, until stopped: what a party that can write in a
    /// shared folder does to a walk.
    final class Exchanger: Sendable {
        private let stopped = Atomic(false)
        private let done = DispatchSemaphore(value: 0)
        /// The exchanges that happened: a test whose exchanges all failed raced nothing.
        let exchanges = Atomic<Int>(0)

        init(_ first: String, _ second: String) {
            Thread { [self] in
                let exchange: UInt32 = 2  // RENAME_EXCHANGE
                while !stopped.load(ordering: .relaxed) {
                    if HardeningIITests.renameat2?(AT_FDCWD, first, AT_FDCWD, second, exchange) == 0 {
                        exchanges.add(1, ordering: .relaxed)
                    }
                }
                done.signal()
            }.start()
        }

        func stop() {
            stopped.store(true, ordering: .relaxed)
            done.wait()
        }
    }

    // MARK: 1. Walk, then act, on descriptors

    @Test("route --recursive --move while a directory of the tree is exchanged with a link elsewhere: nothing from outside is delivered or removed",
          .tags(.stress), Tools.wholeSuiteOnly, .enabled(if: renameat2 != nil, "needs renameat2"))
    func recursiveRouteRacingAnExchange() throws {
        let setup = try Setup()
        let secret = try setup.files.write("SECRET KEY", to: "private/id_rsa")
        chmod(secret, 0o600)
        let incoming = try setup.files.makeDirectory("incoming")
        _ = try setup.files.makeDirectory("incoming/sub")
        // The other side of the exchange, outside the tree: a link to the private directory.
        _ = try setup.files.makeDirectory("attacker")
        #expect(symlink(setup.files.path + "/private", setup.files.path + "/attacker/sub") == 0)
        let exchanger = Exchanger(incoming + "/sub", setup.files.path + "/attacker/sub")
        defer { exchanger.stop() }
        var runs = 0
        var decoysDelivered = 0
        for _ in 0..<200 {
            // The decoy, where the walk finds it: in whichever directory is the real `sub` now, written
            // through its descriptor (a path could lead through the link, onto the secret).
            for directory in [incoming + "/sub", setup.files.path + "/attacker/sub"] {
                let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
                guard descriptor >= 0 else { continue }
                let file = openat(descriptor, "id_rsa", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o644)
                if file >= 0 {
                    _ = write(file, "decoy", 5)
                    close(file)
                }
                close(descriptor)
            }
            let routed = try setup.run(["route", "--recursive", "--move", incoming])
            runs += 1
            // Delivered, or a directory refused because it changed under the walk: nothing else.
            #expect(routed.status == 0 || routed.standardError.contains("incoming"), "run \(runs): \(routed.standardError)")
            #expect(FileManager.default.fileExists(atPath: secret), "run \(runs): the private file was removed through the link")
            for name in try FileManager.default.contentsOfDirectory(atPath: setup.inbox) {
                let delivered = try String(contentsOfFile: setup.inbox + "/" + name, encoding: .utf8)
                #expect(delivered == "decoy", "run \(runs): \(name) came from outside the tree")
                decoysDelivered += 1
            }
            if !FileManager.default.fileExists(atPath: secret) { break }
        }
        // The race happened, and the walk still delivered what was in the tree.
        #expect(exchanger.exchanges.load(ordering: .relaxed) > 0, "no exchange ever succeeded: nothing was raced")
        #expect(decoysDelivered > 0, "no decoy was ever delivered: a route that refused everything would pass")
    }

    @Test("route --move of a file whose directory is given by a path acts on the file it opened: the name's directory is not looked up again")
    func moveRemovesTheFileItDelivered() throws {
        let setup = try Setup()
        let source = try setup.files.write(IdentifyCommandTests.png, to: "incoming/photo.png")
        let routed = try setup.run(["route", "--move", source, "--json"])
        #expect(routed.status == 0, "\(routed)")
        #expect(!FileManager.default.fileExists(atPath: source))
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.inbox) == ["photo.png"])
    }

    @Test("a file in a drop box (a directory others may write and search but not read) is routed, as opening it by its path allows",
          .enabled(if: Tools.isRoot && Tools.has("setpriv"), "needs root, to make a drop box a user without privileges cannot read"))
    func routesFromADropBox() throws {
        let setup = try UnprivilegedSetup()
        let box = setup.files.path + "/box"
        mkdir(box, 0o1733)
        chmod(box, 0o1733)
        let document = try setup.files.write("a note\n", to: "box/note.txt")
        chmod(document, 0o644)
        chown(document, 65534, 65534)
        let routed = try setup.run(["route", "--to", "com.example.go", document])
        #expect(routed.status == 0, "\(routed)")
    }

    @Test("route of a package given with a trailing slash, or of a socket, is typed by what it is, never opened")
    func routeByKind() throws {
        let setup = try Setup(inPlace: true)
        _ = try setup.files.makeDirectory("Doc.rtfd")
        let plain = try setup.run(["route", "--in-place", setup.files.path + "/Doc.rtfd"])
        let slashed = try setup.run(["route", "--in-place", setup.files.path + "/Doc.rtfd/"])
        // Typed as the package it is (an RTF document with attachments), which no registered app opens: the same
        // refusal either way, never an error from opening it as a file.
        for routed in [plain, slashed] {
            #expect(routed.status == 3 && routed.standardError.contains("com.apple.rtfd"), "\(routed)")
            #expect(!routed.standardError.contains("Not a directory"), "\(routed)")
        }
        let socketPath = setup.files.path + "/listening.sock"
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let routed = try setup.run(["route", "--json", socketPath])
        #expect(routed.status != 0 && !routed.standardError.contains("No such device"), "\(routed)")
        #expect(routed.standardError.contains("not a regular file") || routed.standardError.contains("no registered app"), "\(routed.standardError)")
    }

    // MARK: 2. Owners of type declarations

    /// An app bundle at `name`.app holding `plist`.
    static func bundle(_ setup: Setup, _ name: String, _ plist: String) throws -> String {
        try setup.files.write(plist, to: name + ".app/Contents/Info.plist")
        return setup.files.path + "/" + name + ".app"
    }

    static func exporting(_ identifier: String, conformsTo: [String], extensions: [String]) -> String {
        """
        <key>UTExportedTypeDeclarations</key><array><dict>
        <key>UTTypeIdentifier</key><string>\(identifier)</string>
        <key>UTTypeConformsTo</key><array>\(conformsTo.map { "<string>\($0)</string>" }.joined())</array>
        <key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><array>\(extensions.map { "<string>\($0)</string>" }.joined())</array></dict>
        </dict></array>
        """
    }

    @Test("an app redeclaring a built-in type cannot take over its files: routing, conformance and the user's default are unchanged; register and check say so")
    func redeclaringABuiltInTypeChangesNothing() throws {
        let setup = try Setup()
        #expect(try setup.run(["default", "set", "public.image", "com.example.viewer"]).status == 0)
        let hostile = try Self.bundle(setup, "Hostile", Self.manifest("com.example.hostile", types: ["com.compuserve.gif"], rank: "Alternate",
                                                                     extra: Self.exporting("com.compuserve.gif", conformsTo: ["public.data"], extensions: ["gif"])))
        let registered = try setup.run(["apps", "register", hostile])
        #expect(registered.status == 0, "\(registered)")
        #expect(registered.standardError.contains("UTExportedTypeDeclarations: com.compuserve.gif: ignored"), "\(registered.standardError)")
        #expect(try setup.run(["conforms", "com.compuserve.gif", "public.image"]).status == 0, "the system's declaration is in force")
        let gif = try setup.files.write(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B], to: "photo.gif")
        let routed = try setup.run(["route", "--json", gif])
        #expect(routed.status == 0, "\(routed)")
        #expect(try jsonObject(routed.lines[0])["handler"] as? String == "com.example.viewer", "\(routed.standardOutput)")
        let check = try setup.run(["apps", "check"])
        #expect(check.status == 1 && check.standardOutput.contains("ignored-declaration"), "\(check)")
        #expect(check.standardOutput.contains("com.compuserve.gif"))
    }

    @Test("a container kept by an app unregistered with its data goes back only to that app's bundle, not to an identifier spelt otherwise")
    func keptContainersAreNotAdoptedByCase() throws {
        let setup = try Setup()
        let victim = try Self.bundle(setup, "Victim", Self.manifest("com.Victim.App"))
        #expect(try setup.run(["apps", "register", victim]).status == 0)
        let diary = try setup.files.write("dear diary", to: "root/Containers/com.Victim.App/Documents/diary.txt")
        #expect(try setup.run(["apps", "unregister", "com.Victim.App"]).status == 0)
        let hostile = try Self.bundle(setup, "Hostile", Self.manifest("com.victim.app"))
        let registered = try setup.run(["apps", "register", hostile])
        #expect(registered.status == 2 && registered.standardError.contains("differs only in case"), "\(registered)")
        // The victim's own bundle, its identifier now in lower case, gets its data back.
        try setup.files.write(Self.manifest("com.victim.app"), to: "Victim.app/Contents/Info.plist")
        #expect(try setup.run(["apps", "register", victim]).status == 0)
        #expect(try String(contentsOfFile: diary, encoding: .utf8) == "dear diary")
        #expect(try setup.run(["apps", "container", "com.victim.app"]).standardOutput.contains("com.Victim.App"))
    }

    // MARK: 3. A removal that cannot finish never freezes the registry

    /// Makes `depth` nested directories `d` below `directory` (through descriptors: the path is longer than
    /// PATH_MAX), with a file at the bottom.
    static func makeDeepTree(in directory: String, depth: Int) {
        var current = open(directory, O_RDONLY | O_DIRECTORY)
        for _ in 0..<depth {
            mkdirat(current, "d", 0o700)
            let next = openat(current, "d", O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            close(current)
            current = next
        }
        let file = openat(current, "bottom", O_WRONLY | O_CREAT, 0o600)
        close(file)
        close(current)
    }

    @Test("a container holding a tree deeper than any limit is removed whole, and the registry keeps working", .tags(.stress), Tools.wholeSuiteOnly)
    func deepTreeIsRemoved() throws {
        let setup = try Setup()
        Self.makeDeepTree(in: setup.root + "/Containers/com.example.viewer/Library/Caches", depth: 5_000)
        let unregistered = try setup.run(["apps", "unregister", "--delete-data", "com.example.viewer"])
        #expect(unregistered.status == 0, "\(unregistered)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.root + "/Containers").isEmpty, "nothing left")
        let other = try setup.files.write(Self.manifest("com.example.other"), to: "Other.plist")
        #expect(try setup.run(["apps", "register", other]).status == 0)
        #expect(try setup.run(["apps", "check"]).status == 0)
    }

    /// A registry owned by `nobody`, with one app, for a user without privileges.
    final class UnprivilegedSetup {
        let files: TemporaryDirectory
        let root: String

        init() throws {
            files = try TemporaryDirectory(permissions: 0o755)
            root = files.path + "/root"
            try files.write(HardeningIITests.manifest("com.example.go"), to: "Go.plist")
            try files.write(HardeningIITests.manifest("com.example.other"), to: "Other.plist")
            chmod(files.path + "/Go.plist", 0o644)
            chmod(files.path + "/Other.plist", 0o644)
            mkdir(root, 0o700)
            chown(root, 65534, 65534)
            let registered = try run(["apps", "register", files.path + "/Go.plist"])
            #expect(registered.status == 0, "\(registered)")
        }

        var caches: String { root + "/Containers/com.example.go/Library/Caches" }

        func run(_ arguments: [String]) throws -> CommandResult {
            try UTIBinary.run(arguments, environment: ["UTI_ROOT": root], runAs: Tools.isRoot ? "nobody" : nil)
        }
    }

    @Test("a read-only directory in a container (Go's module cache makes them) is removed with the container",
          .enabled(if: Tools.canTakePermissionsAway, "as root, needs setpriv to run as a user without privileges"))
    func readOnlyDirectoriesAreRemoved() throws {
        let setup = try UnprivilegedSetup()
        let module = setup.caches + "/go/pkg/mod/example.com/m@v1.0.0"
        #expect(try setup.run(["apps", "check"]).status == 0)
        // Made by the app's user, then made read-only, as `go mod download` leaves them.
        let made = try UTIBinary.run(executable: URL(filePath: "/usr/bin/setpriv"),
                                     ["--reuid=\(Tools.isRoot ? "nobody" : String(getuid()))", "--regid=nogroup", "--clear-groups", "/bin/sh", "-c",
                                      "mkdir -p '\(module)/sub' && echo x > '\(module)/go.mod' && chmod 0555 '\(module)/sub' '\(module)' && chmod 0 '\(module)/sub'"])
        #expect(made.status == 0, "\(made)")
        let unregistered = try setup.run(["apps", "unregister", "--delete-data", "com.example.go"])
        #expect(unregistered.status == 0, "\(unregistered)")
        #expect(!FileManager.default.fileExists(atPath: setup.root + "/Containers/com.example.go"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.root + "/Containers").isEmpty)
        #expect(try setup.run(["apps", "register", setup.files.path + "/Other.plist"]).status == 0)
    }

    @Test("what cannot be removed is reported and retried; every other change goes on",
          .enabled(if: Tools.isRoot && Tools.has("setpriv"), "needs root, to leave a file the registry's user cannot remove"))
    func leftoverNeverBlocks() throws {
        let setup = try UnprivilegedSetup()
        // A directory of root's in the app's caches, with a file in it: its user cannot remove either.
        let stuck = setup.caches + "/root-owned"
        mkdir(stuck, 0o755)
        _ = try Data("x".utf8).write(to: URL(filePath: stuck + "/file"))
        let unregistered = try setup.run(["apps", "unregister", "--delete-data", "com.example.go"])
        #expect(unregistered.status == 0, "\(unregistered)")
        #expect(unregistered.standardError.contains("could not be removed"), "a warning: \(unregistered.standardError)")
        let check = try setup.run(["apps", "check"])
        #expect(check.status == 1 && check.standardOutput.contains("leftover-removal"), "\(check)")
        #expect(check.standardOutput.contains("Library/Caches/root-owned/file"), "with the reason: \(check)")
        #expect(check.standardOutput.contains("Permission denied"), "\(check)")
        // Every change still works.
        let other = try setup.run(["apps", "register", setup.files.path + "/Other.plist"])
        #expect(other.status == 0, "\(other)")
        #expect(try setup.run(["default", "set", "public.data", "com.example.other"]).status == 0)
        #expect(try setup.run(["apps", "unregister", "com.example.other"]).status == 0)
        // Once the obstacle is gone, the next change finishes the removal.
        let leftover = try #require(try FileManager.default.contentsOfDirectory(atPath: setup.root + "/Containers").first { $0.hasPrefix(".removing.") })
        #expect(unlink(setup.root + "/Containers/" + leftover + "/Library/Caches/root-owned/file") == 0)
        #expect(try setup.run(["apps", "register", setup.files.path + "/Other.plist"]).status == 0)
        #expect(try setup.run(["apps", "check"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.root + "/Containers") == ["com.example.other"])
    }

    @Test("a directory bind-mounted into a container is not emptied by the container's removal",
          .enabled(if: Tools.isRoot && Tools.has("mount") && Tools.has("umount"), "needs root, to bind-mount"))
    func bindMountsAreNotEmptied() throws {
        let setup = try Setup()
        let outside = try setup.files.makeDirectory("outside")
        for index in 0..<5 { try setup.files.write("keep", to: "outside/f\(index)") }
        let target = setup.root + "/Containers/com.example.viewer/Library/Caches/shared"
        mkdir(target, 0o700)
        try #require(Tools.run("/bin/mount", ["--bind", outside, target]), "mount --bind \(outside) \(target) failed")
        // The removal renames the container (`.removing.…`) and the mount goes with it: every mount left under the
        // test's directory is taken down, wherever it is now, or the directory (and the mount) outlive the test.
        defer {
            let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
            for line in mounts.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count > 1, fields[1].hasPrefix(setup.files.path + "/") else { continue }
                _ = Tools.run("/bin/umount", ["-l", String(fields[1])])
            }
        }
        let unregistered = try setup.run(["apps", "unregister", "--delete-data", "com.example.viewer"])
        #expect(unregistered.status == 0, "\(unregistered)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).count == 5, "nothing behind the mount was removed")
        let check = try setup.run(["apps", "check"])
        #expect(check.standardOutput.contains("leftover-removal") && check.standardOutput.contains("Invalid cross-device link"), "\(check)")
    }

    // MARK: 4. Application groups: evidence to join, data kept while anyone holds it

    static func groupManifest(_ identifier: String, groups: [String], team: String? = nil) -> String {
        AppGroupTests.manifest(identifier, groups: groups, team: team)
    }

    @Test("an app may not name another publisher's group: not under its domain, nor its team", arguments: [
        ("com.attacker.app", nil as String?, "group.com.victim.shared"),
        ("com.attacker.app", "ATTACK1234", "group.com.victim.shared"),
        ("com.attacker.app", "ATTACK1234", "VICTIM1234.com.victim.shared"),
        ("victim", nil, "group.victim"),
    ])
    func joiningAnotherPublishersGroupIsRefused(identifier: String, team: String?, group: String) throws {
        let setup = try Setup()
        let path = try setup.files.write(Self.groupManifest(identifier, groups: [group], team: team), to: "Joiner.plist")
        let registered = try setup.run(["apps", "register", path])
        #expect(registered.status == 2, "\(registered)")
        #expect(registered.standardError.contains("com.apple.security.application-groups"), "\(registered.standardError)")
        #expect(!FileManager.default.fileExists(atPath: setup.root + "/Shared/AppGroup/" + group))
    }

    @Test("a group made by one team is joined only by that team's apps, whatever their names")
    func teamGroupsNeedTheTeam() throws {
        let setup = try Setup()
        let group = "group.com.victim.shared"
        let victim = try setup.files.write(Self.groupManifest("com.victim.app", groups: [group], team: "VICTIM1234"), to: "Victim.plist")
        #expect(try setup.run(["apps", "register", victim]).status == 0)
        // Same domain by name, another team (or none): refused.
        for (name, team) in [("com.victim.impostor", "ATTACK1234" as String?), ("com.victim.nameonly", nil)] {
            let path = try setup.files.write(Self.groupManifest(name, groups: [group], team: team), to: name + ".plist")
            let registered = try setup.run(["apps", "register", path])
            #expect(registered.status == 2 && registered.standardError.contains("VICTIM1234"), "\(name): \(registered)")
        }
        // The team's other app, under any name: a member.
        let helper = try setup.files.write(Self.groupManifest("org.victim-tools.helper", groups: [group], team: "VICTIM1234"), to: "Helper.plist")
        #expect(try setup.run(["apps", "register", helper]).status == 0)
        #expect(try setup.run(["apps", "container", "--group", group, "org.victim-tools.helper"]).status == 0)
    }

    @Test("a group's data stays while an app that kept its data remains: unregistering the last registered member with its data leaves it")
    func keptDataKeepsTheGroup() throws {
        let setup = try Setup()
        let group = "group.com.victim.shared"
        let victim = try setup.files.write(Self.groupManifest("com.victim.app", groups: [group], team: "VICTIM1234"), to: "Victim.plist")
        let joiner = try setup.files.write(Self.groupManifest("com.victim.joiner", groups: [group], team: "VICTIM1234"), to: "Joiner.plist")
        #expect(try setup.run(["apps", "register", victim]).status == 0)
        #expect(try setup.run(["apps", "register", joiner]).status == 0)
        let notes = try setup.files.write("the victim's notes", to: "root/Shared/AppGroup/\(group)/Library/Application Support/notes.txt")
        #expect(try setup.run(["apps", "unregister", "com.victim.app"]).status == 0, "its data kept")
        #expect(try setup.run(["apps", "unregister", "--delete-data", "com.victim.joiner"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: notes), "the victim kept its data in the group")
        let groups = try setup.run(["apps", "groups", "--json"])
        let listed = try jsonObject(try #require(groups.lines.first))
        #expect(listed["identifier"] as? String == group && listed["orphaned"] as? Bool == true, "\(groups.standardOutput)")
        #expect(listed["keptBy"] as? [String] == ["com.victim.app"])
        #expect(try setup.run(["apps", "register", victim]).status == 0)
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "the victim's notes", "registered again to its data")
        #expect(try setup.run(["apps", "groups", "--json"]).standardOutput.contains("\"orphaned\":false"))
    }

    @Test("a group dropped from a manifest keeps its data, is inherited by no one without evidence, and goes only when removed explicitly")
    func droppedGroupsAreOrphaned() throws {
        let setup = try Setup()
        let group = "group.com.example.shared"
        let first = try setup.files.write(Self.groupManifest("com.example.one", groups: [group]), to: "One.plist")
        #expect(try setup.run(["apps", "register", first]).status == 0)
        let notes = try setup.files.write("kept", to: "root/Shared/AppGroup/\(group)/Library/Application Support/notes.txt")
        // Registered again without the group: the data stays, the app keeps it.
        try setup.files.write(Self.groupManifest("com.example.one", groups: []), to: "One.plist")
        #expect(try setup.run(["apps", "register", first]).status == 0)
        #expect(FileManager.default.fileExists(atPath: notes))
        let listed = try setup.run(["apps", "groups"])
        #expect(listed.standardOutput.contains("orphaned; data kept by com.example.one"), "\(listed.standardOutput)")
        // Someone else's app cannot inherit it.
        let other = try setup.files.write(Self.groupManifest("com.other.app", groups: [group]), to: "Other.plist")
        #expect(try setup.run(["apps", "register", other]).status == 2)
        // Removal is explicit, and refused while a registered app is a member.
        let member = try setup.files.write(Self.groupManifest("com.example.two", groups: [group]), to: "Two.plist")
        #expect(try setup.run(["apps", "register", member]).status == 0)
        let refused = try setup.run(["apps", "remove-group", group])
        #expect(refused.status == 2 && refused.standardError.contains("com.example.two"), "\(refused)")
        #expect(try setup.run(["apps", "unregister", "com.example.two"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: notes), "kept by two apps now")
        #expect(try setup.run(["apps", "remove-group", group]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: setup.root + "/Shared/AppGroup/" + group))
        #expect(try setup.run(["apps", "groups"]).standardOutput.isEmpty)
        #expect(try setup.run(["apps", "remove-group", group]).status == 2, "not a group any more")
    }

    @Test("an app that was a member of a group before evidence was asked keeps it when registered again")
    func existingMembersKeepTheirGroups() throws {
        let setup = try Setup()
        let manifest = try setup.files.write(Self.groupManifest("com.example.one", groups: ["group.com.example.shared"]), to: "One.plist")
        #expect(try setup.run(["apps", "register", manifest]).status == 0)
        // As a registry written before: the record names a group it has no evidence for.
        let statePath = setup.root + "/registry.json"
        let state = try String(contentsOfFile: statePath, encoding: .utf8).replacingOccurrences(of: "group.com.example.shared", with: "group.org.elsewhere.shared")
        try state.write(toFile: statePath, atomically: true, encoding: .utf8)
        try setup.files.write(Self.groupManifest("com.example.one", groups: ["group.org.elsewhere.shared"]), to: "One.plist")
        let again = try setup.run(["apps", "register", manifest])
        #expect(again.status == 0, "\(again)")
        let newcomer = try setup.files.write(Self.groupManifest("com.example.two", groups: ["group.org.elsewhere.shared"]), to: "Two.plist")
        #expect(try setup.run(["apps", "register", newcomer]).status == 2, "a newcomer still needs evidence")
    }

    // MARK: 5. Smaller things

    @Test("backup exclude and include refuse a file hard-linked into a container from outside; the outside file is untouched")
    func backupRefusesHardLinks() throws {
        let setup = try Setup()
        let outside = try setup.files.write("mine", to: "outside.txt")
        let inside = setup.root + "/Containers/com.example.viewer/Documents/linked.txt"
        #expect(link(outside, inside) == 0)
        for command in ["exclude", "include"] {
            let result = try setup.run(["backup", command, inside])
            #expect(result.status == 2 && result.standardError.contains("hard links"), "\(command): \(result)")
        }
        #expect(lgetxattr(outside, "user.uti.exclude-from-backup", nil, 0) < 0, "no attribute reached the outside file")
    }

    @Test("inbox claim of a file hard-linked into the Inbox from outside claims a private copy: the outside file keeps its mode and bytes")
    func claimCopiesHardLinks() throws {
        let setup = try Setup()
        let outside = try setup.files.write("theirs", to: "outside.txt")
        chmod(outside, 0o444)
        #expect(link(outside, setup.inbox + "/linked.txt") == 0)
        let claimed = try setup.run(["inbox", "claim", "com.example.viewer", "linked.txt"])
        #expect(claimed.status == 0, "\(claimed)")
        var status = stat()
        #expect(stat(outside, &status) == 0 && status.st_mode & 0o777 == 0o444 && status.st_nlink == 1, "the outside file is as it was")
        let copy = setup.root + "/Containers/com.example.viewer/Documents/linked.txt"
        var copied = stat()
        #expect(stat(copy, &copied) == 0 && copied.st_ino != status.st_ino && copied.st_mode & 0o200 != 0)
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "theirs")
        #expect(!FileManager.default.fileExists(atPath: setup.inbox + "/linked.txt"))
    }
}
