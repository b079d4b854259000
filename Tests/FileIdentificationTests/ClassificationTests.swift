import Foundation
import SystemPackage
import TestSupport
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification
#if canImport(Glibc)
import Glibc
#endif

/// One at a time: the walk's open directories are counted for the whole process (`FileTreeWalk.OpenDirectory`:
/// past 256, entries are opened by their paths), so the tree 1,000 levels deep, walked beside the test that reads
/// through the walk's directory, took that test's directory away (seen once in CI).
@Suite("Classifying trees", .serialized)
struct ClassificationTests {
    let identifier = FileIdentifier()

    /// A small tree of every kind: files, a hidden directory, a bundle, a FIFO, a symlink loop.
    private func mixedTree() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory()
        for directory in ["docs", "docs/.cache", "Viewer.app/Contents", "deep/a/b/c"] {
            try FileManager.default.createDirectory(atPath: scratch.file(directory), withIntermediateDirectories: true)
        }
        try scratch.write(Samples.png, to: "image.png")
        try scratch.write("# Notes\n", to: "docs/notes.md")
        try scratch.write("cached", to: "docs/.cache/entry.txt")
        try scratch.write("{\"a\": 1}\n", to: "deep/a/b/c/data.json")
        try Data(contentsOf: URL(filePath: "/bin/true")).write(to: URL(filePath: scratch.file("docs/photo.jpg")))
        #expect(mkfifo(scratch.file("pipe"), 0o644) == 0)
        #expect(symlink("loop-b", scratch.file("loop-a")) == 0)
        #expect(symlink("loop-a", scratch.file("loop-b")) == 0)
        #expect(symlink(".", scratch.file("docs/self")) == 0)
        return scratch
    }

    private func all(_ classification: Classification) -> [ClassifiedEntry] {
        var entries: [ClassifiedEntry] = []
        classification.forEachBatch { entries += $0; return true }
        return entries
    }

    private func relative(_ entries: [ClassifiedEntry], _ root: String) -> [String] {
        entries.map { String($0.path.string.dropFirst(root.count)) }
    }

    @Test("every entry once, FIFOs and link loops included and never followed; the same answers as identify")
    func mixedTreeAgreesWithIdentify() throws {
        let scratch = try mixedTree()
        let entries = all(identifier.classify(directory: RawFilePath(scratch.path), options: .init(sorted: true)))
        let names = relative(entries, scratch.path)
        #expect(names == ["", "/Viewer.app", "/Viewer.app/Contents", "/deep", "/deep/a", "/deep/a/b", "/deep/a/b/c",
                          "/deep/a/b/c/data.json", "/docs", "/docs/notes.md", "/docs/photo.jpg", "/docs/self",
                          "/image.png", "/loop-a", "/loop-b", "/pipe"])
        for entry in entries {
            let alone = try identifier.identify(fileAt: entry.path)
            #expect(entry.identification == alone, "\(entry.path)")
        }
        let byName = Dictionary(uniqueKeysWithValues: zip(names, entries))
        #expect(byName["/Viewer.app"]?.identification?.type == .applicationBundle)
        #expect(byName["/pipe"]?.identification?.type.identifier == "public.named-pipe")
        #expect(byName["/loop-a"]?.identification?.type == .symbolicLink)
        #expect(byName["/docs/photo.jpg"]?.identification?.isMismatch == true)
        #expect(byName["/image.png"]?.size == Samples.png.count)
        #expect(entries.map(\.sequence) == Array(0..<entries.count))
    }

    @Test func filters() throws {
        let scratch = try mixedTree()
        let root = RawFilePath(scratch.path)
        let hidden = relative(all(identifier.classify(directory: root, options: .init(includeHidden: true, sorted: true))), scratch.path)
        #expect(hidden.contains("/docs/.cache/entry.txt"))
        let shallow = relative(all(identifier.classify(directory: root, options: .init(maxDepth: 1, sorted: true))), scratch.path)
        #expect(shallow.allSatisfy { $0.split(separator: "/").count <= 1 })
        #expect(shallow.contains("/deep") && !shallow.contains("/deep/a"))
        #expect(relative(all(identifier.classify(directory: root, options: .init(maxDepth: 0))), scratch.path) == [""])
        let excluded = relative(all(identifier.classify(directory: root, options: .init(exclude: ["deep", "*.png"], sorted: true))), scratch.path)
        #expect(!excluded.contains { $0.hasPrefix("/deep") || $0.hasSuffix(".png") })
        #expect(excluded.contains("/docs/notes.md"))
    }

    @Test func oneFileSystemStaysOnTheRootsDevice() throws {
        let entries = all(identifier.classify(directory: "/", options: .init(maxDepth: 2, oneFileSystem: true)))
        #expect(!entries.contains { $0.path.string.hasPrefix("/proc/") })
        #expect(entries.contains { $0.path.string == "/etc/hostname" || $0.path.string.hasPrefix("/etc/") })
    }

    @Test("a path listed but gone when its turn comes is an error record, and the rest go on")
    func vanishingFiles() throws {
        let scratch = try mixedTree()
        let list = [scratch.file("image.png"), scratch.file("vanished.txt"), scratch.file("docs/notes.md")].joined(separator: "\n") + "\n"
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        _ = list.utf8CString.withUnsafeBytes { write(pipe[1], $0.baseAddress, $0.count - 1) }
        close(pipe[1])
        defer { close(pipe[0]) }
        let entries = all(identifier.classify(pathsFrom: FileDescriptor(rawValue: pipe[0]), nulSeparated: false, options: .init(sorted: true)))
        #expect(entries.count == 3)
        #expect(entries[0].identification?.type == .png)
        #expect(entries[1].error?.reason == .system(.noSuchFileOrDirectory))
        #expect(entries[2].identification?.type.identifier == "net.daringfireball.markdown")
    }

    @Test("a directory of 100,000 entries", .tags(.stress), Tools.wholeSuiteOnly)
    func wideDirectory() throws {
        let scratch = try TemporaryDirectory()
        for index in 0..<100_000 {
            let descriptor = open(scratch.file("f\(index).txt"), O_WRONLY | O_CREAT | O_EXCL, 0o644)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        var count = 0
        var empty = 0
        identifier.classify(directory: RawFilePath(scratch.path)).forEachBatch { batch in
            count += batch.count
            empty += batch.filter { $0.identification?.evidence.rule == .empty }.count
            return true
        }
        #expect(count == 100_001)
        #expect(empty == 100_000)
    }

    @Test("a tree 1,000 levels deep", .tags(.stress), Tools.wholeSuiteOnly)
    func deepTree() throws {
        let scratch = try TemporaryDirectory()
        var path = scratch.path
        for _ in 0..<1_000 {
            path += "/d"
            #expect(mkdir(path, 0o755) == 0)
        }
        try Data("bottom\n".utf8).write(to: URL(filePath: path + "/bottom.txt"))
        let entries = all(identifier.classify(directory: RawFilePath(scratch.path)))
        #expect(entries.count == 1_002)
        #expect(entries.allSatisfy { $0.error == nil })
        #expect(entries.contains { $0.path.string.hasSuffix("/d/bottom.txt") && $0.identification?.type == .plainText })
    }

    @Test("cancelling the consuming task stops the walk", .tags(.stress), Tools.wholeSuiteOnly)
    func cancellation() async throws {
        let scratch = try TemporaryDirectory()
        for index in 0..<20_000 {
            let descriptor = open(scratch.file("f\(index)"), O_WRONLY | O_CREAT | O_EXCL, 0o644)
            close(descriptor)
        }
        let classification = identifier.classify(directory: RawFilePath(scratch.path))
        let seen = Task { () -> Int in
            var count = 0
            for await _ in classification {
                count += 1
                if count == 100 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        let count = await seen.value
        #expect(count >= 100)
        #expect(count < 20_001, "the sequence ended before the walk did")
        // An iterator dropped early stops its workers too; a new classification of the same tree completes.
        var total = 0
        for await _ in identifier.classify(directory: RawFilePath(scratch.path)) { total += 1 }
        #expect(total == 20_001)
    }

    @Test func summaryRollsUpTheHierarchy() throws {
        let scratch = try mixedTree()
        var summary = ClassificationSummary()
        identifier.classify(directory: RawFilePath(scratch.path)).forEachBatch { batch in
            for entry in batch { summary.add(entry) }
            return true
        }
        let rows = Dictionary(uniqueKeysWithValues: summary.rows.map { ($0.type, $0) })
        #expect(summary.entries == 16)
        #expect(rows[.png]?.count == 1)
        #expect(rows[.image]?.totalCount == 1)
        #expect(rows[.image]?.totalBytes == Samples.png.count)
        #expect(rows[.item]?.totalCount == 16)
        #expect((rows[.text]?.totalCount ?? 0) >= 2)  // Markdown and JSON
        #expect(rows[.png]?.parent == .image)
    }

    @Test("a file is read through the directory the walk opened: its directory renamed and replaced meanwhile, what is read is what was listed")
    func readThroughTheWalksDirectory() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.file("d"), withIntermediateDirectories: true)
        _ = try scratch.write(Samples.png, to: "d/a")
        var found: ClassifiedEntry?
        TreeWalker.walk([RawFilePath(scratch.path)], options: .init()) { entry in
            guard entry.path.string.hasSuffix("/d/a") else { return true }
            // Between the listing and the read: the directory moves away, and another takes its name.
            #expect(rename(scratch.file("d"), scratch.file("moved")) == 0)
            try? FileManager.default.createDirectory(atPath: scratch.file("d"), withIntermediateDirectories: true)
            _ = try? scratch.write("plain text now\n", to: "d/a")
            found = Classification.Run.classify(entry, identifier, sequence: 0)
            return true
        }
        let listed = try #require(found?.identification)
        #expect(listed.type == .png, "\(listed.type.identifier)")
        // By its path, the same name is now the other file.
        #expect(try identifier.identify(fileAt: scratch.file("d/a")).type == .plainText)
    }
}
