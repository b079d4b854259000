import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("uti apps, handlers, route and inbox")
struct RouteCommandTests {
    /// A registry root with one viewer app registered through the CLI.
    final class Setup {
        let files: TemporaryDirectory
        let root: String

        init(inPlace: Bool = false) throws {
            files = try TemporaryDirectory()
            root = files.path + "/root"
            try FileManager.default.createDirectory(atPath: files.path + "/Viewer.app/Contents", withIntermediateDirectories: true)
            let plist = """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>CFBundleIdentifier</key><string>com.example.viewer</string>
                <key>CFBundleName</key><string>Viewer</string>
                <key>LSSupportsOpeningDocumentsInPlace</key><\(inPlace ? "true" : "false")/>
                <key>CFBundleDocumentTypes</key><array><dict>
                <key>LSItemContentTypes</key><array><string>public.image</string><string>public.plain-text</string><string>public.data</string></array>
                <key>CFBundleTypeRole</key><string>Viewer</string></dict></array></dict></plist>
                """
            try Data(plist.utf8).write(to: URL(filePath: files.path + "/Viewer.app/Contents/Info.plist"))
            let registered = try run(["apps", "register", files.path + "/Viewer.app"])
            #expect(registered.status == 0, "\(registered.standardError)")
        }

        var inbox: String { root + "/Containers/com.example.viewer/Documents/Inbox" }
        var temporary: String { root + "/Containers/com.example.viewer/tmp" }

        func run(_ arguments: [String], input: Data? = nil) throws -> CommandResult {
            try UTIBinary.run(arguments, environment: ["UTI_ROOT": root], input: input)
        }

        /// Starts `uti` on this registry without waiting for it, its output discarded.
        func launch(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = UTIBinary.url
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["UTI_ROOT"] = root
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
    }

