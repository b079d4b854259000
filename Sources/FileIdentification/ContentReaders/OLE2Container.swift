/// OLE2 compound files (Microsoft's "structured storage") told apart by the streams they hold:
/// Word, Excel, PowerPoint, Outlook messages, Windows Installer packages, Visio, Publisher.
enum OLE2Container {
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// The format of the compound file in `source`, and the stream that told; `nil` when `source` is not
    /// a compound file.
    static func identify(_ source: some ByteSource, prefix: [UInt8]) throws(IdentificationError.Reason) -> Verdict? {
        guard prefix.starts(with: signature), prefix.count >= 512 else { return nil }
        // The directory as `CompoundFile` reads it (the FAT through the header's and the DIFAT's sectors).
        let file = try CompoundFile(source)
        let (mimeType, detail) = classify(Set(file?.entries.map(\.name) ?? []), rootCLSID: file?.rootCLSID ?? [])
        return Verdict(mimeType: mimeType, detail: detail)
    }

    private static func classify(_ names: Set<String>, rootCLSID: [UInt8]) -> (mimeType: String, detail: String) {
        // Windows Installer databases: {000C1084-0000-0000-C000-000000000046} (msi), ...1086 (patch), ...1082 (transform).
        let installer: [UInt8: String] = [0x84: "application/x-msi", 0x86: "application/x-ms-patch", 0x82: "application/x-ms-transform"]
        if rootCLSID.count == 16, rootCLSID[1] == 0x10, rootCLSID[2] == 0x0C, rootCLSID[3] == 0x00,
           rootCLSID[8] == 0xC0, rootCLSID[15] == 0x46, let mime = installer[rootCLSID[0]] {
            return (mime, "compound file with the Windows Installer class")
        }
        let streams: [(name: String, mime: String)] = [
            ("WordDocument", "application/msword"),
            ("Workbook", "application/vnd.ms-excel"),
            ("Book", "application/vnd.ms-excel"),
            ("PowerPoint Document", "application/vnd.ms-powerpoint"),
            ("__properties_version1.0", "application/vnd.ms-outlook"),
            ("VisioDocument", "application/vnd.visio"),
            ("Quill", "application/vnd.ms-publisher"),
            ("HwpSummaryInformation", "application/x-hwp"),
            ("FileHeader", "application/x-hwp"),
            ("EncryptedPackage", "application/x-ole-storage"),
            ("Contents", "application/x-ole-storage"),
        ]
        for stream in streams where names.contains(stream.name) {
            return (stream.mime, "compound file stream \(stream.name)")
        }
        if names.contains(where: { $0.hasPrefix("__substg1.0_") }) {
            return ("application/vnd.ms-outlook", "compound file streams __substg1.0_*")
        }
        if names.contains("\u{5}SummaryInformation") && names.contains(where: { $0.hasPrefix("\u{4840}") }) {
            return ("application/x-msi", "compound file with Windows Installer tables")
        }
        return ("application/x-ole-storage", "compound file, \(names.count) entries")
    }
}

/// An OLE2 compound file's streams, read for PRONOM's container signatures: the directory's entries (names,
/// kinds, first sectors, sizes) and a stream's first bytes, through the FAT (its sectors listed in the header and
/// the DIFAT chain) or, for a stream under the mini-stream cutoff, the mini FAT and the root entry's mini stream.
/// Every chain is followed at most once per sector and within the file; reading stops at a broken one.
struct CompoundFile<Source: ByteSource> {
    struct Entry {
        var name: String
        /// 1 storage, 2 stream, 5 root.
        var kind: UInt8
        var start: Int
        var size: Int
    }

    let source: Source
    private let sectorSize: Int
    private var fatSectors: [Int] = []
    private let miniCutoff: Int
    private let firstMiniFATSector: Int
    private(set) var entries: [Entry] = []
    /// The root entry's class identifier (16 bytes), empty when there is none.
    private(set) var rootCLSID: [UInt8] = []
    private var fatCache: [Int: [UInt8]] = [:]

    /// How many directory entries and DIFAT sectors are read at most.
    static var entryLimit: Int { 4_096 }

