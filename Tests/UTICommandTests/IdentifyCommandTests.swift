import Foundation
import TestSupport
import Testing
@testable import uti
#if canImport(Glibc)
import Glibc
#endif

@Suite("uti identify")
struct IdentifyCommandTests {
    /// A directory of sample files made for one test.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]

    @Test func oneLinePerFile() throws {
        let files = try TemporaryDirectory()
        let image = try files.write(Self.png, to: "image.png")
        let notes = try files.write(Array("# Notes\n".utf8), to: "notes.md")
        let result = try UTIBinary.run(["identify", image, notes])
        #expect(result.status == 0)
        #expect(result.lines == ["\(image): public.png (PNG image)", "\(notes): net.daringfireball.markdown (Markdown document)"])
        let mime = try UTIBinary.run(["identify", "--mime", image, notes])
        #expect(mime.lines == ["\(image): image/png", "\(notes): text/markdown"])
    }

    @Test func jsonFields() throws {
        let files = try TemporaryDirectory()
        let lying = try files.write(try Array(Data(contentsOf: URL(filePath: "/bin/true"))), to: "photo.jpg")
        let result = try UTIBinary.run(["identify", "--json", lying])
        #expect(result.status == 0)
        let object = try jsonObject(try #require(result.lines.first))
        #expect(object["path"] as? String == lying)
        #expect((object["identifier"] as? String)?.isEmpty == false)
        #expect(object["mismatch"] as? Bool == true)
        #expect(object["confidence"] as? String == "high")
        #expect((object["conformsTo"] as? [String])?.contains("public.executable") == true)
        #expect(object["mimeType"] is String && object["preferredMIMEType"] != nil && object["mimeTypes"] is [String])
        let evidence = try #require(object["evidence"] as? [String: Any])
        #expect(evidence["rule"] as? String == "content-overrules-name")
        #expect((evidence["name"] as? [String: Any])?["candidates"] as? [String] == ["public.jpeg"])
        #expect((evidence["content"] as? [String: Any])?["source"] as? String == "signature")
        #expect(object["description"] != nil)
    }

    @Test func missingFilesDoNotStopTheOthers() throws {
        let files = try TemporaryDirectory()
        let image = try files.write(Self.png, to: "image.png")
        let result = try UTIBinary.run(["identify", "/nonexistent/a.txt", image])
        #expect(result.status == 1)
        #expect(result.standardError.contains("uti: /nonexistent/a.txt: No such file or directory"))
        #expect(result.lines == ["/nonexistent/a.txt: cannot open (No such file or directory)", "\(image): public.png (PNG image)"])
        let json = try UTIBinary.run(["identify", "--json", "/nonexistent/a.txt"])
        #expect(try jsonObject(try #require(json.lines.first))["error"] as? String == "No such file or directory")
    }

    @Test("a file nobody may read: an error naming it, as a user without privileges sees it",
          .enabled(if: Tools.canTakePermissionsAway, "as root, needs setpriv to run as a user without privileges"))
    func unreadableFile() throws {
        let files = try TemporaryDirectory(permissions: 0o755)
        let secret = try files.write(Array("secret".utf8), to: "secret.txt")
        chmod(secret, 0)
        // root reads every file; the run drops to nobody then, as a real user would be.
        let result = try UTIBinary.run(["identify", secret], runAs: Tools.isRoot ? "nobody" : nil)
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(secret): Permission denied"))
    }

    @Test func standardInput() throws {
        let result = try UTIBinary.run(["identify", "-"], input: Data(Self.png))
        #expect(result.lines == ["-: public.png (PNG image)"])
        let named = try UTIBinary.run(["identify", "--name", "notes.md", "-"], input: Data("plain words\n".utf8))
        #expect(named.lines == ["-: net.daringfireball.markdown (Markdown document)"])
        let unnamed = try UTIBinary.run(["identify", "-"], input: Data("plain words\n".utf8))
        #expect(unnamed.lines == ["-: public.plain-text (text)"])
    }

    @Test func nameAlone() throws {
        let result = try UTIBinary.run(["identify", "--no-content", "x.rmdx", "backup.tar.gz", "Makefile"])
        #expect(result.status == 0)
        #expect(result.lines == [
            "x.rmdx: dyn.ah62d4rv4ge81e5peta",
            "backup.tar.gz: org.gnu.gnu-zip-tar-archive (gzip tar archive)",
            "Makefile: public.make-source (Makefile)",
        ])
    }

    @Test func symbolicLinks() throws {
        let files = try TemporaryDirectory()
        let image = try files.write(Self.png, to: "image.png")
        let link = files.path + "/link"
        let dangling = files.path + "/dangling"
        #expect(symlink(image, link) == 0)
        #expect(symlink("nowhere", dangling) == 0)
        #expect(try UTIBinary.run(["identify", link]).lines == ["\(link): public.symlink (symbolic link)"])
        #expect(try UTIBinary.run(["identify", "-L", link]).lines == ["\(link): public.png (PNG image)"])
        let broken = try UTIBinary.run(["identify", "-L", dangling])
        #expect(broken.status == 1)
        #expect(broken.standardError.contains("dangling symbolic link to nowhere"))
    }

    @Test func namesThatAreNotUTF8() throws {
        let files = try TemporaryDirectory()
        let raw = Array(files.path.utf8) + Array("/photo-".utf8) + [0xFF] + Array(".png".utf8)
        let descriptor = (raw + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(descriptor >= 0)
        _ = Self.png.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let result = try UTIBinary.run(rawArguments: [Array("identify".utf8), raw])
        #expect(result.status == 0)
        #expect(result.standardOutput == "\(files.path)/photo-\\xFF.png: public.png (PNG image)\n")
    }

    @Test func usageErrors() throws {
        #expect(try UTIBinary.run(["identify"]).status == 64)
        #expect(try UTIBinary.run(["identify", "--mime", "--json", "x"]).status == 64)
        #expect(try UTIBinary.run(["identify", "--no-such-option", "x"]).status == 64)
        #expect(try UTIBinary.run(["identify", "--name", "x.md", "file"]).status == 64)
    }

    @Test("the fast argument path and swift-argument-parser give the same output")
    func bothParsersAgree() throws {
        let files = try TemporaryDirectory()
        let image = try files.write(Self.png, to: "image.png")
        let text = try files.write("words\n", to: "notes.txt")
        // The same request in the fast path's form and in one it leaves to swift-argument-parser (`--name=value`
        // is not the fast path's): each checked to take the path it is meant to, then their outputs compared.
        for (fast, parsed) in [
            (["identify", "--json", image, text], ["identify", "--mime-names=standard", "--json", image, text]),
            (["identify", "--mime", image], ["identify", "--mime-names=standard", "--mime", image]),
        ] {
            #expect(FastPath.parse(fast) != nil && FastPath.parse(parsed) == nil, "\(fast) / \(parsed)")
            let (viaFastPath, viaParser) = (try UTIBinary.run(fast), try UTIBinary.run(parsed))
            #expect(viaFastPath.status == 0 && viaParser.status == 0, "\(viaParser.standardError)")
            #expect(!viaFastPath.standardOutput.isEmpty && viaFastPath.standardOutput == viaParser.standardOutput, "\(parsed)")
        }
        // A usage error reads the same through swift-argument-parser whatever the order.
        let refused = try UTIBinary.run(["identify", "--types=/dev/null", "--json", image])
        #expect(refused.status == 2, "/dev/null is no declaration file")
        let help = try UTIBinary.run(["identify", "--help"])
        #expect(help.standardOutput.contains("USAGE: uti identify"))
    }
}

