import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `uti apps container`: where things live in a container, asked rather than assembled.
@Suite("uti apps container")
struct ContainerCommandTests {
    @Test("each directory by what it is for, for a registered app; the same for any spelling of its identifier")
    func paths() throws {
        let setup = try RouteCommandTests.Setup()
        let container = setup.root + "/Containers/com.example.viewer"
        for (flag, path) in [(nil, container), ("--documents", container + "/Documents"), ("--inbox", container + "/Documents/Inbox"),
                             ("--library", container + "/Library"), ("--caches", container + "/Library/Caches"),
                             ("--support", container + "/Library/Application Support"), ("--tmp", container + "/tmp")] {
            let result = try setup.run(["apps", "container"] + (flag.map { [$0] } ?? []) + ["com.Example.VIEWER"])
            #expect(result.status == 0 && result.lines == [path], "\(flag ?? "no flag"): \(result)")
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR, "\(path) exists and is a directory")
        }
    }

    @Test("an app not registered, a bundle identifier that is not one, two directories at once: refused", arguments: [
        (["apps", "container", "com.example.nobody"], Int32(2)),
        (["apps", "container", "../../etc"], Int32(2)),
        (["apps", "container", "--documents", "--tmp", "com.example.viewer"], Int32(64)),
    ])
    func refused(arguments: [String], status: Int32) throws {
        let setup = try RouteCommandTests.Setup()
        let result = try setup.run(arguments)
        #expect(result.status == status, "\(result)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("registration and routing leave the app bundle's bytes and modes as they were")
    func bundleUntouched() throws {
        let setup = try RouteCommandTests.Setup()
        let bundle = setup.files.path + "/Viewer.app"
        // Something more in the bundle, read-only as an installed app's files often are.
        try setup.files.write(Array("binary".utf8), to: "Viewer.app/Contents/Viewer")
        #expect(chmod(bundle + "/Contents/Viewer", 0o555) == 0)
        func snapshot() throws -> [String: String] {
            var entries: [String: String] = [:]
            for name in try FileManager.default.subpathsOfDirectory(atPath: bundle).sorted() {
                var status = stat()
                #expect(lstat(bundle + "/" + name, &status) == 0)
                let contents = (try? Data(contentsOf: URL(filePath: bundle + "/" + name))).map { $0.base64EncodedString() } ?? "-"
                entries[name] = "\(status.st_mode) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(contents)"
            }
            var status = stat()
            #expect(lstat(bundle, &status) == 0)
            entries["."] = "\(status.st_mode) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
            return entries
        }
        let before = try snapshot()
        #expect(try setup.run(["apps", "register", bundle]).status == 0, "registering again")
        let image = try setup.files.write(IdentifyCommandTests.png, to: "photo.png")
        #expect(try setup.run(["route", image]).status == 0)
        #expect(try setup.run(["route", "--to", "com.example.viewer", image]).status == 0)
        #expect(try setup.run(["apps", "check", "--repair"]).status == 0)
        #expect(try snapshot() == before, "the bundle is the app's, read-only to uti")
    }

    @Test("names are case-sensitive: two documents whose names differ only in case are both delivered, listed and claimed")
    func namesDifferingInCase() throws {
        let setup = try RouteCommandTests.Setup()
        let upper = try setup.files.write(Array("upper\n".utf8), to: "Report.txt")
        try FileManager.default.createDirectory(atPath: setup.files.path + "/other", withIntermediateDirectories: true)
        let lower = try setup.files.write(Array("lower\n".utf8), to: "other/report.txt")
        #expect(try setup.run(["route", upper]).lines == ["\(upper) -> com.example.viewer: \(setup.inbox)/Report.txt"])
        #expect(try setup.run(["route", lower]).lines == ["\(lower) -> com.example.viewer: \(setup.inbox)/report.txt"])
        let listed = try setup.run(["inbox", "list", "com.example.viewer"]).lines.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(listed.sorted() == ["Report.txt", "report.txt"])
        #expect(try String(contentsOfFile: setup.inbox + "/Report.txt", encoding: .utf8) == "upper\n")
        #expect(try String(contentsOfFile: setup.inbox + "/report.txt", encoding: .utf8) == "lower\n")
        // Claimed into Documents/ under their own names; a name already taken there gets a number.
        let documents = setup.root + "/Containers/com.example.viewer/Documents"
        #expect(try setup.run(["inbox", "claim", "com.example.viewer", "Report.txt"]).lines == [documents + "/Report.txt"])
        #expect(try setup.run(["inbox", "claim", "com.example.viewer", "report.txt"]).lines == [documents + "/report.txt"])
        #expect(try setup.run(["route", upper]).status == 0)
        #expect(try setup.run(["inbox", "claim", "com.example.viewer", "Report.txt"]).lines == [documents + "/Report-1.txt"])
    }
}
