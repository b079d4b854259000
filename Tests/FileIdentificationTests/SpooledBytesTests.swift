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

    @Test("spools sharing a memory budget hold no more than it together, give it back when they go, and lose no byte")
    func sharedBudget() throws {
        let budget = ByteBudget(capacity: 250_000)
        var spools: [SpooledBytes] = []
        for _ in 0..<4 {
            let spool = SpooledBytes(memoryLimit: 100_000, budget: budget)
            for start in stride(from: 0, to: Self.docx.count, by: 30_000) {
                try spool.append(Self.docx[start..<min(Self.docx.count, start + 30_000)])
            }
            spools.append(spool)
        }
        #expect(spools.map { $0.source.memory.count } == [100_000, 100_000, 50_000, 0], "first come, first served, up to each one's limit")
        #expect(budget.remaining == 0)
        for spool in spools {
            #expect(spool.count == Self.docx.count)
            #expect(try spool.source.bytes(at: 0, length: Int.max) == Self.docx)
            #expect(try FileIdentifier().identify(spool, filename: "a.bin").type.identifier == "org.openxmlformats.wordprocessingml.document")
        }
        spools.removeAll()
        #expect(budget.remaining == 250_000, "given back")
        // A spool that found no room keeps writing to its file even when room comes back: memory stays a prefix.
        let late = SpooledBytes(memoryLimit: 100_000, budget: ByteBudget(capacity: 10))
        try late.append(Self.docx[0..<20])
        try late.append(Self.docx[20..<40])
        #expect(late.source.memory.count == 10)
        #expect(try late.source.bytes(at: 0, length: 40) == Array(Self.docx[0..<40]))
    }

    @Test("spools sharing a file budget: an append that would pass it fails with ENOSPC and keeps nothing; the budget comes back")
    func fileBudget() throws {
        let disk = ByteBudget(capacity: 100_000)
        let first = SpooledBytes(memoryLimit: 1_000, fileBudget: disk)
        try first.append([UInt8](repeating: 1, count: 61_000))
        #expect(disk.remaining == 40_000, "the first 1,000 bytes stay in memory")
        let second = SpooledBytes(memoryLimit: 0, fileBudget: disk)
        #expect(throws: Errno.noSpace) { try second.append([UInt8](repeating: 2, count: 40_001)) }
        #expect(second.count == 0 && disk.remaining == 40_000, "nothing kept, nothing taken")
        try second.append([UInt8](repeating: 2, count: 40_000))
        #expect(disk.remaining == 0 && second.count == 40_000)
        withExtendedLifetime((first, second)) {}
    }

    @Test("an append refused by the file budget gives back the memory it took")
    func refusedAppendGivesMemoryBack() throws {
        let memory = ByteBudget(capacity: 500)
        let spool = SpooledBytes(memoryLimit: 1_000, budget: memory, fileBudget: ByteBudget(capacity: 10))
        #expect(throws: Errno.noSpace) { try spool.append([UInt8](repeating: 3, count: 600)) }
        #expect(memory.remaining == 500 && spool.count == 0)
        try spool.append([UInt8](repeating: 3, count: 505))
        #expect(memory.remaining == 0 && spool.count == 505 && spool.isSpooledToFile)
    }

    @Test func aTemporaryDirectoryThatIsNotThere() {
        let spool = SpooledBytes(memoryLimit: 4, temporaryDirectory: "/nonexistent/uti")
        #expect(throws: Errno.self) { try spool.append([1, 2, 3, 4, 5, 6]) }
    }
}
