import Foundation
import SystemPackage
import TestSupport
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

@Suite("Bytes that arrive in pieces")
struct SpooledBytesTests {
    /// A DOCX over 120 KB whose telling entries come last.
    static let docx = ZipWriter.archive(ZipWriter.filler + [
        ("[Content_Types].xml", Array("<?xml version=\"1.0\"?><Types/>".utf8)), ("word/document.xml", Array("<w:document/>".utf8)),
    ])

    @Test("the same answer as the bytes in memory, with most of them in a file", arguments: [0, 1, 4096, 65_536, 1 << 20])
    func sameAnswer(memoryLimit: Int) throws {
        let directory = try TemporaryDirectory()
        let spool = SpooledBytes(memoryLimit: memoryLimit, temporaryDirectory: directory.path)
        var offset = 0
        while offset < Self.docx.count {
            let piece = Self.docx[offset..<min(Self.docx.count, offset + 7_919)]
            try spool.append(piece)
            offset += piece.count
        }
        #expect(spool.count == Self.docx.count)
        #expect(spool.isSpooledToFile == (memoryLimit < Self.docx.count))
        #expect(spool.source.memory.count == min(memoryLimit, Self.docx.count), "memory holds at most the limit")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the file has no name anyone could open")
        let identifier = FileIdentifier()
        let spooled = try identifier.identify(spool, filename: "upload.bin")
        let inMemory = try identifier.identify(data: Self.docx, filename: "upload.bin")
        #expect(spooled.type.identifier == "org.openxmlformats.wordprocessingml.document")
        #expect(spooled == inMemory)
    }

    @Test("reads across the line between memory and file give the bytes as they were appended")
    func readsAcrossTheBoundary() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let spool = SpooledBytes(memoryLimit: 100_000)
        try spool.append(bytes[0..<150_000])
        try spool.append(bytes[150_000...])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let offset = Int.random(in: -10..<300_010, using: &generator)
            let length = Int.random(in: -5..<200_000, using: &generator)
            let expected: [UInt8] = offset >= 0 && offset < bytes.count && length > 0 ? Array(bytes[offset..<min(bytes.count, offset + length)]) : []
            #expect(try spool.source.bytes(at: offset, length: length) == expected, "\(offset), \(length)")
        }
        #expect(try spool.source.bytes(at: 5, length: Int.max) == Array(bytes[5...]), "a length from a file never overflows")
    }

    @Test func aTemporaryDirectoryThatIsNotThere() {
        let spool = SpooledBytes(memoryLimit: 4, temporaryDirectory: "/nonexistent/uti")
        #expect(throws: Errno.self) { try spool.append([1, 2, 3, 4, 5, 6]) }
    }
}
