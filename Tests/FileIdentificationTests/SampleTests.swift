import Testing
@testable import FileIdentification

@Suite("A file's sample, read once")
struct SampleTests {
    /// Bytes in memory that keep a record of every read asked of them.
    final class RecordedBytes: ByteSource {
        let storage: MemoryBytes
        private(set) var reads: [Range<Int>] = []

        init(storage: MemoryBytes) { self.storage = storage }

        var count: Int { storage.count }

        func bytes(at offset: Int, length: Int) -> [UInt8] {
            let bytes = storage.bytes(at: offset, length: length)
            reads.append(offset..<(offset + bytes.count))
            return bytes
        }
    }

    @Test("the prefix is the file's first bytes, and no byte of it is read twice",
          arguments: [0, 1, 4095, 4096, 4097, 10_000, 65_536, 65_537, 200_000])
    func prefixReadsOnce(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        let source = RecordedBytes(storage: MemoryBytes(storage: bytes))
        let sample = try Sample(source, sampleSize: 65_536)
        #expect(sample.head == Array(bytes.prefix(4096)))
        #expect(try sample.prefix() == Array(bytes.prefix(65_536)))
        #expect(try sample.prefix() == Array(bytes.prefix(65_536)), "asked again, the same bytes")
        let reads = source.reads.filter { !$0.isEmpty }
        #expect(reads.reduce(0) { $0 + $1.count } == min(size, 65_536), "every byte read once: \(reads)")
        for (earlier, later) in zip(reads, reads.dropFirst()) {
            #expect(!earlier.overlaps(later), "reads \(earlier) and \(later) overlap")
        }
    }

    @Test("a sample no longer than the head reads nothing more", arguments: [100, 4096])
    func shortSample(sampleSize: Int) throws {
        let bytes = [UInt8](repeating: 0x41, count: 10_000)
        let source = RecordedBytes(storage: MemoryBytes(storage: bytes))
        let sample = try Sample(source, sampleSize: sampleSize)
        #expect(try sample.prefix() == Array(bytes.prefix(sampleSize)))
        #expect(source.reads.count == 1)
    }
}