    /// The compound file in `source`; `nil` when its header is not one.
    init?(_ source: Source) throws(IdentificationError.Reason) {
        let header = try source.bytes(at: 0, length: 512)
        guard header.count == 512, header.starts(with: OLE2Container.signature) else { return nil }
        let shift = header.littleEndian16(at: 30) ?? 0
        guard shift == 9 || shift == 12 else { return nil }
        self.source = source
        sectorSize = 1 << shift
        miniCutoff = header.littleEndian32(at: 56) ?? 4096
        firstMiniFATSector = header.littleEndian32(at: 60) ?? 0xFFFF_FFFE
        let fatCount = header.littleEndian32(at: 44) ?? 0
        for index in 0..<min(fatCount, 109) { fatSectors.append(header.littleEndian32(at: 76 + index * 4) ?? 0) }
        // The DIFAT chain: further FAT sectors' numbers, the last word of each sector the next one.
        var difat = header.littleEndian32(at: 68) ?? 0xFFFF_FFFE
        var seen = Set<Int>()
        while fatSectors.count < fatCount, difat < 0xFFFF_FFFA, seen.insert(difat).inserted, seen.count < Self.entryLimit {
            let sector = try source.bytes(at: offset(of: difat), length: sectorSize)
            guard sector.count == sectorSize else { break }
            for index in 0..<(sectorSize / 4 - 1) where fatSectors.count < fatCount {
                fatSectors.append(sector.littleEndian32(at: index * 4) ?? 0)
            }
            difat = sector.littleEndian32(at: sectorSize - 4) ?? 0xFFFF_FFFE
        }
        // The directory: 128-byte entries along its chain.
        let directory = try chain(from: header.littleEndian32(at: 48) ?? 0xFFFF_FFFE, limit: Self.entryLimit * 128)
        var offset = 0
        while offset + 128 <= directory.count {
            let nameLength = min(directory.littleEndian16(at: offset + 64) ?? 0, 64)
            let kind = directory[offset + 66]
            if nameLength >= 2, kind != 0 {
                var units: [UInt16] = []
                for index in stride(from: 0, to: nameLength - 2, by: 2) { units.append(UInt16(directory.littleEndian16(at: offset + index) ?? 0)) }
                if kind == 5, rootCLSID.isEmpty { rootCLSID = Array(directory[(offset + 80)..<(offset + 96)]) }
                entries.append(Entry(name: String(decoding: units, as: UTF16.self), kind: kind,
                                     start: directory.littleEndian32(at: offset + 116) ?? 0xFFFF_FFFE,
                                     size: directory.littleEndian32(at: offset + 120) ?? 0))
            }
            offset += 128
        }
    }

    private func offset(of sector: Int) -> Int { (sector + 1) * sectorSize }

    /// The sector after `sector` in the FAT, `nil` at the chain's end or past what the FAT covers.
    private mutating func next(_ sector: Int) throws(IdentificationError.Reason) -> Int? {
        let perSector = sectorSize / 4
        let index = sector / perSector
        guard index < fatSectors.count else { return nil }
        if fatCache[index] == nil { fatCache[index] = try source.bytes(at: offset(of: fatSectors[index]), length: sectorSize) }
        guard let fat = fatCache[index], fat.count == sectorSize, let value = fat.littleEndian32(at: (sector % perSector) * 4) else { return nil }
        return value >= 0xFFFF_FFFA ? nil : value
    }

    /// The bytes along the chain from `first`, at most `limit`.
    private mutating func chain(from first: Int, limit: Int) throws(IdentificationError.Reason) -> [UInt8] {
        var out: [UInt8] = []
        var sector: Int? = first
        var seen = Set<Int>()
        while let current = sector, current < 0xFFFF_FFFA, out.count < limit, seen.insert(current).inserted,
              offset(of: current) < source.count {
            let data = try source.bytes(at: offset(of: current), length: min(sectorSize, limit - out.count))
            guard !data.isEmpty else { break }
            out += data
            sector = try next(current)
        }
        return out
    }

    /// The first `limit` bytes of a stream.
    mutating func contents(of entry: Entry, limit: Int) throws(IdentificationError.Reason) -> [UInt8] {
        let wanted = min(entry.size, limit)
        guard wanted > 0 else { return [] }
        if entry.size >= miniCutoff || entry.kind == 5 { return Array(try chain(from: entry.start, limit: wanted).prefix(wanted)) }
        // In the mini stream: 64-byte sectors, chained by the mini FAT, inside the root entry's stream.
        guard let root = entries.first(where: { $0.kind == 5 }) else { return [] }
        let miniFAT = try chain(from: firstMiniFATSector, limit: 4 << 20)
        let stream = try chain(from: root.start, limit: min(root.size, 16 << 20))
        var out: [UInt8] = []
        var sector: Int? = entry.start
        var seen = Set<Int>()
        while let current = sector, out.count < wanted, seen.insert(current).inserted, (current + 1) * 64 <= stream.count {
            out += stream[(current * 64)..<min(current * 64 + 64, current * 64 + wanted - out.count)]
            let value = miniFAT.littleEndian32(at: current * 4) ?? 0xFFFF_FFFE
            sector = value >= 0xFFFF_FFFA ? nil : value
        }
        return out
    }
}
