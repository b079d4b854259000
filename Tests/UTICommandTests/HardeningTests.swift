import Foundation
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What an attacker and an unlucky user tried against routing, each as it was reproduced.
@Suite("Routing under attack and after crashes")
struct HardeningTests {
    typealias Setup = RouteCommandTests.Setup

    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o7777
    }

    private static func manifest(_ identifier: String, name: String = "App", types: [String] = ["public.data"], extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>\(identifier)</string>
        <key>CFBundleName</key><string>\(name)</string>
        <key>CFBundleDocumentTypes</key><array><dict>
        <key>LSItemContentTypes</key><array>\(types.map { "<string>\($0)</string>" }.joined())</array></dict></array>
        \(extra)</dict></plist>
        """
    }

    // MARK: Data outside the root

    @Test("every command that takes a bundle identifier refuses one that would leave the root",
          arguments: ["../../../outside", "../outside", "/etc", "a/../../outside", ".hidden", "com.example..x", ""])
    func bundleIdentifiersAreChecked(identifier: String) throws {
        let setup = try Setup()
        let canary = try setup.files.write("keep me", to: "outside/Documents/Inbox/secret.txt")
        try setup.files.write("<plist version=\"1.0\"><dict/></plist>", to: "outside.plist")
        let commands: [[String]] = [
            ["inbox", "list", identifier], ["inbox", "claim", identifier, "secret.txt"], ["inbox", "remove", identifier, "secret.txt"],
            ["apps", "show", identifier], ["apps", "unregister", "--delete-data", identifier],
            ["default", "set", "public.data", identifier], ["route", "--to", identifier, canary],
        ]
        for command in commands {
            let result = try setup.run(command)
            #expect(result.status != 0, "\(command)")
            #expect(!result.standardOutput.contains("secret.txt"), "\(command): \(result.standardOutput)")
        }
        #expect(try String(contentsOfFile: canary, encoding: .utf8) == "keep me")
        #expect(Self.mode(canary) == 0o644, "nothing outside the root had its mode changed")
    }

    @Test("unregister --delete-data removes links planted in the container as links, and nothing outside it")
    func deletionNeverLeavesTheContainer() throws {
        let setup = try Setup()
        let outside = try setup.files.makeDirectory("outside")
        try setup.files.write("keep", to: "outside/precious.txt")
        chmod(outside, 0o750)
        let container = setup.root + "/Containers/com.example.viewer"
        #expect(symlink(outside, container + "/Documents/linked-directory") == 0)
        #expect(symlink(outside + "/precious.txt", container + "/Library/linked-file") == 0)
        try FileManager.default.createDirectory(atPath: container + "/Documents/deep/er", withIntermediateDirectories: true)
        #expect(symlink(outside, container + "/Documents/deep/er/link") == 0)
        chmod(container + "/Documents/deep", 0o500)
        let result = try setup.run(["apps", "unregister", "--delete-data", "com.example.viewer"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: container))
        #expect(try String(contentsOfFile: outside + "/precious.txt", encoding: .utf8) == "keep")
        #expect(Self.mode(outside) == 0o750, "no mode is changed, outside or in")
    }

    @Test("a directory of the container swapped for a link while it is deleted: nothing outside is touched", .tags(.stress), Tools.wholeSuiteOnly)
    func deletionRacingASwap() throws {
        let setup = try Setup()
        let outside = try setup.files.makeDirectory("outside")
        for index in 0..<50 { try setup.files.write("keep", to: "outside/f\(index)") }
        let manifest = setup.files.path + "/Viewer.app"
        let root = setup.root
        let swaps = Shared(0)
        for _ in 0..<20 {
            let documents = root + "/Containers/com.example.viewer/Documents"
            for index in 0..<200 { try setup.files.write("x", to: "root/Containers/com.example.viewer/Documents/sub/f\(index)") }
            let stop = Atomic(false)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                // Swap Documents/sub for a link to the outside, back and forth, while the deletion runs.
                while !stop.load() {
                    guard rename(documents + "/sub", documents + "/sub.away") == 0 else { continue }
                    if symlink(outside, documents + "/sub") == 0 {
                        swaps.withLock { $0 += 1 }
                        _ = unlink(documents + "/sub")
                    }
                    _ = rename(documents + "/sub.away", documents + "/sub")
                }
            }
            _ = try UTIBinary.run(["apps", "unregister", "--delete-data", "com.example.viewer"], environment: ["UTI_ROOT": root])
            stop.store(true)
            group.wait()
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside).count == 50, "nothing outside the container was deleted")
            _ = try UTIBinary.run(["apps", "check", "--repair"], environment: ["UTI_ROOT": root])
            #expect(try UTIBinary.run(["apps", "register", manifest], environment: ["UTI_ROOT": root]).status == 0)
        }
        #expect(swaps.withLock { $0 } > 0, "the link was never planted: nothing raced the deletion")
    }

    // The library's side of these (modes, links, a source that changes, long and case-folded identifiers,
    // hostile manifests) is tested in DocumentRoutingTests' HostileInputTests; here, what the command does.

    @Test("standard input, a pipe, is delivered owner-only; the container is private")
    func standardInputCopiesArePrivate() throws {
        let setup = try Setup()
        #expect(Self.mode(setup.root + "/Containers/com.example.viewer") == 0o700)
        #expect(try setup.run(["route", "--name", "piped.txt", "-"], input: Data("from a pipe\n".utf8)).status == 0)
        #expect(Self.mode(setup.inbox + "/piped.txt") & 0o044 == 0, "standard input (a pipe, 0600) gives an owner-only copy")
    }

    @Test("a symbolic link given as the file: exit 1 and why; -L follows it")
    func symbolicLinkSources() throws {
        let setup = try Setup()
        let target = try setup.files.write("the target\n", to: "target.txt")
        let link = setup.files.path + "/link.txt"
        #expect(symlink(target, link) == 0)
        let refused = try setup.run(["route", link])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("symbolic link"), "\(refused.standardError)")
        #expect(try setup.run(["route", "-L", link]).status == 0)
        #expect(try String(contentsOfFile: setup.inbox + "/link.txt", encoding: .utf8) == "the target\n")
    }

    @Test("a source that changed during the copy: exit 1 and why")
    func sourceThatChanges() throws {
        let setup = try Setup()
        let result = try setup.run(["route", "--to", "com.example.viewer", "--name", "status.txt", "/proc/self/status"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("changed while it was being delivered"), "\(result.standardError)")
    }

    @Test("names that are not UTF-8 are delivered byte for byte, however long")
    func byteExactNames() throws {
        let setup = try Setup()
        let names: [[UInt8]] = [Array("bad".utf8) + [0xFF] + Array(".txt".utf8), Array("bad".utf8) + [0xFE] + Array(".txt".utf8),
                                [UInt8](repeating: 0xFF, count: 250) + Array(".txt".utf8)]
        for name in names {
            let path = Array(setup.files.path.utf8) + [UInt8(ascii: "/")] + name
            let descriptor = (path + [0]).map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { Glibc.open($0, O_CREAT | O_WRONLY, 0o644) } ?? -1
            }
            #expect(descriptor >= 0)
            _ = write(descriptor, "x", 1)
            close(descriptor)
            let result = try UTIBinary.run(rawArguments: [Array("--root".utf8), Array(setup.root.utf8), Array("route".utf8), path].reordered())
            #expect(result.status == 0, "\(result.standardError)")
        }
        let delivered = try Set(Self.entries(setup.inbox))
        #expect(delivered == Set(names))
    }

    private static func entries(_ directory: String) throws -> [[UInt8]] {
        guard let stream = opendir(directory) else { throw POSIXError(.ENOENT) }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    // MARK: Hostile manifests

    @Test("a hostile manifest or declaration file: exit 2, with the file and the limit named")
    func hostileManifests() throws {
        let setup = try Setup()
        let deep = Self.manifest("com.example.deep", extra: "<key>Deep</key>" + String(repeating: "<array>", count: 100_000))
        try setup.files.write(deep, to: "Deeper.plist")
        let result = try setup.run(["apps", "register", setup.files.path + "/Deeper.plist"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("Deeper.plist") && result.standardError.contains("nested deeper than 32 levels"), "\(result.standardError)")
        // A declaration file is parsed with the same limits.
        let declarations = "<plist><dict><key>UTExportedTypeDeclarations</key>" + String(repeating: "<array>", count: 100_000) + "</dict></plist>"
        let file = try setup.files.write(declarations, to: "Types.plist")
        let info = try setup.run(["info", "--types", file, "public.data"])
        #expect(info.status == 2 && info.standardError.contains("nested deeper"), "\(info.standardError)")
    }

    // MARK: Output

    @Test("control characters in names and manifests are escaped in every human-readable output")
    func controlCharactersAreEscaped() throws {
        let setup = try Setup()
        try setup.files.write(Self.manifest("com.example.escape", name: "Evil\u{1B}[2J\nforged line"), to: "Evil.plist")
        #expect(try setup.run(["apps", "register", setup.files.path + "/Evil.plist"]).status == 0)
        // Past ASCII alone (nothing below 0x20 to give the name away): DEL, a C1 control sequence introducer, a
        // right-to-left override.
        try setup.files.write(Self.manifest("com.example.bidi", name: "Bidi\u{7F}\u{9B}31m\u{202E}gpj.exe"), to: "Bidi.plist")
        #expect(try setup.run(["apps", "register", setup.files.path + "/Bidi.plist"]).status == 0)
        let name = "evil\u{1B}]0;title\u{07}\nfake: public.jpeg.txt"
        let file = try setup.files.write("text\n", to: name)
        let literal = try setup.files.write("text\n", to: "literal\\xFF.txt")
        for command in [["identify", file, literal], ["route", "--to", "com.example.viewer", file], ["apps", "list"], ["apps", "show", "com.example.escape"], ["apps", "show", "com.example.bidi"],
                        ["classify", "--format", "table", setup.files.path], ["inbox", "list", "com.example.viewer"]] {
            let result = try setup.run(command)
            #expect(!result.standardOutput.utf8.contains(0x1B) && !result.standardError.utf8.contains(0x1B), "\(command): ESC reached the terminal")
            #expect(!result.standardOutput.utf8.contains(0x07), "\(command)")
            #expect(!result.standardOutput.utf8.contains(0x7F) && !result.standardOutput.contains("\u{9B}") && !result.standardOutput.contains("\u{202E}"),
                    "\(command): DEL, a C1 control or a bidirectional override reached the terminal")
            #expect(!result.lines.contains { $0.hasPrefix("fake:") || $0.hasPrefix("forged line") }, "\(command): a name forged a line")
        }
        let identified = try setup.run(["identify", literal])
        #expect(identified.standardOutput.hasPrefix(literal.replacingOccurrences(of: "\\", with: "\\\\") + ": "),
                "a backslash in a name is doubled, so the text \\xFF never reads as the byte 0xFF")
    }

    // MARK: The registry

    @Test("a record that cannot be read, or an app whose declarations conflict, is reported; the other apps are served; check --repair mends it")
    func brokenRecordsAndConflicts() throws {
        let setup = try Setup()
        for (identifier, type, parent) in [("com.example.first", "com.example.cycle-x", "com.example.cycle-y"), ("com.example.second", "com.example.cycle-y", "com.example.cycle-x")] {
            let declaration = "<key>UTExportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key><string>\(type)</string><key>UTTypeConformsTo</key><array><string>\(parent)</string></array></dict></array>"
            try setup.files.write(Self.manifest(identifier, types: [type], extra: declaration), to: "\(identifier).plist")
        }
        #expect(try setup.run(["apps", "register", setup.files.path + "/com.example.first.plist"]).status == 0)
        #expect(try setup.run(["apps", "register", setup.files.path + "/com.example.second.plist"]).status == 2, "a cycle across apps is refused at registration")
        // A registry written before such cycles were refused: the second app's record put in by hand, and a record that is garbage.
        let statePath = setup.root + "/registry.json"
        var state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: statePath))) as? [String: Any])
        var apps = try #require(state["apps"] as? [[String: Any]])
        var second = try #require(apps.last)
        second["bundleIdentifier"] = "com.example.second"
        second["container"] = "com.example.second"
        second["declarations"] = [["identifier": "com.example.cycle-y", "kind": "exported", "conformsTo": ["com.example.cycle-x"], "tags": [String: [String]]()]]
        apps.append(second)
        apps.append(["bundleIdentifier": "../../etc", "container": "../../etc"])
        state["apps"] = apps
        try JSONSerialization.data(withJSONObject: state).write(to: URL(filePath: statePath))

        let text = try setup.files.write("plain\n", to: "plain.txt")
        let routed = try setup.run(["route", "--to", "com.example.viewer", text])
        #expect(routed.status == 0, "one app's declarations never make routing fail for other files: \(routed.standardError)")
        #expect(routed.standardError.contains("warning"))
        let list = try setup.run(["apps", "list"])
        #expect(list.status == 0 && list.lines.count == 3, "\(list.lines)")
        let check = try setup.run(["apps", "check"])
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("conflicting-declarations") && check.standardOutput.contains("unreadable-record"), "\(check.standardOutput)")
        let repaired = try setup.run(["apps", "check", "--repair"])
        #expect(repaired.standardOutput.contains("repaired:"), "\(repaired.standardOutput)")
        #expect(!repaired.standardOutput.contains("unreadable-record:"), "the unreadable record was dropped")
        #expect(!FileManager.default.fileExists(atPath: setup.root + "/../../etc/Documents"))
    }

    @Test("a version-1 registry (identifiers and Apps/*.plist) is read, and converted by the next change")
    func legacyRegistry() throws {
        let setup = try Setup()
        try FileManager.default.createDirectory(atPath: setup.root + "/Apps", withIntermediateDirectories: true)
        for directory in ["Documents/Inbox", "Library/Caches", "Library/Application Support", "Library/Preferences", "tmp"] {
            try FileManager.default.createDirectory(atPath: setup.root + "/Containers/com.example.old/" + directory, withIntermediateDirectories: true)
        }
        try setup.files.write(Self.manifest("com.example.old", types: ["public.plain-text"]), to: "root/Apps/com.example.old.plist")
        try Data(#"{"apps":["com.example.old"],"defaults":[{"type":"public.plain-text","bundleIdentifier":"com.example.old"}]}"#.utf8)
            .write(to: URL(filePath: setup.root + "/registry.json"))
        #expect(try setup.run(["apps", "list"]).lines.map { $0.split(separator: " ").first.map(String.init) } == ["com.example.old"])
        let text = try setup.files.write("plain\n", to: "plain.txt")
        let routed = try setup.run(["route", text])
        #expect(routed.status == 0 && routed.standardOutput.contains("com.example.old"), "\(routed.standardError)")
        #expect(try setup.run(["apps", "register", setup.files.path + "/Viewer.app"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: setup.root + "/Apps"))
        let state = try String(contentsOfFile: setup.root + "/registry.json", encoding: .utf8)
        #expect(state.contains("\"version\" : 2") && state.contains("com.example.old"))
        #expect(try setup.run(["apps", "check"]).status == 0)
    }

    @Test("an fsync that fails at any point of a delivery: either the file is delivered and on disk, or the command fails and nothing is delivered",
          Tools.needsFaultInjection)
    func failingSync() throws {
        let setup = try Setup()
        let image = try setup.files.write(IdentifyCommandTests.png, to: "photo.png")
        var sawInboxSync = false
        var step = 1
        while step < 50 {
            let routed = try UTIBinary.run(["route", image], environment: ["UTI_ROOT": setup.root, "UTI_FAULT_INJECTION_FAIL_SYNC": String(step)])
            let inbox = try FileManager.default.contentsOfDirectory(atPath: setup.inbox)
            let temporaries = try FileManager.default.contentsOfDirectory(atPath: setup.temporary).filter { $0.hasSuffix(".uti-delivery") }
            if routed.status == 0 {
                #expect(inbox == ["photo.png"], "sync \(step) failed, delivery reported: \(inbox)")
                // A delivery reported made only when no sync it depended on failed: past the last one, it always is.
                if !routed.standardError.isEmpty { Issue.record("sync \(step): \(routed.standardError)") }
                if !sawInboxSync { step += 1; try? FileManager.default.removeItem(atPath: setup.inbox + "/photo.png"); continue }
                break
            }
            #expect(inbox.isEmpty, "sync \(step) failed and the command failed, yet the Inbox holds \(inbox)")
            #expect(temporaries.isEmpty, "sync \(step): temporaries left: \(temporaries)")
            #expect(routed.standardError.contains("Input/output error") || routed.standardError.contains("I/O error"), "\(routed.standardError)")
            if routed.standardError.contains("syncing the Inbox; nothing delivered") { sawInboxSync = true }
            step += 1
        }
        #expect(sawInboxSync, "one of the syncs was the Inbox's, and its failure was reported")
    }

    @Test("what crashes leave (state temporaries, unlocked delivery temporaries) is removed under the lock; a delivery in progress is not")
    func leftovers() throws {
        let setup = try Setup()
        try setup.files.write("half", to: "root/registry.json.4242.tmp")
        try setup.files.write("half a copy", to: "root/Containers/com.example.viewer/tmp/1.2.3.uti-delivery")
        let busy = try setup.files.write("in progress", to: "root/Containers/com.example.viewer/tmp/4.5.6.uti-delivery")
        let holder = open(busy, O_RDONLY)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        defer { close(holder) }
        let check = try setup.run(["apps", "check"])
        #expect(check.status == 1 && check.standardOutput.contains("1.2.3.uti-delivery") && !check.standardOutput.contains("4.5.6"), "\(check.standardOutput)")
        // A listing changes nothing; the next delivery into the container removes what the crash left.
        #expect(try setup.run(["inbox", "list", "com.example.viewer"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.temporary).filter { $0 != "CACHEDIR.TAG" }.sorted()
                == ["1.2.3.uti-delivery", "4.5.6.uti-delivery"])
        let note = try setup.files.write("words\n", to: "note.txt")
        #expect(try setup.run(["route", note]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.temporary).filter { $0 != "CACHEDIR.TAG" } == ["4.5.6.uti-delivery"])
        #expect(try setup.run(["default", "set", "public.data", "com.example.viewer"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: setup.root + "/registry.json.4242.tmp"))
    }

    @Test("kill -9 before every change to the file system, in every registry change: the registry works after each death", .tags(.stress),
          Tools.wholeSuiteOnly, Tools.needsFaultInjection)
    func crashAtEveryStep() throws {
        let setup = try Setup()
        try setup.files.write(Self.manifest("com.example.crash", types: ["public.plain-text"]), to: "Crash.plist")
        let text = try setup.files.write("plain\n", to: "plain.txt")
        let register = ["apps", "register", setup.files.path + "/Crash.plist"]
        func isRegistered() throws -> Bool { try setup.run(["apps", "list"]).standardOutput.contains("com.example.crash") }
        // Each change, and the state it starts from.
        let scenarios: [(name: String, registered: Bool, arguments: [String])] = [
            ("register", false, register),
            ("register again", true, register),
            ("default set", true, ["default", "set", "public.plain-text", "com.example.crash"]),
            ("unregister", true, ["apps", "unregister", "com.example.crash"]),
            ("unregister --delete-data", true, ["apps", "unregister", "--delete-data", "com.example.crash"]),
        ]
        var deaths = 0
        for scenario in scenarios {
            var step = 1
            while step < 500 {
                if try isRegistered() != scenario.registered {
                    let fixed = try setup.run(scenario.registered ? register : ["apps", "unregister", "com.example.crash"])
                    #expect(fixed.status == 0, "\(scenario.name): \(fixed.standardError)")
                }
                if scenario.registered {
                    for index in 0..<5 { try setup.files.write("data \(index)", to: "root/Containers/com.example.crash/Documents/f\(index)") }
                }
                let crashed = try UTIBinary.run(scenario.arguments, environment: ["UTI_ROOT": setup.root, "UTI_FAULT_INJECTION_KILL_AT": String(step)])
                let list = try setup.run(["apps", "list"])
                #expect(list.status == 0, "\(scenario.name) killed before change \(step): \(list.standardError)")
                let registered = list.standardOutput.contains("com.example.crash")
                let routed = try setup.run(["route", "--to", "com.example.crash", text])
                #expect(routed.status == (registered ? 0 : 2), "\(scenario.name) killed before change \(step): \(routed.standardError)")
                #expect(try setup.run(["apps", "check"]).status != 2, "\(scenario.name) killed before change \(step)")
                if crashed.status == 0 { break }
                deaths += 1
                step += 1
            }
            #expect(step > 2, "\(scenario.name) makes several changes")
        }
        let repaired = try setup.run(["apps", "check", "--repair"])
        #expect(repaired.status == 0, "\(repaired.standardOutput)")
        #expect(deaths >= 100, "\(deaths)")
    }

    @Test("readers see a whole registry while another app is registered and unregistered", .tags(.stress), Tools.wholeSuiteOnly)
    func readersDuringChanges() throws {
        let setup = try Setup()
        try setup.files.write(Self.manifest("com.example.churn"), to: "Churn.plist")
        let image = try setup.files.write(IdentifyCommandTests.png, to: "a.png")
        let root = setup.root, manifest = setup.files.path + "/Churn.plist"
        let group = DispatchGroup()
        // Every change must succeed too: a test whose writer always failed would have readers see no change.
        let writerFailures = Shared<[String]>([])
        DispatchQueue.global().async(group: group) {
            for round in 0..<40 {
                for arguments in [["apps", "register", manifest], ["apps", "unregister", "--delete-data", "com.example.churn"]] {
                    do {
                        let result = try UTIBinary.run(arguments, environment: ["UTI_ROOT": root])
                        if result.status != 0 { writerFailures.withLock { $0.append("round \(round) \(arguments[1]): \(result.standardError)") } }
                    } catch {
                        writerFailures.withLock { $0.append("round \(round) \(arguments[1]): \(error)") }
                    }
                }
            }
        }
        var failures: [String] = []
        for _ in 0..<120 {
            let result = try setup.run(["route", "--to", "com.example.viewer", image])
            if result.status != 0 { failures.append(result.standardError) }
        }
        group.wait()
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let failedChanges = writerFailures.withLock { $0 }
        #expect(failedChanges.isEmpty, "\(failedChanges.count) of 80 changes failed: \(failedChanges.prefix(3))")
        #expect(!(try setup.run(["apps", "list"]).standardOutput.contains("com.example.churn")), "the last change was an unregistration")
    }
}

/// A value threads share, under a lock.
private final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
    func withLock<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}

/// A flag two threads share.
private final class Atomic: Sendable {
    private let value: Mutex<Bool>
    init(_ initial: Bool) { value = Mutex(initial) }
    func load() -> Bool { value.withLock { $0 } }
    func store(_ new: Bool) { value.withLock { $0 = new } }
}

private extension Array where Element == [UInt8] {
    /// `uti --root R route FILE` as `uti route --root R FILE`: the option belongs to the subcommand.
    func reordered() -> [[UInt8]] { count == 4 ? [self[2], self[0], self[1], self[3]] : self }
}
