/// The readers of untrusted bytes, reachable one at a time for the fuzz targets in `Fuzz/` (package
/// access only: not part of the library's API).
package enum FuzzingEntryPoints {
    /// The ZIP reader alone: central directory (or local headers) and the classification of entries; then
    /// PRONOM's container signatures over the entries, whose contents are inflated.
    package static func zip(_ bytes: [UInt8]) {
        let source = MemoryBytes(storage: bytes)
        _ = try? ZipContainer.identify(source, prefix: Array(bytes.prefix(64 * 1024)))
        _ = try? PronomIdentifier.containerMatches(source, head: Array(bytes.prefix(4096)), limit: 64 * 1024,
                                                   tables: .shared, matcher: .shared)
    }

    /// Archives' members (`FileIdentifier.readMembers`) within small limits: libarchive over the bytes and
    /// uti's handling of what it yields. What the limits promise stops the fuzzer when it does not hold: no
    /// member deeper than the depth, no path longer than the length, no more members than the count, and
    /// the reading's count equal to the members handed out.
    package static func archiveMembers(_ bytes: [UInt8]) {
        var limits = ArchiveLimits()
        limits.maxMembers = 200
        limits.maxDepth = 4
        limits.maxPathLength = 256
        limits.maxExpandedBytes = 64 << 20
        limits.memoryBudget = 4 << 20
        limits.spoolBudget = 8 << 20
        limits.timeLimit = .seconds(5)
        var count = 0
        guard let reading = try? archiveIdentifier.readMembers(of: bytes, filename: "fuzz.tar.gz", limits: limits, { member in
            precondition((1...limits.maxDepth).contains(member.depth), "a member at depth \(member.depth)")
            precondition(member.names.reduce(0) { $0 + $1.bytes.count + 1 } - 1 <= limits.maxPathLength, "a path past the limit")
            _ = member.path(in: RawFilePath("fuzz.tar.gz")).escaped
            count += 1
            return true
        }) else { return }
        precondition(reading.memberCount == count, "\(reading.memberCount) members counted, \(count) handed out")
        precondition(count <= limits.maxMembers, "\(count) members")
    }

    private static let archiveIdentifier = FileIdentifier()

    /// The OLE2 compound-file readers alone: header, FAT chain, directory entries; then every stream's contents
    /// (DIFAT, FAT and mini FAT chains, the mini stream) and PRONOM's container signatures over them.
    package static func ole2(_ bytes: [UInt8]) {
        let source = MemoryBytes(storage: bytes)
        _ = try? OLE2Container.identify(source, prefix: Array(bytes.prefix(64 * 1024)))
        if var file = try? CompoundFile(source) {
            for entry in file.entries.prefix(64) { _ = try? file.contents(of: entry, limit: 1 << 20) }
        }
        _ = try? PronomIdentifier.containerMatches(source, head: Array(bytes.prefix(4096)), limit: 64 * 1024,
                                                   tables: .shared, matcher: .shared)
    }

    /// The check of a Magika model's `config.min.json` (Foundation's `JSONDecoder`, then uti's checks), alone.
    package static func modelConfiguration(_ bytes: [UInt8]) {
        _ = try? MagikaModel.Configuration.read(bytes)
    }

    /// The framed-record reader (`uti identify --framed -`): every record of the input, its content read back.
    /// A record whose content does not come back whole, or a clean end before all the input was read, stops
    /// the fuzzer.
    package static func framedRecords(_ bytes: [UInt8]) {
        var records = FramedRecords(bytes: bytes, memoryLimit: 256)
        do throws(FramedRecords.Failure) {
            while let record = try records.next() {
                precondition(record.name.count <= FramedRecords.maximumNameLength)
                if record.spoolError == nil, let content = try? record.content.source.bytes(at: 0, length: Int.max) {
                    precondition(content.count == record.content.count, "a record's content came back short")
                }
            }
            precondition(records.consumed == bytes.count, "records ended before the input did")
        } catch {
            precondition(error.offset <= bytes.count && error.errno == nil)
        }
    }
}
