import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A ZIP archive with stored (uncompressed) entries, in the order given: enough to build OOXML,
/// OpenDocument, EPUB and JAR files whose telling entry comes last, past any sample a reader takes
/// from the start.
enum ZipWriter {
    static func archive(_ entries: [(name: String, data: [UInt8])]) -> [UInt8] {
        var output: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = crc32(entry.data)
            let offset = output.count
            output += [0x50, 0x4B, 0x03, 0x04] + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            output += le32(Int(crc)) + le32(entry.data.count) + le32(entry.data.count) + le16(name.count) + le16(0)
            output += name + entry.data
            central += [0x50, 0x4B, 0x01, 0x02] + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            central += le32(Int(crc)) + le32(entry.data.count) + le32(entry.data.count) + le16(name.count)
            central += le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name
        }
        let centralOffset = output.count
        output += central
        output += [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
        output += le32(central.count) + le32(centralOffset) + le16(0)
        return output
    }

    /// `archive` ended the Zip64 way: a Zip64 end record and its locator before an end record whose
    /// count, size and offset say "see Zip64" (0xFFFF and 0xFFFFFFFF).
    static func zip64Archive(_ entries: [(name: String, data: [UInt8])]) -> [UInt8] {
        let plain = archive(entries)
        let end = plain.suffix(22)
        let size = UInt64(end[end.startIndex + 12]) | UInt64(end[end.startIndex + 13]) << 8
            | UInt64(end[end.startIndex + 14]) << 16 | UInt64(end[end.startIndex + 15]) << 24
        let offset = UInt64(plain.count - 22) - size
        return Array(plain.dropLast(22)) + zip64End(at: plain.count - 22, count: UInt64(entries.count), size: size, offset: offset)
    }

    /// A Zip64 end record at `position` (where the central directory ends) saying `count`, `size` and
    /// `offset`, its locator, and the end record pointing to it.
    static func zip64End(at position: Int, count: UInt64, size: UInt64, offset: UInt64) -> [UInt8] {
        func le(_ value: UInt64, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
        var record: [UInt8] = [0x50, 0x4B, 0x06, 0x06] + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4)
        record += le(count, 8) + le(count, 8) + le(size, 8) + le(offset, 8)
        let locator: [UInt8] = [0x50, 0x4B, 0x06, 0x07] + le(0, 4) + le(UInt64(position), 8) + le(1, 4)
        let end: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + le(0, 4) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
        return record + locator + end
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Entries that push what follows past the first 64 KiB.
    static var filler: [(name: String, data: [UInt8])] {
        (0..<3).map { index in ("assets/filler\(index).bin", (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }) }
    }
}

/// A few real formats' first bytes.
enum Samples {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        + [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89]

    /// An MS-DOS stub followed by a PE header, as every Windows executable starts.
    static var windowsExecutable: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 512)
        bytes[0] = 0x4D; bytes[1] = 0x5A  // MZ
        bytes[0x3C] = 0x80  // e_lfanew
        bytes[0x80] = 0x50; bytes[0x81] = 0x45  // PE\0\0
        bytes[0x84] = 0x4C; bytes[0x85] = 0x01  // i386
        bytes[0x86] = 1
        bytes[0x94] = 0xE0  // size of optional header
        bytes[0x96] = 0x02; bytes[0x97] = 0x01  // characteristics: executable
        bytes[0x98] = 0x0B; bytes[0x99] = 0x01  // PE32 magic
        return bytes
    }
}
