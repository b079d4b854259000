import Foundation
import SystemPackage
import TestSupport
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification
#if canImport(Glibc)
import Glibc
#endif

@Suite("File-system kinds, typed by lstat without opening")
struct FileSystemKindTests {
    let identifier = FileIdentifier()

    @Test func directoriesAndBundles() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.file("Plain"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.file("Viewer.app/Contents"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.file("Kit.framework"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.file("Notes.rtfd"), withIntermediateDirectories: true)
        #expect(try identifier.identify(fileAt: scratch.file("Plain")).type == .folder)
        let app = try identifier.identify(fileAt: scratch.file("Viewer.app"))
        #expect(app.type == .applicationBundle)
        #expect(app.evidence.rule == .fileSystem)
        #expect(try identifier.identify(fileAt: scratch.file("Kit.framework")).type == .framework)
        #expect(try identifier.identify(fileAt: scratch.file("Notes.rtfd")).type == .rtfd)
        #expect(try identifier.identify(fileAt: "/").type == .volume)
        #expect(try identifier.identify(fileAt: "/proc").type == .volume)
    }

    @Test func fifoIsNeverOpened() throws {
        let scratch = try TemporaryDirectory()
        let fifo = scratch.file("pipe")
        #expect(mkfifo(fifo, 0o644) == 0)
        // No writer exists: opening it for reading would block forever.
        let result = try identifier.identify(fileAt: fifo)
        #expect(result.type.identifier == "public.named-pipe")
        #expect(result.mimeType == "inode/fifo")
        #expect(try FileIdentifier(options: .init(followSymlinks: true)).identify(fileAt: fifo).type.identifier == "public.named-pipe")
    }

    @Test func socket() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("sock")
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(try identifier.identify(fileAt: path).type.identifier == "public.socket")
    }

    @Test func devices() throws {
        let null = try identifier.identify(fileAt: "/dev/null")
        #expect(null.type.identifier == "public.character-special")
        #expect(null.mimeType == "inode/chardevice")
        #expect(try FileIdentifier(options: .init(followSymlinks: true)).identify(fileAt: "/dev/zero").type.identifier == "public.character-special")
    }

    @Test func symbolicLinks() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write(Samples.png, to: "image.png")
        #expect(symlink("image.png", scratch.file("link")) == 0)
        #expect(symlink("nowhere", scratch.file("dangling")) == 0)
        #expect(symlink("loop-b", scratch.file("loop-a")) == 0)
        #expect(symlink("loop-a", scratch.file("loop-b")) == 0)

        let link = try identifier.identify(fileAt: scratch.file("link"))
        #expect(link.type == .symbolicLink)
        #expect(link.evidence.content?.detail == "symbolic link to image.png")
        #expect(try identifier.identify(fileAt: scratch.file("dangling")).type == .symbolicLink)

        let following = FileIdentifier(options: .init(followSymlinks: true))
        #expect(try following.identify(fileAt: scratch.file("link")).type == .png)
        let dangling = try #require(throws: IdentificationError.self) { try following.identify(fileAt: scratch.file("dangling")) }
        #expect(dangling.reason == .danglingLink(target: "nowhere"))
        #expect(dangling.description.hasSuffix("dangling: dangling symbolic link to nowhere"))
        let loop = try #require(throws: IdentificationError.self) { try following.identify(fileAt: scratch.file("loop-a")) }
        #expect(loop.reason == .linkLoop)
    }

    @Test func missingFile() throws {
        let error = try #require(throws: IdentificationError.self) { try identifier.identify(fileAt: "/nonexistent/file.txt") }
        #expect(error.reason == .system(.noSuchFileOrDirectory))
        #expect(error.description == "/nonexistent/file.txt: No such file or directory")
    }

    @Test("a file that cannot be read is an error naming it", .enabled(if: getuid() != 0, "root reads any file; the CLI test runs this as nobody"))
    func unreadable() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("secret", to: "secret.txt")
        chmod(path, 0)
        let error = try #require(throws: IdentificationError.self) { try identifier.identify(fileAt: path) }
        #expect(error.reason == .system(.permissionDenied))
    }

    @Test func emptyFiles() throws {
        let scratch = try TemporaryDirectory()
        let named = try identifier.identify(fileAt: try scratch.write([], to: "notes.txt"))
        #expect(named.evidence.rule == .empty)
        #expect(named.type == .plainText, "an empty file is what its name says, and empty")
        #expect(named.evidence.content?.detail == "empty file")
        let unnamed = try identifier.identify(fileAt: try scratch.write([], to: "empty"))
        #expect(unnamed.evidence.rule == .empty)
        #expect(unnamed.mimeType == "application/x-zerosize")
        #expect(try identifier.identify(data: [], filename: nil).evidence.rule == .empty)
    }

    @Test func namesThatAreNotUTF8() throws {
        let scratch = try TemporaryDirectory()
        let name: [UInt8] = Array("photo-".utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        let path = RawFilePath(bytes: Array(scratch.path.utf8) + [UInt8(ascii: "/")] + name)
        let descriptor = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        #expect(descriptor >= 0)
        _ = Samples.png.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        #expect(!path.isValidUTF8)
        #expect(path.escaped.hasSuffix("photo-\\xFF\\xFE.png"))
        let result = try identifier.identify(fileAt: path)
        #expect(result.type == .png)
        #expect(result.evidence.name?.tag == "png")
    }

    @Test("a 5 GB sparse file is identified from a bounded sample")
    func sparseFile() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write(Samples.png, to: "huge.png")
        #expect(truncate(path, 5 << 30) == 0)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_size == 5 << 30)
        let result = try identifier.identify(fileAt: path)
        #expect(result.type == .png)
        #expect(result.evidence.rule == .nameRefinesContent)
        #expect(result.confidence == .high)
    }
}
