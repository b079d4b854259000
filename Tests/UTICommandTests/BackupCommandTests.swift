import CExtendedAttributes
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `uti backup list|exclude|include`: what a backup takes, against real GNU tar.
@Suite("uti backup")
struct BackupCommandTests {
    typealias Setup = RouteCommandTests.Setup

    static let signature = "Signature: 8a477f597d28d172789f06886806bc55"

    /// The value of an extended attribute of `path` (not following a link), `nil` when it has none.
    static func attribute(_ name: String, of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = lgetxattr(path, name, &buffer, buffer.count)
        return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// A second app, so that listings cover more than one container.
    static func registerEditor(_ setup: Setup) throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>com.example.editor</string>
            <key>CFBundleName</key><string>Editor</string></dict></plist>
            """
        try setup.files.write(plist, to: "Editor.app/Contents/Info.plist")
        let result = try setup.run(["apps", "register", setup.files.file("Editor.app")])
        #expect(result.status == 0, "\(result)")
    }

    /// Fills a container with what a backup takes and what it leaves out; returns the excluded file's path.
    @discardableResult
    static func populate(_ setup: Setup, _ bundleIdentifier: String) throws -> String {
        let container = setup.root + "/Containers/" + bundleIdentifier
        let manager = FileManager.default
        for directory in ["Documents/Projects/2024", "Documents/Scratch/deep", "Documents/Own cache", "Library/Application Support/db", "Library/Caches/thumbs"] {
            try manager.createDirectory(atPath: container + "/" + directory, withIntermediateDirectories: true)
        }
        for (name, text) in [("Documents/Projects/2024/report with spaces.txt", "report"), ("Documents/Scratch/deep/big.bin", "scratch"),
                             ("Documents/Own cache/CACHEDIR.TAG", signature + "\n# someone else's tag\n"), ("Documents/Own cache/blob", "blob"),
                             ("Documents/huge.iso", "huge"), ("Library/Application Support/db/store.sqlite", "db"),
                             ("Library/Preferences/prefs.plist", "prefs"), ("Library/Caches/thumbs/1.png", "png"), ("tmp/scratch", "tmp")] {
            try Data(text.utf8).write(to: URL(filePath: container + "/" + name))
        }
        #expect(symlink("/etc/passwd", container + "/Documents/passwd-link") == 0)
        #expect(mkfifo(container + "/Documents/fifo", 0o600) == 0)
        #expect(try setup.run(["backup", "exclude", container + "/Documents/Scratch"]).status == 0)
        let excludedFile = container + "/Documents/huge.iso"
        #expect(try setup.run(["backup", "exclude", excludedFile]).status == 0)
        return excludedFile
    }

    @Test("backup list takes what GNU tar --exclude-caches-all takes from Documents/ and Library/, but for excluded files")
    func tarAgrees() throws {
        #expect(Tools.has("tar"))
        let setup = try Setup()
        try Self.registerEditor(setup)
        let excluded = try [Self.populate(setup, "com.example.viewer"), Self.populate(setup, "com.example.editor")]
        let listed = try setup.run(["backup", "list"])
        #expect(listed.status == 0, "\(listed)")
        #expect(Set(listed.lines).count == listed.lines.count, "no path twice")

        let archive = setup.files.file("apps.tar")
        let containers = setup.root + "/Containers"
        let roots = ["com.example.viewer", "com.example.editor"].flatMap { [$0 + "/Documents", $0 + "/Library"] }
        let created = try UTIBinary.run(executable: URL(filePath: "/usr/bin/env"), ["tar", "--exclude-caches-all", "-C", containers, "-cf", archive] + roots)
        #expect(created.status == 0, "\(created)")
        let members = try UTIBinary.run(executable: URL(filePath: "/usr/bin/env"), ["tar", "-tf", archive])
        #expect(members.status == 0)
        let tarPaths = members.lines.map { containers + "/" + ($0.hasSuffix("/") ? String($0.dropLast()) : $0) }
        #expect(Set(tarPaths) == Set(listed.lines + excluded), "tar alone cannot see an excluded file's attribute")
        #expect(tarPaths.count == listed.lines.count + excluded.count)

        // What the list holds and leaves out, by name.
        let viewer = containers + "/com.example.viewer"
        for taken in ["/Documents", "/Documents/Inbox", "/Documents/Projects/2024/report with spaces.txt", "/Documents/passwd-link", "/Documents/fifo",
                      "/Library", "/Library/Application Support/db/store.sqlite", "/Library/Preferences/prefs.plist"] {
            #expect(listed.lines.contains(viewer + taken), "\(taken) is backed up")
        }
        for left in ["/Documents/Scratch", "/Documents/Scratch/deep/big.bin", "/Documents/huge.iso", "/Documents/Own cache", "/Library/Caches",
                     "/Library/Caches/thumbs/1.png", "/tmp", "/tmp/scratch", "/" + ".uti-run.lock"] {
            #expect(!listed.lines.contains(viewer + left), "\(left) is not backed up")
        }
        #expect(!listed.lines.contains { $0.hasPrefix(setup.files.path + "/Viewer.app") }, "the bundle is not in a backup")

        // One app's list is that app's part of the whole.
        let one = try setup.run(["backup", "list", "com.example.editor"])
        #expect(one.lines == listed.lines.filter { $0.hasPrefix(containers + "/com.example.editor/") })

        // The list, NUL-separated, is what tar archives without recursion: the same members again.
        let fromList = setup.files.file("from-list.tar")
        let piped = try UTIBinary.run(executable: URL(filePath: "/bin/sh"), ["-c", "\"$UTI\" backup list -0 | tar --null --no-recursion -P -T - -cf \"$1\"", "sh", fromList],
                                      environment: ["UTI": UTIBinary.url.path, "UTI_ROOT": setup.root])
        #expect(piped.status == 0, "\(piped)")
        let archived = try UTIBinary.run(executable: URL(filePath: "/usr/bin/env"), ["tar", "-Ptf", fromList])
        #expect(archived.lines.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } == listed.lines)
    }

    // What exclusion does to the items (the attribute, the tag, refusals by location, renames) is tested in
    // DocumentRoutingTests' BackupAndPurgeTests; here, what the command line says and its exit statuses.

    @Test("exclude and include: one line each, (already) when nothing changed, a warning for a tag uti did not write, exit 2 for caches")
    func excludeAndInclude() throws {
        let setup = try Setup()
        let documents = setup.root + "/Containers/com.example.viewer/Documents"
        try FileManager.default.createDirectory(atPath: documents + "/Scratch", withIntermediateDirectories: true)
        let result = try setup.run(["backup", "exclude", documents + "/Scratch"])
        #expect(result.status == 0 && result.lines == ["excluded from backup: \(documents)/Scratch"], "\(result)")
        #expect(Self.attribute("user.uti.exclude-from-backup", of: documents + "/Scratch") == "1")
        #expect(try setup.run(["backup", "exclude", documents + "/Scratch"]).lines == ["excluded from backup: \(documents)/Scratch (already)"])
        #expect(try setup.run(["backup", "include", documents + "/Scratch"]).status == 0)
        try Data((Self.signature + "\n# mine\n").utf8).write(to: URL(filePath: documents + "/Scratch/CACHEDIR.TAG"))
        #expect(try setup.run(["backup", "exclude", documents + "/Scratch"]).status == 0)
        let kept = try setup.run(["backup", "include", documents + "/Scratch"])
        #expect(kept.status == 0 && kept.standardError.contains("CACHEDIR.TAG uti did not write"), "\(kept)")
        let caches = try setup.run(["backup", "include", setup.root + "/Containers/com.example.viewer/Library/Caches"])
        #expect(caches.status == 2 && caches.standardError.contains("never backed up"), "\(caches)")
    }

    @Test("refusals: exit status 2 with the reason, 1 for a file that is not there, 64 for options that do not go together")
    func refusals() throws {
        let setup = try Setup()
        let container = setup.root + "/Containers/com.example.viewer"
        let outside = try setup.files.write("secret", to: "outside/secret.txt")
        for (path, status, message) in [
            (outside, Int32(2), "not inside a registered app's container"),
            (container, 2, "the container itself"),
            (container + "/Documents/missing", 1, "No such file"),
        ] {
            let result = try setup.run(["backup", "exclude", path])
            #expect(result.status == status && result.standardError.contains(message), "\(path): \(result)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try setup.run(["backup", "list", "com.example.nobody"]).status == 2)
        #expect(try setup.run(["backup", "list", "-0", "--json"]).status == 64)
    }

    @Test("a file system without user extended attributes: a clear error, exit status 1, nothing changed",
          .enabled(if: Tools.canMountRamfs, "needs root to mount a ramfs (which keeps no user.* attributes)"))
    func noExtendedAttributes() throws {
        let files = try TemporaryDirectory()
        let ramfs = try TemporaryMount(.ramfs, in: files, name: "ramfs")
        let mount = ramfs.path
        try files.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.plain</string></dict></plist>
            """, to: "Plain.app/Contents/Info.plist")
        let environment = ["UTI_ROOT": mount + "/root"]
        #expect(try UTIBinary.run(["apps", "register", files.file("Plain.app")], environment: environment).status == 0)
        let documents = mount + "/root/Containers/com.example.plain/Documents"
        try FileManager.default.createDirectory(atPath: documents + "/Scratch", withIntermediateDirectories: true)
        let result = try UTIBinary.run(["backup", "exclude", documents + "/Scratch"], environment: environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("does not support user extended attributes (user.*)"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: documents + "/Scratch/CACHEDIR.TAG"))
        #expect(try UTIBinary.run(["backup", "list"], environment: environment).lines.contains(documents + "/Scratch"))
    }

    @Test("backup list tags Library/Caches and tmp of a container that lacks the tags")
    func tagsLazily() throws {
        let setup = try Setup()
        let container = setup.root + "/Containers/com.example.viewer"
        for directory in ["/Library/Caches", "/tmp"] {
            let tag = container + directory + "/CACHEDIR.TAG"
            #expect(FileManager.default.fileExists(atPath: tag), "made with the container")
            try FileManager.default.removeItem(atPath: tag)
        }
        #expect(try setup.run(["backup", "list"]).status == 0)
        for directory in ["/Library/Caches", "/tmp"] {
            let tag = try Data(contentsOf: URL(filePath: container + directory + "/CACHEDIR.TAG"))
            #expect(tag.starts(with: Array(Self.signature.utf8)))
        }
    }
}