    @Test func routeAndInbox() throws {
        let setup = try Setup()
        let image = try setup.files.write(IdentifyCommandTests.png, to: "photo.png")
        let first = try setup.run(["route", image])
        #expect(first.status == 0)
        #expect(first.lines == ["\(image) -> com.example.viewer: \(setup.inbox)/photo.png"])
        let second = try setup.run(["route", "--json", image])
        let record = try jsonObject(try #require(second.lines.first))
        #expect(record["delivered"] as? String == setup.inbox + "/photo-1.png")
        #expect(record["handler"] as? String == "com.example.viewer")
        let list = try setup.run(["inbox", "list", "com.example.viewer"])
        #expect(list.lines.map { $0.split(separator: " ").last.map(String.init) } == ["photo-1.png", "photo.png"])
        let claim = try setup.run(["inbox", "claim", "com.example.viewer", "photo.png"])
        #expect(claim.lines == [setup.root + "/Containers/com.example.viewer/Documents/photo.png"])
        #expect(try setup.run(["inbox", "remove", "com.example.viewer", "photo-1.png"]).status == 0)
        #expect(try setup.run(["inbox", "list", "com.example.viewer"]).lines.isEmpty)
        let stdin = try setup.run(["route", "--name", "pasted.png", "-"], input: Data(IdentifyCommandTests.png))
        #expect(stdin.lines == ["- -> com.example.viewer: \(setup.inbox)/pasted.png"])
        let hostile = try setup.run(["route", "--name", "../../etc/passwd", image])
        #expect(hostile.status == 1)
        #expect(hostile.standardError.contains("refused as a file name"))
    }

    @Test("a file no app opens: exit status 3, nothing delivered")
    func noHandler() throws {
        let setup = try Setup()
        try FileManager.default.createDirectory(atPath: setup.files.path + "/folder.app", withIntermediateDirectories: true)
        let bundleDirectory = setup.files.path + "/folder.app"
        let result = try setup.run(["route", bundleDirectory])
        #expect(result.status == 3)
        #expect(result.standardError.contains("no registered app opens com.apple.application-bundle; nothing delivered"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.inbox).isEmpty)
        let handlers = try setup.run(["handlers", "--explain", "public.jpeg"])
        #expect(handlers.lines == ["com.example.viewer: claims public.image (1 step up), rank Default, role Viewer"])
        #expect(try setup.run(["handlers", "public.folder"]).status == 3)
    }

    @Test func inPlace() throws {
        let refusing = try Setup()
        let image = try refusing.files.write(IdentifyCommandTests.png, to: "photo.png")
        let refused = try refusing.run(["route", "--in-place", image])
        #expect(refused.status == 3)
        #expect(refused.standardError.contains("does not open documents in place"))
        let accepting = try Setup(inPlace: true)
        let source = try accepting.files.write(IdentifyCommandTests.png, to: "photo.png")
        let handed = try accepting.run(["route", "--in-place", source])
        #expect(handed.lines == ["\(source) -> com.example.viewer: \(source) (in place)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: accepting.inbox).isEmpty)
    }

    @Test func recursiveRouteSummarisesPerApp() throws {
        let setup = try Setup()
        try FileManager.default.createDirectory(atPath: setup.files.path + "/tree/sub", withIntermediateDirectories: true)
        try setup.files.write(IdentifyCommandTests.png, to: "tree/a.png")
        try setup.files.write(Array("text\n".utf8), to: "tree/sub/b.txt")
        let result = try setup.run(["route", "--recursive", setup.files.path + "/tree"])
        #expect(result.status == 0)
        #expect(result.lines.last == "com.example.viewer: 2 files, \(IdentifyCommandTests.png.count + 5) bytes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.inbox).sorted() == ["a.png", "b.txt"])
    }

    @Test("eight processes delivering 500 files each into one Inbox: all 4,000 there, whole, none overwritten", .tags(.stress), Tools.wholeSuiteOnly)
    func concurrentDeliveries() throws {
        let setup = try Setup()
        var expected: [Data: Int] = [:]
        var argumentLists: [[String]] = []
        for process in 0..<8 {
            let directory = setup.files.path + "/batch\(process)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var arguments = ["route"]
            for index in 0..<500 {
                let contents = Data("process \(process) file \(index)\n".utf8)
                let path = directory + "/f\(index).txt"
                try contents.write(to: URL(filePath: path))
                expected[contents, default: 0] += 1
                arguments.append(path)
            }
            argumentLists.append(arguments)
        }
        // Start all eight, then wait for all eight.
        let processes = try argumentLists.map { try setup.launch($0) }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: setup.inbox)
        #expect(names.count == 4_000)
        var found: [Data: Int] = [:]
        for name in names {
            found[try Data(contentsOf: URL(filePath: setup.inbox + "/" + name)), default: 0] += 1
        }
        let wrong = found.filter { expected[$0.key] != $0.value }.count + expected.filter { found[$0.key] == nil }.count
        #expect(wrong == 0, "every delivered file is one of the sources, byte for byte, each once")
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.temporary).filter { $0 != "CACHEDIR.TAG" }.isEmpty)
    }

    @Test("kill -9 during a large (64 MB) delivery: nothing partial in the Inbox, the source intact, tmp/ cleaned next time", .tags(.stress), Tools.wholeSuiteOnly)
    func killedMidDelivery() throws {
        let setup = try Setup()
        let source = setup.files.path + "/large.bin"
        let size = 64 << 20
        let descriptor = open(source, O_WRONLY | O_CREAT, 0o644)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        for index in 0..<(size >> 20) {
            for position in stride(from: 0, to: chunk.count, by: 4096) { chunk[position] = UInt8(truncatingIfNeeded: index &+ position) }
            _ = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
        close(descriptor)
        let original = setup.files.path + "/large.original"
        try FileManager.default.copyItem(atPath: source, toPath: original)

        let process = try setup.launch(["route", source])
        // Wait until the copy has begun (its temporary exists), or the delivery has ended.
        while process.isRunning, (try? FileManager.default.contentsOfDirectory(atPath: setup.temporary))?.filter({ $0 != "CACHEDIR.TAG" }).isEmpty ?? true {
            usleep(200)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Killed in the middle: a delivery that had already ended would test nothing.
        #expect(process.terminationReason == .uncaughtSignal, "the delivery ended before it was killed")

        let delivered = try FileManager.default.contentsOfDirectory(atPath: setup.inbox)
        // Nothing, or the whole file: never a part.
        for name in delivered {
            let attributes = try FileManager.default.attributesOfItem(atPath: setup.inbox + "/" + name)
            #expect(attributes[.size] as? Int == size)
        }
        let comparison = try UTIBinary.run(executable: URL(filePath: "/usr/bin/cmp"), ["-s", source, original])
        #expect(comparison.status == 0, "the source is byte for byte what it was")
        for name in delivered {
            #expect(try UTIBinary.run(executable: URL(filePath: "/usr/bin/cmp"), ["-s", setup.inbox + "/" + name, original]).status == 0)
        }

        let next = try setup.run(["route", try setup.files.write(IdentifyCommandTests.png, to: "after.png")])
        #expect(next.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.temporary).filter { $0 != "CACHEDIR.TAG" }.isEmpty, "the killed delivery's temporary is gone")
    }

    @Test("standard input is delivered whole, however large (65 MiB here)", .tags(.stress), Tools.wholeSuiteOnly)
    func largeStandardInput() throws {
        let setup = try Setup()
        let input = Data((0..<(65 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let result = try setup.run(["route", "-", "--name", "big.bin"], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        let delivered = try Data(contentsOf: URL(filePath: setup.inbox + "/big.bin"))
        #expect(delivered.count == input.count)
        #expect(delivered == input)
    }

    @Test("a file-size limit (RLIMIT_FSIZE): a clear error, not SIGXFSZ, and nothing partial",
          .enabled(if: Tools.has("prlimit"), "needs prlimit to set RLIMIT_FSIZE"))
    func fullDisk() throws {
        // uti leaves SIGXFSZ at its default (which kills), as any program linking the library may: the
        // library itself must turn the limit into an error, and exit status 1 (not 25, the signal) says it did.
        let setup = try Setup()
        let source = try setup.files.write([UInt8](repeating: 0x41, count: 200_000), to: "big.txt")
        let result = try UTIBinary.run(executable: URL(filePath: "/usr/bin/prlimit"), ["--fsize=65536", UTIBinary.url.path, "route", source],
                                       environment: ["UTI_ROOT": setup.root])
        #expect(result.status == 1)
        #expect(result.standardError.contains("File too large"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.inbox).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.temporary).filter { $0 != "CACHEDIR.TAG" }.isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int == 200_000)
    }

    @Test("a full file system (a small tmpfs): a clear error and nothing partial",
          .enabled(if: Tools.canMountTmpfs, "needs to mount a tmpfs (root, outside a restricted container)"))
    func fullFileSystem() throws {
        let files = try TemporaryDirectory()
        let small = try TemporaryMount(.tmpfs(size: "256k"), in: files, name: "small")
        let mountPoint = small.path
        try FileManager.default.createDirectory(atPath: files.path + "/Viewer.app", withIntermediateDirectories: true)
        try Data("<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.viewer</string><key>CFBundleDocumentTypes</key><array><dict><key>LSItemContentTypes</key><array><string>public.data</string></array></dict></array></dict></plist>".utf8)
            .write(to: URL(filePath: files.path + "/Viewer.app/Info.plist"))
        let root = mountPoint + "/root"
        #expect(try UTIBinary.run(["apps", "register", "--root", root, files.path + "/Viewer.app"]).status == 0)
        let source = try files.write([UInt8](repeating: 0x42, count: 1 << 20), to: "big.bin")
        let result = try UTIBinary.run(["route", "--root", root, source])
        #expect(result.status == 1)
        #expect(result.standardError.contains("No space left on device"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/Containers/com.example.viewer/Documents/Inbox").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/Containers/com.example.viewer/tmp").filter { $0 != "CACHEDIR.TAG" }.isEmpty)
    }

    @Test("registrations from several processes at once all land", .tags(.stress), Tools.wholeSuiteOnly)
    func concurrentRegistrations() throws {
        let setup = try Setup()
        let processes = try (0..<8).map { index -> Process in
            let bundle = setup.files.path + "/App\(index).app"
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            let plist = "<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.app\(index)</string></dict></plist>"
            try Data(plist.utf8).write(to: URL(filePath: bundle + "/Info.plist"))
            return try setup.launch(["apps", "register", bundle])
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let listed = try setup.run(["apps", "list"]).lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Set(listed) == Set(["com.example.viewer"] + (0..<8).map { "com.example.app\($0)" }))
    }

    @Test func refusedManifestsNameTheKeyAndTheFile() throws {
        let setup = try Setup()
        let bad = setup.files.path + "/Bad.app"
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        try Data("<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.bad</string><key>CFBundleDocumentTypes</key><array><dict><key>CFBundleTypeRole</key><string>Owner</string></dict></array></dict></plist>".utf8)
            .write(to: URL(filePath: bad + "/Info.plist"))
        let result = try setup.run(["apps", "register", bad])
        #expect(result.status == 2)
        #expect(result.standardError.contains("\(bad)/Info.plist: CFBundleDocumentTypes[0].CFBundleTypeRole: 'Owner' is not Editor, Viewer, Shell or None"))
    }
}

@Suite("uti serve")
struct ServeCommandTests {
    @Test("uti serve runs uti-server with its arguments: it listens where it says")
    func serveRunsTheServer() throws {
        let server = try RunningServer(binary: UTIBinary.url, command: ["serve"])
        #expect(server.firstLine.hasPrefix("uti-server: listening on http://127.0.0.1:"), "\(server.firstLine)")
        #expect(try server.port > 0 && server.rawStatus("/healthz") == 200)
        server.process.terminate()
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
    }
}
