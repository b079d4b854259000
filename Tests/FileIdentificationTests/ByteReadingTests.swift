import Testing
@testable import FileIdentification

@Suite("Lengths and offsets read from files never trap")
struct ByteReadingTests {
    @Test("a buffer read with a length near Int.max gives what there is")
    func memoryBytesWithHugeLength() {
        let bytes = MemoryBytes(storage: [1, 2, 3, 4])
        #expect(bytes.bytes(at: 1, length: .max) == [2, 3, 4])
        #expect(bytes.bytes(at: 3, length: .max - 2) == [4])
        #expect(bytes.bytes(at: .max, length: .max).isEmpty)
        #expect(bytes.bytes(at: -1, length: 2).isEmpty)
    }

    @Test("a 64-bit value of 2^63 or more is no offset or size")
    func valuesAboveIntMax() {
        let high: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0x80]
        #expect(high.littleEndian64(at: 0) == nil)
        let highest: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(highest.littleEndian64(at: 0) == .max)
        #expect(highest.littleEndian32(at: 4) == 0x7FFF_FFFF)
        #expect(highest.littleEndian32(at: 5) == nil)
        #expect(highest.littleEndian16(at: -1) == nil)
    }
}
