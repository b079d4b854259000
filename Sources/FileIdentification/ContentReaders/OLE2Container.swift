/// OLE2 compound files (Microsoft's "structured storage") told apart by the streams they hold:
/// Word, Excel, PowerPoint, Outlook messages, Windows Installer packages, Visio, Publisher.
enum OLE2Container {
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// The format of the compound file in `source`, and the stream that told; `nil` when `source` is not
    /// a compound file.
    static func identify(_ source: some ByteSource, prefix: [UInt8]) throws(IdentificationError.Reason) -> Verdict? {
        guard prefix.starts(with: signature), prefix.count >= 512 else { return nil }
        let (names, rootCLSID) = try directory(source, header: Array(prefix[0..<512]))
        let (mimeType, detail) = classify(names, rootCLSID: rootCLSID)
        return Verdict(mimeType: mimeType, detail: detail)
    }

    // Every read below is inside bounds checked before it; a read outside would be 0, never a trap.
    private static func le16(_ bytes: [UInt8], _ offset: Int) -> Int { bytes.littleEndian16(at: offset) ?? 0 }
    private static func le32(_ bytes: [UInt8], _ offset: Int) -> Int { bytes.littleEndian32(at: offset) ?? 0 }

    /// The names of the directory's entries and the root entry's class identifier. The directory's
    /// sectors are followed through the FAT; reading stops after 4,096 entries or at a broken chain.
    private static func directory(_ source: some ByteSource, header: [UInt8]) throws(IdentificationError.Reason) -> (Set<String>, [UInt8]) {
        let sectorShift = le16(header, 30)
        guard sectorShift == 9 || sectorShift == 12 else { return ([], []) }
        let sectorSize = 1 << sectorShift
        let fatSectorCount = le32(header, 44)
        let firstDirectorySector = le32(header, 48)
        // The first 109 FAT sector numbers are in the header; that covers files up to ~6.8 MB with
        // 512-byte sectors and far more with 4 KiB ones. Beyond, the directory is read as far as known.
        var fatSectors: [Int] = []
        for index in 0..<min(fatSectorCount, 109) {
            fatSectors.append(le32(header, 76 + index * 4))
        }
        func sectorOffset(_ sector: Int) -> Int { (sector + 1) * sectorSize }
        var fatCache: [Int: [UInt8]] = [:]
        func next(_ sector: Int) throws(IdentificationError.Reason) -> Int? {
            let entriesPerSector = sectorSize / 4
            let fatIndex = sector / entriesPerSector
            guard fatIndex < fatSectors.count else { return nil }
            if fatCache[fatIndex] == nil {
                fatCache[fatIndex] = try source.bytes(at: sectorOffset(fatSectors[fatIndex]), length: sectorSize)
            }
            guard let fat = fatCache[fatIndex], fat.count == sectorSize else { return nil }
            let value = le32(fat, (sector % entriesPerSector) * 4)
            return value >= 0xFFFF_FFFA ? nil : value
        }
        var names = Set<String>()
        var rootCLSID: [UInt8] = []
        var sector: Int? = firstDirectorySector
        var visited = Set<Int>()
        var entries = 0
        while let current = sector, current < 0xFFFF_FFFA, visited.insert(current).inserted, entries < 4_096 {
            let data = try source.bytes(at: sectorOffset(current), length: sectorSize)
            guard data.count == sectorSize else { break }
            for offset in stride(from: 0, to: sectorSize, by: 128) {
                entries += 1
                let nameLength = min(le16(data, offset + 64), 64)
                guard nameLength >= 2, data[offset + 66] != 0 else { continue }
                var units: [UInt16] = []
                for index in stride(from: 0, to: nameLength - 2, by: 2) {
                    units.append(UInt16(le16(data, offset + index)))
                }
                names.insert(String(decoding: units, as: UTF16.self))
                if data[offset + 66] == 5 { rootCLSID = Array(data[(offset + 80)..<(offset + 96)]) }
            }
            sector = try next(current)
        }
        return (names, rootCLSID)
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
