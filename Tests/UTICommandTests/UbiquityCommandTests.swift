import CExtendedAttributes
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// iCloud containers through the command line, and their sync through real rclone (Debian's rclone, which
/// `.ci/run` installs): two machines (two registry roots) through a local directory and through `rclone serve
/// sftp` on loopback, conflicts, SIGKILL at many points, hostile input.
@Suite("uti ubiquity")
struct UbiquityCommandTests {
    static let app = "com.example.notes"
    static let container = "iCloud.com.example.notes"
    static let directoryName = "iCloud~com~example~notes"

    static func manifest(containers: [String] = [container], store: String? = "com.example.notes") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>\(app)</string>
        <key>com.apple.developer.icloud-container-identifiers</key><array>\(containers.map { "<string>\($0)</string>" }.joined())</array>
        \(store.map { "<key>com.apple.developer.ubiquity-kvstore-identifier</key><string>\($0)</string>" } ?? "")
        </dict></plist>
        """
    }

    /// Two machines, each a registry root with the app registered, and a remote between them.
    final class Machines {
        let files: TemporaryDirectory
        var remote: String
        let roots: [String]
        /// The rclone the syncs run, and what they add to the environment.
        var rclone = "rclone"
        var environment: [String: String] = ["RCLONE_CONFIG": "/dev/null"]

        init() throws {
            files = try TemporaryDirectory(prefix: "uti-ubiquity")
            remote = files.path + "/remote"
            roots = [files.path + "/A", files.path + "/B"]
            let plist = try files.write(UbiquityCommandTests.manifest(), to: "Info.plist")
            for root in roots {
                let registered = try UTIBinary.run(["apps", "register", plist], environment: ["UTI_ROOT": root])
                #expect(registered.status == 0, "\(registered.standardError)")
            }
        }

        func container(_ machine: Int) -> String { roots[machine] + "/Mobile Documents/" + UbiquityCommandTests.directoryName }

        func run(_ machine: Int, _ arguments: [String], environment extra: [String: String] = [:]) throws -> CommandResult {
            try UTIBinary.run(arguments, environment: environment.merging(["UTI_ROOT": roots[machine]]) { $1 }.merging(extra) { $1 })
        }

        @discardableResult
        func sync(_ machine: Int, expecting status: Int32? = 0, environment extra: [String: String] = [:]) throws -> CommandResult {
            let result = try run(machine, ["ubiquity", "sync", "--remote", remote, "--rclone", rclone, UbiquityCommandTests.app], environment: extra)
            if let status { #expect(result.status == status, "sync of machine \(machine): \(result.standardError)") }
            return result
        }

        func write(_ machine: Int, _ path: String, _ bytes: [UInt8]) throws {
            let full = container(machine) + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(filePath: full))
        }

        /// Every file under the container, but the sync's sentinel: path → contents.
        func documents(_ machine: Int) throws -> [String: [UInt8]] {
            var found: [String: [UInt8]] = [:]
            let base = container(machine)
            guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
            for case let path as String in walker where path != ".uti-sync" {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    found[path] = Array(try Data(contentsOf: URL(filePath: base + "/" + path)))
                }
            }
            return found
        }

        func keyValues(_ machine: Int) throws -> [String: Any] {
            let listed = try run(machine, ["ubiquity", "kv", "list", "--json", UbiquityCommandTests.app])
            #expect(listed.status == 0, "\(listed.standardError)")
            return try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any] ?? [:]
        }
    }

    static func setAttribute(_ path: String, _ name: String, _ value: String) {
        let bytes = Array(value.utf8)
        #expect(setxattr(path, name, bytes, bytes.count, 0) == 0, "setxattr \(path) \(name): \(errno)")
    }

    static func attribute(_ path: String, _ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let size = getxattr(path, name, &buffer, buffer.count)
        return size < 0 ? nil : String(decoding: buffer[0..<size], as: UTF8.self)
    }

    // MARK: The command line

    @Test("apps container --ubiquity: the primary, a named one, exit status 2 for one not named or an app with none")
    func containerLookup() throws {
        let machines = try Machines()
        #expect(try machines.run(0, ["apps", "container", "--ubiquity", Self.app]).standardOutput == machines.container(0) + "\n")
        #expect(try machines.run(0, ["apps", "container", "--ubiquity", "--documents", Self.app, Self.container]).standardOutput
            == machines.container(0) + "/Documents\n")
        let other = try machines.run(0, ["apps", "container", "--ubiquity", Self.app, "iCloud.com.example.other"])
        #expect(other.status == 2 && other.standardError.contains("does not use the iCloud container"), "\(other.standardError)")
        let plain = try machines.files.write("""
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.plain</string></dict></plist>
            """, to: "Plain.plist")
        #expect(try machines.run(0, ["apps", "register", plain]).status == 0)
        let none = try machines.run(0, ["apps", "container", "--ubiquity", "com.example.plain"])
        #expect(none.status == 2 && none.standardError.contains("has no iCloud container"), "\(none.standardError)")
        #expect(try machines.run(0, ["apps", "container", Self.app, Self.container]).status == 64, "a container without --ubiquity")
        let shown = try machines.run(0, ["apps", "show", "--json", Self.app])
        #expect(shown.standardOutput.contains("\"ubiquityContainers\":[\"\(Self.container)\"]"), "\(shown.standardOutput)")
    }

    @Test("a manifest with a hostile iCloud identifier is refused, naming the key, exit status 2, nothing registered", arguments: [
        "iCloud.com.example/../../etc", "..", "iCloud.a/b", String(repeating: "x", count: 300) + ".y", "iCloud.com.example.\u{1B}[31m",
    ])
    func hostileManifest(identifier: String) throws {
        let files = try TemporaryDirectory(prefix: "uti-ubiquity")
        let escaped = identifier.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let plist = try files.write(Self.manifest(containers: [escaped]), to: "Info.plist")
        let registered = try UTIBinary.run(["apps", "register", plist], environment: ["UTI_ROOT": files.path + "/root"])
        #expect(registered.status == 2)
        #expect(registered.standardError.contains("com.apple.developer.icloud-container-identifiers[0]: '"), "\(registered.standardError)")
        #expect(!registered.standardError.contains("\u{1B}"), "a control character reached the terminal")
        #expect(!FileManager.default.fileExists(atPath: files.path + "/root/Mobile Documents"))
    }

    @Test("usage lists documents (a package as one) and the data total; kv get, set, remove and list with their exit statuses")
    func usageAndKeyValues() throws {
        let machines = try Machines()
        try machines.write(0, "Documents/Trip.rtfd/TXT.rtf", Array("{\\rtf1 hello}".utf8))
        try machines.write(0, "Documents/note.txt", Array("note\n".utf8))
        try machines.write(0, "Library/state.db", [UInt8](repeating: 0, count: 100))
        let usage = try machines.run(0, ["ubiquity", "usage", "--json", Self.app])
        #expect(usage.status == 0, "\(usage.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(usage.standardOutput.utf8)) as? [String: Any])
        let documents = try #require(object["documents"] as? [[String: Any]])
        #expect(documents.map { $0["path"] as? String } == ["Documents/Trip.rtfd", "Documents/note.txt"])
        #expect(documents.first?["package"] as? Bool == true && documents.first?["type"] as? String == "com.apple.rtfd")
        #expect(object["data"] as? Int == 100)
        let text = try machines.run(0, ["ubiquity", "usage", Self.app])
        #expect(text.standardOutput.contains("Documents/Trip.rtfd") && text.standardOutput.contains("(package)"), "\(text.standardOutput)")

        #expect(try machines.run(0, ["ubiquity", "kv", "set", Self.app, "theme", "dark"]).status == 0)
        #expect(try machines.run(0, ["ubiquity", "kv", "set", "--type", "integer", Self.app, "count", "3"]).status == 0)
        #expect(try machines.run(0, ["ubiquity", "kv", "set", "--type", "date", Self.app, "when", "2026-11-26T10:00:00Z"]).status == 0)
        #expect(try machines.run(0, ["ubiquity", "kv", "get", Self.app, "when"]).standardOutput == "2026-11-26T10:00:00Z\n")
        #expect(try machines.run(0, ["ubiquity", "kv", "set", "--type", "integer", Self.app, "count", "three"]).status == 64)
        let long = try machines.run(0, ["ubiquity", "kv", "set", Self.app, String(repeating: "k", count: 65), "v"])
        #expect(long.status == 2 && long.standardError.contains("a key is 1 to 64 bytes"), "\(long.standardError)")
        #expect(try machines.keyValues(0) as NSDictionary == ["theme": "dark", "count": 3, "when": ["date": "2026-11-26T10:00:00Z"]] as NSDictionary)
        #expect(try machines.run(0, ["ubiquity", "kv", "remove", Self.app, "theme"]).status == 0)
        #expect(try machines.run(0, ["ubiquity", "kv", "remove", Self.app, "theme"]).status == 1)
        #expect(try machines.run(0, ["ubiquity", "kv", "get", Self.app, "theme"]).status == 1)
    }

    // MARK: Sync

    /// Files, a package, extended attributes and key-value pairs made on one machine reach the other and back,
    /// and what is not synced stays.
    private func crossing(_ machines: Machines) throws {
        try machines.write(0, "Documents/note.txt", Array("from A\n".utf8))
        try machines.write(0, "Documents/Trip.rtfd/TXT.rtf", Array("{\\rtf1 trip}".utf8))
        try machines.write(0, "Documents/Ünïcode name.txt", Array("ü\n".utf8))
        try machines.write(0, "Library/Caches/cache.bin", [1, 2, 3])
        try machines.write(0, "tmp/scratch", [4])
        try machines.write(0, "Documents/private.txt", Array("not for the cloud\n".utf8))
        Self.setAttribute(machines.container(0) + "/Documents/private.txt", "user.uti.exclude-from-backup", "1")
        Self.setAttribute(machines.container(0) + "/Documents/note.txt", "user.color", "red")
        Self.setAttribute(machines.container(0) + "/Documents/Trip.rtfd", "user.com.example.tag", "trip")
        #expect(try machines.run(0, ["ubiquity", "kv", "set", Self.app, "theme", "dark"]).status == 0)
        let first = try machines.sync(0)
        #expect(first.standardOutput.contains("synced com.example.notes"), "\(first.standardOutput)")
        try machines.sync(1)
        let arrived = try machines.documents(1)
        #expect(arrived["Documents/note.txt"] == Array("from A\n".utf8) && arrived["Documents/Trip.rtfd/TXT.rtf"] == Array("{\\rtf1 trip}".utf8))
        #expect(arrived["Documents/Ünïcode name.txt"] == Array("ü\n".utf8))
        #expect(arrived["Library/Caches/cache.bin"] == nil && arrived["tmp/scratch"] == nil && arrived["Documents/private.txt"] == nil, "\(arrived.keys)")
        #expect(Self.attribute(machines.container(1) + "/Documents/note.txt", "user.color") == "red")
        #expect(Self.attribute(machines.container(1) + "/Documents/Trip.rtfd", "user.com.example.tag") == "trip")
        #expect(try machines.keyValues(1)["theme"] as? String == "dark")
        // And back: B's changes (a new file, an attribute changed, one removed, a key) reach A.
        try machines.write(1, "Documents/from B.txt", Array("B\n".utf8))
        Self.setAttribute(machines.container(1) + "/Documents/note.txt", "user.color", "blue")
        #expect(removexattr(machines.container(1) + "/Documents/Trip.rtfd", "user.com.example.tag") == 0)
        #expect(try machines.run(1, ["ubiquity", "kv", "set", Self.app, "font", "serif"]).status == 0)
        try machines.sync(1)
        try machines.sync(0)
        #expect(try machines.documents(0)["Documents/from B.txt"] == Array("B\n".utf8))
        #expect(Self.attribute(machines.container(0) + "/Documents/note.txt", "user.color") == "blue")
        #expect(Self.attribute(machines.container(0) + "/Documents/Trip.rtfd", "user.com.example.tag") == nil)
        #expect(try machines.keyValues(0) as NSDictionary == ["theme": "dark", "font": "serif"] as NSDictionary)
        // The two machines hold the same, but for what is not synced.
        var expected = try machines.documents(0)
        for excluded in ["Library/Caches/cache.bin", "tmp/scratch", "Documents/private.txt"] { expected.removeValue(forKey: excluded) }
        #expect(try machines.documents(1) == expected)
    }

    @Test("two machines converge through a local remote: files, packages, attributes and keys cross; caches, tmp/ and excluded items stay", Tools.needsRclone)
    func localRemote() throws {
        try crossing(try Machines())
    }

    @Test("two machines converge through rclone serve sftp on loopback, a real protocol", .timeLimit(.minutes(5)), Tools.needsRclone)
    func sftpRemote() throws {
        let machines = try Machines()
        let served = try machines.files.makeDirectory("served")
        let port = try Self.freePort()
        let obscured = try UTIBinary.run(executable: URL(filePath: "/usr/bin/env"), ["rclone", "obscure", "secret"])
        let password = obscured.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = Process()
        server.executableURL = URL(filePath: "/usr/bin/env")
        server.arguments = ["rclone", "serve", "sftp", served, "--addr", "127.0.0.1:\(port)", "--user", "uti", "--pass", "secret",
                            "--dir-cache-time", "0s", "--cache-dir", machines.files.path + "/sftp-cache", "--config", "/dev/null"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        #expect(Self.waitForListener(port: port), "rclone serve sftp did not listen on \(port)")
        machines.remote = ":sftp,host=127.0.0.1,port=\(port),user=uti,pass=\(password):uti"
        try crossing(machines)
        #expect(FileManager.default.fileExists(atPath: served + "/uti/Mobile Documents/\(Self.directoryName)/Documents/note.txt"))
        #expect(FileManager.default.fileExists(atPath: served + "/uti/SyncedPreferences/com.example.notes.plist"))
    }

    @Test("a file changed on both machines keeps both versions: the newer under its name, the other listed as a conflict, then resolved", Tools.needsRclone)
    func conflicts() throws {
        let machines = try Machines()
        try machines.write(0, "Documents/report.txt", Array("first\n".utf8))
        try machines.sync(0)
        try machines.sync(1)
        try machines.write(0, "Documents/report.txt", Array("A's edit\n".utf8))
        try machines.write(1, "Documents/report.txt", Array("B's edit, later\n".utf8))
        // B's edit is the newer one.
        var later = timespec(tv_sec: Int(Date().timeIntervalSince1970) + 60, tv_nsec: 0)
        var times = [later, later]
        #expect(utimensat(AT_FDCWD, machines.container(1) + "/Documents/report.txt", &times, 0) == 0)
        try machines.sync(0)
        let synced = try machines.sync(1)
        #expect(synced.standardOutput.contains("1 conflict,"), "\(synced.standardOutput)")
        try machines.sync(0)
        for machine in [0, 1] {
            let documents = try machines.documents(machine)
            #expect(documents["Documents/report.txt"] == Array("B's edit, later\n".utf8), "machine \(machine)")
            let versions = documents.filter { $0.key.hasPrefix("Documents/report (conflict ") && $0.key.hasSuffix(").txt") }
            #expect(versions.count == 1 && versions.first?.value == Array("A's edit\n".utf8), "machine \(machine): \(documents.keys)")
        }
        let listed = try machines.run(0, ["ubiquity", "conflicts", "--json", Self.app])
        let line = try #require(listed.lines.first)
        let conflict = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(conflict["path"] as? String == "Documents/report.txt")
        let version = try #require(conflict["version"] as? String)
        let resolved = try machines.run(0, ["ubiquity", "conflicts", "--resolve", version, "--keep", "conflict", Self.app])
        #expect(resolved.status == 0, "\(resolved.standardError)")
        #expect(try machines.run(0, ["ubiquity", "conflicts", Self.app]).standardOutput.isEmpty)
        try machines.sync(0)
        try machines.sync(1)
        for machine in [0, 1] {
            let documents = try machines.documents(machine)
            #expect(documents["Documents/report.txt"] == Array("A's edit\n".utf8), "machine \(machine)")
            #expect(!documents.keys.contains { $0.contains("(conflict ") }, "machine \(machine): \(documents.keys)")
        }
        later = timespec()
        let unknown = try machines.run(0, ["ubiquity", "conflicts", "--resolve", "Documents/nothing.txt", Self.app])
        #expect(unknown.status == 2)
    }

    // MARK: Crashes

    /// Changes on both machines since their last sync, then machine A's sync killed (`kill`), run again, and
    /// both machines synced: every change of either side is on both, nothing else, no conflict left over.
    private func killedSync(kill: (Machines) throws -> Void) throws {
        let machines = try Machines()
        let random = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try machines.write(0, "Documents/keep.txt", Array("k\n".utf8))
        try machines.write(0, "Documents/change.txt", Array("v1\n".utf8))
        try machines.write(0, "Documents/gone.txt", Array("g\n".utf8))
        try machines.write(0, "Documents/Pack.rtfd/TXT.rtf", Array("{\\rtf1 p}".utf8))
        Self.setAttribute(machines.container(0) + "/Documents/change.txt", "user.color", "red")
        #expect(try machines.run(0, ["ubiquity", "kv", "set", Self.app, "a", "1"]).status == 0)
        try machines.sync(0)
        try machines.sync(1)
        // A: a changed file, a deleted one, a large new one, an attribute, a key. B: a new file, an attribute, a key.
        try machines.write(0, "Documents/change.txt", [UInt8](repeating: UInt8(ascii: "2"), count: 200_000))
        try FileManager.default.removeItem(atPath: machines.container(0) + "/Documents/gone.txt")
        try machines.write(0, "Documents/newA.bin", random)
        Self.setAttribute(machines.container(0) + "/Documents/keep.txt", "user.tag", "A")
        #expect(try machines.run(0, ["ubiquity", "kv", "set", Self.app, "b", "2"]).status == 0)
        try machines.write(1, "Documents/newB.txt", Array("from B\n".utf8))
        Self.setAttribute(machines.container(1) + "/Documents/Pack.rtfd", "user.p", "1")
        #expect(try machines.run(1, ["ubiquity", "kv", "set", Self.app, "c", "3"]).status == 0)
        try machines.sync(1)
        try kill(machines)
        try machines.sync(0)
        try machines.sync(1)
        try machines.sync(0)
        let expected: [String: [UInt8]] = [
            "Documents/keep.txt": Array("k\n".utf8), "Documents/change.txt": [UInt8](repeating: UInt8(ascii: "2"), count: 200_000),
            "Documents/newA.bin": random, "Documents/newB.txt": Array("from B\n".utf8), "Documents/Pack.rtfd/TXT.rtf": Array("{\\rtf1 p}".utf8),
        ]
        for machine in [0, 1] {
            let documents = try machines.documents(machine)
            // Anything else is a copy the crash cut short, kept as a conflict version of the whole one (listed
            // by `conflicts`): the start of its document's bytes, never an edit of its own.
            let listed = try machines.run(machine, ["ubiquity", "conflicts", "--json", Self.app]).lines.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            for (path, contents) in documents where expected[path] == nil {
                let conflict = listed.first { $0["version"] as? String == path }
                let document = (conflict?["path"] as? String).flatMap { expected[$0] }
                #expect(document.map { $0.starts(with: contents) && $0.count > contents.count } == true,
                        "machine \(machine): \(path) (\(contents.count) bytes) is neither expected nor a listed conflict version cut short")
            }
            for (path, contents) in expected {
                let same = documents[path] == contents
                #expect(same, "machine \(machine): \(path) is \(documents[path]?.count ?? -1) bytes, not the \(contents.count) expected")
            }
            #expect(Self.attribute(machines.container(machine) + "/Documents/keep.txt", "user.tag") == "A", "machine \(machine)")
            #expect(Self.attribute(machines.container(machine) + "/Documents/change.txt", "user.color") == "red", "machine \(machine)")
            #expect(Self.attribute(machines.container(machine) + "/Documents/Pack.rtfd", "user.p") == "1", "machine \(machine)")
            #expect(try machines.keyValues(machine) as NSDictionary == ["a": "1", "b": "2", "c": "3"] as NSDictionary, "machine \(machine)")
        }
    }

    /// A wrapper around rclone that, at the first log line containing `UTI_TEST_KILL_AT`, kills rclone and uti
    /// (its parent) with SIGKILL, once (the mark file says it happened).
    static let killingWrapper = """
        #!/bin/bash
        fifo=$(mktemp -u)
        mkfifo "$fifo"
        rclone "$@" 2>"$fifo" &
        child=$!
        while IFS= read -r line; do
            printf '%s\\n' "$line" >&2
            if [ ! -e "$UTI_TEST_KILL_MARK" ] && [[ "$line" == *"$UTI_TEST_KILL_AT"* ]]; then
                : > "$UTI_TEST_KILL_MARK"
                kill -9 "$child" "$PPID"
            fi
        done < "$fifo"
        rm -f "$fifo"
        wait "$child"
        """

    @Test("a sync killed with SIGKILL inside rclone (while copying, deleting, writing its listings, after it) loses nothing; the next sync finishes it",
          Tools.wholeSuiteOnly, .tags(.stress), Tools.needsRclone, arguments: [
            "Do queued copies to", "Copied (new)", "Do queued deletes on", "Updating listings", "Bisync successful",
          ])
    func killedInsideRclone(at pattern: String) throws {
        try killedSync { machines in
            let wrapper = try machines.files.write(Self.killingWrapper, to: "rclone-killing")
            #expect(chmod(wrapper, 0o755) == 0)
            let mark = machines.files.path + "/killed"
            let killed = try machines.run(0, ["ubiquity", "sync", "--remote", machines.remote, "--rclone", wrapper, Self.app],
                                          environment: ["UTI_TEST_KILL_AT": pattern, "UTI_TEST_KILL_MARK": mark])
            #expect(FileManager.default.fileExists(atPath: mark), "never killed at '\(pattern)': \(killed.standardError)")
            #expect(killed.status != 0)
        }
    }

    @Test("a sync killed with SIGKILL before each of uti's own changes (its journal, listings' copies, attributes, the store) loses nothing",
          Tools.wholeSuiteOnly, .tags(.stress), Tools.needsFaultInjection, Tools.needsRclone)
    func killedInsideUTI() throws {
        // Every point would be a hundred syncs of a few seconds each: the first changes, then ever further apart
        // (each half again as far as the last), to the end of the sync.
        var step = 1
        var killed = 0
        var finished = false
        while !finished && step < 1_000 {
            try killedSync { machines in
                let run = try machines.run(0, ["ubiquity", "sync", "--remote", machines.remote, Self.app],
                                           environment: ["UTI_FAULT_INJECTION_KILL_AT": String(step)])
                finished = run.status == 0
            }
            if !finished { killed += 1 }
            step = max(step + 1, step * 3 / 2)
        }
        #expect(finished && killed >= 8, "the sync was killed at \(killed) points before one finished")
    }

    @Test("a sync that failed once (rclone failing, as offline) is no crash: the next edits on both machines (a line cut here, one added there) are both kept", Tools.needsRclone)
    func failedSyncThenEdits() throws {
        let machines = try Machines()
        try machines.write(0, "Documents/notes.txt", Array("one\ntwo\nthree\n".utf8))
        try machines.sync(0)
        try machines.sync(1)
        // Machine A's next sync fails: rclone exits 1 before doing anything.
        machines.rclone = "/bin/false"
        try machines.sync(0, expecting: 1)
        machines.rclone = "rclone"
        try machines.write(0, "Documents/notes.txt", Array("one\ntwo\n".utf8))
        try machines.write(1, "Documents/notes.txt", Array("one\ntwo\nthree\nfour\n".utf8))
        // Edits a second and two apart, as two people make them (rclone 1.60 tells changes by their times alone:
        // two writes within one tick of the clock would look alike to it).
        let now = Int(Date().timeIntervalSince1970)
        for (machine, offset) in [(0, 1), (1, 2)] {
            var times = [timespec(tv_sec: now + offset, tv_nsec: 0), timespec(tv_sec: now + offset, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, machines.container(machine) + "/Documents/notes.txt", &times, 0) == 0)
        }
        try machines.sync(1)
        try machines.sync(0)
        try machines.sync(1)
        for machine in [0, 1] {
            let documents = try machines.documents(machine)
            let versions = Set(documents.filter { $0.key.hasPrefix("Documents/notes") }.values)
            #expect(versions == [Array("one\ntwo\n".utf8), Array("one\ntwo\nthree\nfour\n".utf8)], "machine \(machine): \(documents.keys.sorted())")
        }
        let listed = try machines.run(0, ["ubiquity", "conflicts", Self.app])
        #expect(listed.lines.count == 1 && listed.standardOutput.contains("notes (conflict "), "\(listed.standardOutput)")
    }

    /// A wrapper around rclone that, at its first "Do queued copies to", kills rclone, writes the first half of
    /// `UTI_TEST_SOURCE` over `UTI_TEST_DESTINATION` (what rclone 1.60, which writes in place, leaves of a copy
    /// cut short), then kills uti (its parent), once (the mark file says it happened).
    static let cuttingWrapper = """
        #!/bin/bash
        fifo=$(mktemp -u)
        mkfifo "$fifo"
        rclone "$@" 2>"$fifo" &
        child=$!
        while IFS= read -r line; do
            printf '%s\\n' "$line" >&2
            if [ ! -e "$UTI_TEST_KILL_MARK" ] && [[ "$line" == *"Do queued copies to"* ]]; then
                : > "$UTI_TEST_KILL_MARK"
                kill -9 "$child"
                wait "$child"
                size=$(stat -c %s "$UTI_TEST_SOURCE")
                head -c $((size / 2)) "$UTI_TEST_SOURCE" > "$UTI_TEST_DESTINATION"
                kill -9 "$PPID"
            fi
        done < "$fifo"
        rm -f "$fifo"
        wait "$child"
        """

    @Test("a copy a dead run of rclone cut short yields the name to the whole version, and is kept as a listed conflict version", Tools.needsRclone)
    func copyCutShort() throws {
        let machines = try Machines()
        let first = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 7) }
        try machines.write(0, "Documents/doc.bin", first)
        try machines.sync(0)
        try machines.sync(1)
        // B's edit, dated an hour ago, reaches the remote; A's sync dies while copying it down.
        let second = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) }
        try machines.write(1, "Documents/doc.bin", second)
        var past = timespec(tv_sec: Int(Date().timeIntervalSince1970) - 3_600, tv_nsec: 0)
        var times = [past, past]
        #expect(utimensat(AT_FDCWD, machines.container(1) + "/Documents/doc.bin", &times, 0) == 0)
        try machines.sync(1)
        let wrapper = try machines.files.write(Self.cuttingWrapper, to: "rclone-cutting")
        #expect(chmod(wrapper, 0o755) == 0)
        let mark = machines.files.path + "/killed"
        let killed = try machines.run(0, ["ubiquity", "sync", "--remote", machines.remote, "--rclone", wrapper, Self.app], environment: [
            "UTI_TEST_KILL_MARK": mark, "UTI_TEST_SOURCE": machines.remote + "/Mobile Documents/\(Self.directoryName)/Documents/doc.bin",
            "UTI_TEST_DESTINATION": machines.container(0) + "/Documents/doc.bin",
        ])
        #expect(FileManager.default.fileExists(atPath: mark) && killed.status != 0, "\(killed.standardError)")
        #expect(try machines.documents(0)["Documents/doc.bin"]?.count == second.count / 2, "the copy was not cut short")
        try machines.sync(0)
        try machines.sync(1)
        try machines.sync(0)
        for machine in [0, 1] {
            let documents = try machines.documents(machine)
            #expect(documents["Documents/doc.bin"] == second, "machine \(machine): the whole version does not have the name")
            let versions = documents.filter { $0.key.hasPrefix("Documents/doc (conflict ") }
            #expect(versions.count == 1 && versions.first?.value == Array(second.prefix(second.count / 2)), "machine \(machine): \(documents.keys.sorted())")
        }
        let listed = try machines.run(0, ["ubiquity", "conflicts", Self.app])
        #expect(listed.lines.count == 1, "\(listed.standardOutput)")
        past = timespec()
    }

    @Test("a remote attributes' manifest past 256 MiB (sparse, 1.5 GiB) is refused while it is read: the sync fails naming it, in bounded memory", Tools.needsRclone)
    func hugeRemoteManifest() throws {
        let machines = try Machines()
        try machines.write(0, "Documents/a.txt", Array("a\n".utf8))
        try machines.sync(0)
        let manifest = machines.remote + "/.uti/attributes/\(Self.directoryName).plist"
        try FileManager.default.createDirectory(atPath: machines.remote + "/.uti/attributes", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: manifest, contents: nil) && truncate(manifest, 3 << 29) == 0)
        // In 1 GiB of address space: a sync that gathered the whole manifest before its limit applied could not.
        let script = "ulimit -v \(1 << 20); exec \"$UTI\" ubiquity sync --remote \"$REMOTE\" \(Self.app)"
        let limited = try UTIBinary.run(executable: URL(filePath: "/bin/sh"), ["-c", script], environment: machines.environment.merging([
            "UTI": UTIBinary.url.path, "UTI_ROOT": machines.roots[0], "REMOTE": machines.remote,
        ]) { $1 })
        #expect(limited.status == 1 || limited.status == 2, "\(limited.status): \(limited.standardError)")
        #expect(limited.standardError.contains("larger than 256 MiB") && limited.standardError.contains(".uti/attributes"), "\(limited.standardError)")
    }

    @Test("rclone's lock is taken back when its process is gone: exited, exited and not yet reaped, or its number another program's; a running bisync's is respected", Tools.needsRclone)
    func staleLocks() throws {
        let machines = try Machines()
        try machines.write(0, "Documents/a.txt", Array("a\n".utf8))
        try machines.sync(0)
        let lock = try Self.bisyncLock(machines.roots[0])
        @discardableResult func syncWithLock(of pid: pid_t, expecting status: Int32) throws -> CommandResult {
            try Data("\(pid)".utf8).write(to: URL(filePath: lock))
            return try machines.sync(0, expecting: status)
        }
        // Exited, and its parent (this test) has not waited for it: a zombie, which still answers kill(pid, 0).
        let exited = try Self.spawn("/bin/true", ["true"])
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(exited), &info, WEXITED | WNOWAIT) == 0)
        try syncWithLock(of: exited, expecting: 0)
        #expect(!FileManager.default.fileExists(atPath: lock))
        var status: Int32 = 0
        #expect(waitpid(exited, &status, 0) == exited)
        // Gone altogether (reaped above).
        try syncWithLock(of: exited, expecting: 0)
        // Running, but not rclone bisync: the number was given to another program.
        let other = try Self.spawn("/bin/sleep", ["sleep", "600"])
        defer { kill(other, SIGKILL); waitpid(other, &status, 0) }
        try syncWithLock(of: other, expecting: 0)
        // Running and a bisync: refused, the lock left alone; once that process ends, the next sync goes ahead.
        let running = try Self.spawn("/bin/sh", ["sh", "-c", "sleep 600; :", "rclone", "bisync"])
        let refused = try syncWithLock(of: running, expecting: 1)
        #expect(refused.standardError.contains("an rclone (process \(running)) is still syncing"), "\(refused.standardError)")
        #expect(FileManager.default.fileExists(atPath: lock))
        kill(-running, SIGKILL)
        #expect(waitpid(running, &status, 0) == running)
        #expect(try machines.sync(0).status == 0)
        #expect(!FileManager.default.fileExists(atPath: lock))
    }

    // MARK: Hostile input

    @Test("a local remote reached through a symbolic link out of it is refused, exit status 2, nothing synced")
    func remoteThroughLink() throws {
        let machines = try Machines()
        let outside = try machines.files.makeDirectory("outside")
        try machines.files.makeDirectory("remote-parent")
        try FileManager.default.createSymbolicLink(atPath: machines.files.path + "/remote-parent/link", withDestinationPath: outside)
        machines.remote = machines.files.path + "/remote-parent/link/remote"
        try machines.write(0, "Documents/note.txt", Array("x".utf8))
        let refused = try machines.sync(0, expecting: 2)
        #expect(refused.standardError.contains("symbolic link"), "\(refused.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        machines.remote = "relative/path"
        #expect(try machines.sync(0, expecting: 2).standardError.contains("absolute path"))
        machines.remote = "remote:\u{7}bell"
        #expect(try machines.sync(0, expecting: 2).standardError.contains("control characters"))
    }

    @Test("a key-value store edited into garbage (here or on the remote) stops the sync with the file named, and nothing changes", Tools.needsRclone)
    func garbageStore() throws {
        let machines = try Machines()
        #expect(try machines.run(0, ["ubiquity", "kv", "set", Self.app, "k", "v"]).status == 0)
        try machines.sync(0)
        let remoteStore = machines.remote + "/SyncedPreferences/com.example.notes.plist"
        let before = try Data(contentsOf: URL(filePath: remoteStore))
        let local = machines.roots[0] + "/SyncedPreferences/com.example.notes/values.plist"
        try Data("garbage".utf8).write(to: URL(filePath: local))
        let refused = try machines.sync(0, expecting: 2)
        #expect(refused.standardError.contains(local) && refused.standardError.contains("not a key-value store"), "\(refused.standardError)")
        #expect(try Data(contentsOf: URL(filePath: local)) == Data("garbage".utf8))
        #expect(try Data(contentsOf: URL(filePath: remoteStore)) == before)
        // The remote's garbage, likewise.
        try Data("<plist><dict><key>values</key><integer>3</integer></dict></plist>".utf8).write(to: URL(filePath: remoteStore))
        #expect(try machines.run(1, ["ubiquity", "kv", "set", Self.app, "other", "1"]).status == 0)
        let localB = machines.roots[1] + "/SyncedPreferences/com.example.notes/values.plist"
        let storeB = try Data(contentsOf: URL(filePath: localB))
        let refusedB = try machines.sync(1, expecting: 2)
        #expect(refusedB.standardError.contains("SyncedPreferences/com.example.notes.plist"), "\(refusedB.standardError)")
        #expect(try Data(contentsOf: URL(filePath: localB)) == storeB)
    }

    @Test("a container wiped since its last sync (its .uti-sync gone) is not synced, so its emptiness reaches nowhere; --force syncs it", Tools.needsRclone)
    func wipedContainer() throws {
        let machines = try Machines()
        try machines.write(0, "Documents/note.txt", Array("kept\n".utf8))
        try machines.sync(0)
        try FileManager.default.removeItem(atPath: machines.container(0))
        try FileManager.default.createDirectory(atPath: machines.container(0) + "/Documents", withIntermediateDirectories: true)
        let refused = try machines.sync(0, expecting: 2)
        #expect(refused.standardError.contains("wiped or replaced"), "\(refused.standardError)")
        #expect(FileManager.default.fileExists(atPath: machines.remote + "/Mobile Documents/\(Self.directoryName)/Documents/note.txt"))
        let forced = try machines.run(0, ["ubiquity", "sync", "--force", "--remote", machines.remote, Self.app])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(!FileManager.default.fileExists(atPath: machines.remote + "/Mobile Documents/\(Self.directoryName)/Documents/note.txt"))
    }

    @Test("without rclone, sync says so and where to get it, exit status 2")
    func missingEngine() throws {
        let machines = try Machines()
        machines.rclone = machines.files.path + "/no-such-rclone"
        let missing = try machines.sync(0, expecting: 2)
        #expect(missing.standardError.contains("rclone") && missing.standardError.contains("cannot be run"), "\(missing.standardError)")
    }

    // MARK: Helpers

    /// Where rclone bisync keeps its lock for the machine's one container: beside its listings of the last sync.
    static func bisyncLock(_ root: String) throws -> String {
        let sync = root + "/Sync"
        let listings = (FileManager.default.enumerator(atPath: sync)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".path1.lst") }
        let listing = try #require(listings.first, "no listing under \(sync)")
        #expect(listings.count == 1, "\(listings)")
        return sync + "/" + listing.dropLast(".path1.lst".count) + ".lck"
    }

    /// Starts `program` as a child of this process, in a process group of its own, and does not wait for it.
    static func spawn(_ program: String, _ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, nil, &attributes, &argv, environ)
        try #require(result == 0, "posix_spawn \(program): \(result)")
        return pid
    }

    /// A TCP port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on the port within a while (the server starting).
    static func waitForListener(port: Int) -> Bool {
        for _ in 0..<200 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(descriptor)
            if connected == 0 { return true }
            usleep(50_000)
        }
        return false
    }
}
