internal import CZlib

/// ZIP-based formats told apart by their entries, read from the central directory at the end of the
/// file (so an entry stored last still counts), or from the local headers when there is no directory.
enum ZipContainer {
    struct Entry {
        var name: String
        var method: UInt16
        var compressedSize: Int
        var localHeaderOffset: Int
    }

    /// The format of the ZIP file in `source`, and the entry that told; `nil` when `source` is not a ZIP
    /// file (or its entries name a format no declared type claims).
    static func identify(_ source: some ByteSource, prefix: [UInt8]) throws(IdentificationError.Reason) -> Verdict? {
        guard prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) || prefix.starts(with: [0x50, 0x4B, 0x05, 0x06]) else { return nil }
        // Without a central directory (a file cut short), the local headers of the first 64 KiB.
        var entries = try centralDirectory(source)
        if entries == nil { entries = localHeaders(try source.bytes(at: 0, length: 64 * 1024)) }
        guard let entries else { return nil }
        let (mimeType, detail) = try classify(entries, source)
        return Verdict(mimeType: mimeType, detail: detail)
    }

    // MARK: Reading

    // Every read below is inside bounds checked before it; a read outside would be 0, never a trap.
    private static func le16(_ bytes: [UInt8], _ offset: Int) -> Int { bytes.littleEndian16(at: offset) ?? 0 }
    private static func le32(_ bytes: [UInt8], _ offset: Int) -> Int { bytes.littleEndian32(at: offset) ?? 0 }

    /// The entries of the central directory, found through the end-of-central-directory record in the
    /// last 64 KiB; `nil` when there is none (a truncated file) or the end record cannot be right.
    ///
    /// Counts, sizes and offsets are the file's word: each is checked against the file's size before any
    /// arithmetic, so that no value (a Zip64 size near 2^63) can overflow.
    static func centralDirectory(_ source: some ByteSource) throws(IdentificationError.Reason) -> [Entry]? {
        let tailStart = max(0, source.count - (65_535 + 22))
        let tail = try source.bytes(at: tailStart, length: source.count - tailStart)
        guard tail.count >= 22 else { return nil }
        var position = tail.count - 22
        while position >= 0 {
            if tail[position] == 0x50, tail[position + 1] == 0x4B, tail[position + 2] == 0x05, tail[position + 3] == 0x06 { break }
            position -= 1
        }
        guard position >= 0 else { return nil }
        var count = le16(tail, position + 10)
        var size = le32(tail, position + 12)
        var offset = le32(tail, position + 16)
        // Where the directory ends: at the end record, or at the Zip64 end record when there is one.
        var directoryEnd = tailStart + position
        // Zip64: the locator sits just before the end record.
        if offset == 0xFFFF_FFFF || size == 0xFFFF_FFFF || count == 0xFFFF, position >= 20,
           tail[position - 20] == 0x50, tail[position - 19] == 0x4B, tail[position - 18] == 0x06, tail[position - 17] == 0x07 {
            let locator = directoryEnd - 20
            // The locator's offset is relative to the archive's start, as every offset is; in an archive
            // with something before it, the record (without extensible data) lies just before the locator.
            let candidates = [tail.littleEndian64(at: position - 20 + 8), locator - 56].compactMap { $0 }
            for recordOffset in candidates where recordOffset >= 0 && recordOffset <= locator - 56 {
                let record = try source.bytes(at: recordOffset, length: 56)
                guard record.count == 56, record.starts(with: [0x50, 0x4B, 0x06, 0x06]) else { continue }
                // A value above Int.max is nil: no archive is that large.
                guard let count64 = record.littleEndian64(at: 32), let size64 = record.littleEndian64(at: 40),
                      let offset64 = record.littleEndian64(at: 48) else { return nil }
                (count, size, offset, directoryEnd) = (count64, size64, offset64, recordOffset)
                break
            }
        }
        // A directory larger than what comes before its end, or starting past the end of the file, is not one.
        guard size <= directoryEnd, offset <= source.count else { return nil }
        let directoryStart = directoryEnd - size
        // A self-extracting or prefixed archive: offsets are relative to where the archive starts, `shift`
        // bytes into the file. Both terms lie within the file's size: the difference cannot overflow.
        let shift = directoryStart - offset
        let directory = try source.bytes(at: directoryStart, length: min(size, 8 << 20))
        var entries: [Entry] = []
        var cursor = 0
        while entries.count < min(count, 100_000), cursor + 46 <= directory.count,
              directory[cursor] == 0x50, directory[cursor + 1] == 0x4B, directory[cursor + 2] == 0x01, directory[cursor + 3] == 0x02 {
            let nameLength = le16(directory, cursor + 28)
            let extraLength = le16(directory, cursor + 30)
            let commentLength = le16(directory, cursor + 32)
            guard cursor + 46 + nameLength <= directory.count else { break }
            let name = String(decoding: directory[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            entries.append(Entry(name: name, method: UInt16(le16(directory, cursor + 10)),
                                 compressedSize: le32(directory, cursor + 20),
                                 localHeaderOffset: le32(directory, cursor + 42) + shift))
            cursor += 46 + nameLength + extraLength + commentLength
        }
        return entries.isEmpty && count > 0 ? nil : entries
    }

    /// The entries whose local headers lie in the prefix, one after the other.
    static func localHeaders(_ prefix: [UInt8]) -> [Entry] {
        var entries: [Entry] = []
        var cursor = 0
        while cursor + 30 <= prefix.count, prefix[cursor] == 0x50, prefix[cursor + 1] == 0x4B,
              prefix[cursor + 2] == 0x03, prefix[cursor + 3] == 0x04 {
            let flags = le16(prefix, cursor + 6)
            let compressedSize = le32(prefix, cursor + 18)
            let nameLength = le16(prefix, cursor + 26)
            let extraLength = le16(prefix, cursor + 28)
            guard cursor + 30 + nameLength <= prefix.count else { break }
            let name = String(decoding: prefix[(cursor + 30)..<(cursor + 30 + nameLength)], as: UTF8.self)
            entries.append(Entry(name: name, method: UInt16(le16(prefix, cursor + 8)), compressedSize: compressedSize,
                                 localHeaderOffset: cursor))
            // With a data descriptor (flag 3) the size is unknown here: stop.
            if flags & 0x08 != 0 { break }
            cursor += 30 + nameLength + extraLength + compressedSize
        }
        return entries
    }

    /// The first `limit` bytes of an entry's contents: stored, or deflated (inflated by zlib, raw deflate as ZIP
    /// keeps it, reading the compressed bytes 64 KiB at a time and stopping once `limit` bytes are out); `nil`
    /// for another method, an encrypted entry, or a local header that is not one.
    static func contents(of entry: Entry, _ source: some ByteSource, limit: Int) throws(IdentificationError.Reason) -> [UInt8]? {
        if entry.method == 0 { return try storedContents(entry, source, limit: limit) }
        guard entry.method == 8 else { return nil }
        let header = try source.bytes(at: entry.localHeaderOffset, length: 30)
        guard header.count == 30, header.starts(with: [0x50, 0x4B, 0x03, 0x04]), le16(header, 6) & 1 == 0 else { return nil }
        let start = entry.localHeaderOffset + 30 + le16(header, 26) + le16(header, 28)
        // With a data descriptor the central directory's size is the one to trust; past the file's end, nothing.
        let available = max(0, min(entry.compressedSize > 0 ? entry.compressedSize : source.count - start, source.count - start))
        var stream = z_stream()
        guard uti_inflate_init_raw(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        // The output grows as the entry inflates, up to `limit`: most entries are small, and a buffer of the
        // limit's size, zeroed, cost more than inflating them.
        var output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, min(limit, 64 * 1024)))
        defer { output.deallocate() }
        func grow() {
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(limit, output.count * 2))
            _ = larger.initialize(fromContentsOf: output)
            output.deallocate()
            output = larger
        }
        var produced = 0
        var consumed = 0
        var status = Z_OK
        reading: while produced < limit, consumed < available {
            let chunk = try source.bytes(at: start + consumed, length: min(64 * 1024, available - consumed))
            guard !chunk.isEmpty else { break }
            consumed += chunk.count
            chunk.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                // Until this chunk is used up, the limit is reached, or the stream ends or fails; more room
                // while the output is full (zlib may hold output back with no input left to give).
                while true {
                    if produced == output.count, output.count < limit { grow() }
                    stream.next_out = output.baseAddress.map { $0 + produced }
                    stream.avail_out = UInt32(output.count - produced)
                    status = inflate(&stream, Z_NO_FLUSH)
                    produced = output.count - Int(stream.avail_out)
                    guard status == Z_OK, produced < limit, stream.avail_out == 0 || stream.avail_in > 0 else { break }
                }
            }
            if status == Z_STREAM_END { break reading }
            guard status == Z_OK || status == Z_BUF_ERROR else { break reading }
        }
        guard produced > 0 || status == Z_OK || status == Z_BUF_ERROR || status == Z_STREAM_END else { return nil }
        return Array(UnsafeBufferPointer(rebasing: output[0..<produced]))
    }

    /// The contents of a stored (uncompressed) entry, up to `limit` bytes.
    private static func storedContents(_ entry: Entry, _ source: some ByteSource, limit: Int) throws(IdentificationError.Reason) -> [UInt8]? {
        guard entry.method == 0 else { return nil }
        let header = try source.bytes(at: entry.localHeaderOffset, length: 30)
        guard header.count == 30, header.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return nil }
        let start = entry.localHeaderOffset + 30 + le16(header, 26) + le16(header, 28)
        return try source.bytes(at: start, length: min(entry.compressedSize, limit))
    }

    // MARK: Classifying

    private static func classify(_ entries: [Entry], _ source: some ByteSource) throws(IdentificationError.Reason) -> (mimeType: String, detail: String) {
        let names = Set(entries.map(\.name))
        // OpenDocument, EPUB and their kin name themselves in a stored `mimetype` entry.
        if let entry = entries.first(where: { $0.name == "mimetype" }),
           let contents = try storedContents(entry, source, limit: 200) {
            let mime = String(decoding: contents, as: UTF8.self).trimming { $0 == " " }.lowercased()
            if mime.contains("/"), !mime.contains("\n"), mime.count < 120 {
                return (mime, "ZIP entry mimetype: \(mime)")
            }
        }
        func has(_ name: String) -> Bool { names.contains(name) }
        func hasPrefix(_ prefix: String) -> Bool { entries.contains { $0.name.hasPrefix(prefix) } }
        if has("[Content_Types].xml") || hasPrefix("_rels/") {
            let macros = entries.contains { $0.name.hasSuffix("vbaProject.bin") }
            if hasPrefix("word/") {
                return (macros ? "application/vnd.ms-word.document.macroenabled.12"
                        : "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "ZIP entries word/")
            }
            if hasPrefix("xl/") {
                return (macros ? "application/vnd.ms-excel.sheet.macroenabled.12"
                        : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "ZIP entries xl/")
            }
            if hasPrefix("ppt/") {
                return (macros ? "application/vnd.ms-powerpoint.presentation.macroenabled.12"
                        : "application/vnd.openxmlformats-officedocument.presentationml.presentation", "ZIP entries ppt/")
            }
            if hasPrefix("visio/") { return ("application/vnd.ms-visio.drawing.main+xml", "ZIP entries visio/") }
            if hasPrefix("3D/") { return ("model/3mf", "ZIP entries 3D/") }
            if hasPrefix("Documents/") && has("FixedDocumentSequence.fdseq") { return ("application/oxps", "ZIP entry FixedDocumentSequence.fdseq") }
        }
        if has("META-INF/container.xml") && entries.contains(where: { $0.name.hasSuffix(".opf") }) {
            return ("application/epub+zip", "ZIP entry META-INF/container.xml")
        }
        if has("AndroidManifest.xml") && (has("classes.dex") || has("resources.arsc")) {
            return ("application/vnd.android.package-archive", "ZIP entry AndroidManifest.xml")
        }
        if has("base/manifest/AndroidManifest.xml") { return ("application/x-android-app-bundle", "ZIP entry base/manifest/AndroidManifest.xml") }
        if entries.contains(where: { $0.name.hasPrefix("Payload/") && $0.name.contains(".app/") }) {
            return ("application/x-ios-app", "ZIP entries Payload/*.app/")
        }
        if has("install.rdf") || (has("manifest.json") && has("META-INF/mozilla.rsa")) {
            return ("application/x-xpinstall", has("install.rdf") ? "ZIP entry install.rdf" : "ZIP entry META-INF/mozilla.rsa")
        }
        if has("extension.vsixmanifest") { return ("application/vsix", "ZIP entry extension.vsixmanifest") }
        if has("AppManifest.xaml") { return ("application/x-silverlight-app", "ZIP entry AppManifest.xaml") }
        if has("doc.kml") { return ("application/vnd.google-earth.kmz", "ZIP entry doc.kml") }
        if has("META-INF/MANIFEST.MF") || entries.contains(where: { $0.name.hasSuffix(".class") }) {
            if entries.contains(where: { $0.name.hasPrefix("WEB-INF/") }) { return ("application/x-webarchive-java", "ZIP entries WEB-INF/") }
            return ("application/java-archive", has("META-INF/MANIFEST.MF") ? "ZIP entry META-INF/MANIFEST.MF" : "ZIP entries *.class")
        }
        if has("content.xml") && has("styles.xml") { return ("application/vnd.oasis.opendocument.text", "ZIP entries content.xml, styles.xml") }
        if has("maindoc.xml") { return ("application/x-krita", "ZIP entry maindoc.xml") }
        if has("stack.xml") { return ("image/openraster", "ZIP entry stack.xml") }
        if has("Index/Document.iwa") { return ("application/vnd.apple.pages", "ZIP entry Index/Document.iwa") }
        if has("WMS_Manifest.xml") || has("wheel") { return ("application/zip", "ZIP archive") }
        if entries.contains(where: { $0.name.hasSuffix(".dist-info/WHEEL") }) { return ("application/x-wheel+zip", "ZIP entry *.dist-info/WHEEL") }
        if entries.contains(where: { $0.name.hasPrefix("ComicInfo") }) || (!entries.isEmpty && entries.allSatisfy(isImage)) {
            return ("application/vnd.comicbook+zip", "ZIP of images")
        }
        return ("application/zip", "ZIP archive, \(entries.count) entries")
    }

    private static func isImage(_ entry: Entry) -> Bool {
        let name = entry.name.lowercased()
        return name.hasSuffix("/") || [".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp"].contains { name.hasSuffix($0) }
    }
}