@Suite("shared-mime-info databases, through the binary and XDG_DATA_DIRS")
struct SharedMIMEInfoTests {
    static func mimeTypes(_ samples: [String], dataDirectories: String) throws -> [String] {
        let result = try UTIBinary.run(["identify", "--mime"] + samples, environment: ["XDG_DATA_DIRS": dataDirectories])
        #expect(result.status == 0)
        return result.lines.map { String($0.split(separator: ": ").last ?? "") }
    }

    @Test("with no system database, the built-in 2.4 rules identify", .enabled(if: Tools.hasBuiltInSharedMIMEInfo, Tools.needsBuiltInSharedMIMEInfo))
    func builtInAlone() throws {
        let files = try TemporaryDirectory()
        let samples = try SharedMIMEInfoFixture.samples(in: files)
        let types = try Self.mimeTypes(samples, dataDirectories: files.path + "/nothing-here")
        #expect(types == ["application/x-commodore-crt", "application/octet-stream", "application/octet-stream"])
    }

    @Test("an older system database adds only the types 2.4 does not know", .enabled(if: Tools.hasBuiltInSharedMIMEInfo, Tools.needsBuiltInSharedMIMEInfo))
    func olderSystemDatabase() throws {
        let files = try TemporaryDirectory()
        let samples = try SharedMIMEInfoFixture.samples(in: files)
        let types = try Self.mimeTypes(samples, dataDirectories: try SharedMIMEInfoFixture.dataDirectory(version: "2.2", in: files))
        #expect(types == ["application/x-commodore-crt", "application/octet-stream", "application/marc"])
    }

    @Test("a newer system database decides for every type it knows")
    func newerSystemDatabase() throws {
        let files = try TemporaryDirectory()
        let samples = try SharedMIMEInfoFixture.samples(in: files)
        let types = try Self.mimeTypes(samples, dataDirectories: try SharedMIMEInfoFixture.dataDirectory(version: "2.10", in: files))
        #expect(types.count == 3)
        #expect(types.first != "application/x-commodore-crt")
        #expect(Array(types.dropFirst()) == ["application/x-commodore-crt", "application/marc"])
    }
}

@Suite("uti identify --mime-names")
struct MIMENamesCommandTests {
    @Test func namesInAnotherToolsVocabulary() throws {
        let files = try TemporaryDirectory()
        let batch = try files.write(Array("@echo off\r\n".utf8), to: "run.bat")
        #expect(try UTIBinary.run(["identify", "--mime", batch]).lines == ["\(batch): application/x-bat"])
        let magika = try UTIBinary.run(["identify", "--mime", "--mime-names", "magika", batch])
        #expect(magika.status == 0)
        #expect(magika.lines == ["\(batch): text/x-msdos-batch"])
        let json = try UTIBinary.run(["identify", "--json", "--mime-names", "libmagic", batch])
        #expect(try jsonObject(try #require(json.lines.first))["mimeType"] as? String == "text/x-msdos-batch")
        let classified = try UTIBinary.run(["classify", "--format", "tsv", "--mime-names", "magika", files.path])
        #expect(classified.standardOutput.contains("text/x-msdos-batch"))
    }

    @Test func anUnknownVocabularyIsAUsageError() throws {
        let result = try UTIBinary.run(["identify", "--mime-names", "iana", "/dev/null"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("expected one of standard, freedesktop, tika, libmagic, magika"))
    }
}
