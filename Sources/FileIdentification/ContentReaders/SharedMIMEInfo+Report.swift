internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

extension SharedMIMEInfo {
    /// The MIME type to report for `type` decided on `evidence`: one name per format. The format is the one
    /// the file's name points to (the type's MIME type whose shared-mime-info glob matches the name: `x.sdc`
    /// is `application/vnd.stardivision.calc` among the names of the OpenOffice spreadsheet type), else the
    /// one the deciding reader named; of that format's names (a name and its aliases), or of all the type's
    /// names when neither says, the one registered with IANA, else freedesktop's, then Tika's, then
    /// libmagic's (`MediaTypeNames.rank`). A type with no MIME type reports the reader's name, else
    /// `inode/directory`, `inode/symlink`, `text/plain` or `application/octet-stream`, as it conforms.
    /// With a vocabulary other than `standard`, that vocabulary's name for the type where it has one (in
    /// Magika's, for a format read as text, its name for the text form where it has one of its own).
    func reportedMIMEType(for type: UTType, evidence: Evidence, names vocabulary: MIMENames = .standard) -> String {
        // Magika names some formats' text form apart from their binary one (an armoured OpenPGP key).
        if vocabulary == .magika, let content = evidence.content, content.type == type, content.source == .text,
           let named = type.tags(of: .magikaTextMIMEType).first {
            return named
        }
        // Past the first reports, what is decided for a format is kept (a classification reports thousands).
        let cached = reportCache.withLock { cache -> Bool in
            let generation = TypeDatabase.shared.generation
            if cache.generation != generation { cache = ReportCache(reports: cache.reports, generation: generation) }
            cache.reports += 1
            return cache.reports > Self.lookupsBeforeIndexing
        }
        var format: String?
        if let name = evidence.name, name.candidates.contains(type) {
            format = globbed(for: type, filename: name.filename, cached: cached)
        }
        if format == nil, let content = evidence.content, content.type == type {
            format = content.mimeType
        }
        guard cached else { return reportedMIMEType(for: type, format: format, names: vocabulary) }
        let key = Report(type: type, format: format, vocabulary: vocabulary)
        if let known = reportCache.withLock({ $0.names[key] }) { return known }
        let name = reportedMIMEType(for: type, format: format, names: vocabulary)
        reportCache.withLock { $0.names[key] = name }
        return name
    }

    /// The name for `type` in `vocabulary` once the format is known.
    private func reportedMIMEType(for type: UTType, format: String?, names vocabulary: MIMENames) -> String {
        if let named = MediaTypeNames.name(of: type, in: vocabulary, format: format) { return named }
        return MediaTypeNames.preferred(among: type.tags(of: .mimeType), format: format) ?? format ?? Self.inheritedMIMEType(for: type)
    }

    /// For a type with no MIME name of its own, its nearest supertype's (a BASIC dialect is reported as
    /// `text/x-basic`, Unix assembly as `text/x-asm`), else what it is at heart.
    static func inheritedMIMEType(for type: UTType) -> String {
        for supertype in type.orderedSupertypes where supertype != type {
            if let preferred = MediaTypeNames.preferred(among: supertype.tags(of: .mimeType), format: nil) { return preferred }
        }
        return fallbackMIMEType(for: type)
    }

    /// What a type with no MIME type of its own is at heart, as file(1) would say.
    static func fallbackMIMEType(for type: UTType) -> String {
        let fallbacks: [(UTType, String)] = [
            (.folder, "inode/directory"), (.directory, "inode/directory"), (.symbolicLink, "inode/symlink"),
            (.text, "text/plain"), (.data, "application/octet-stream"),
        ]
        return fallbacks.first { type.conforms(to: $0.0) }?.1 ?? "application/octet-stream"
    }

    /// Of a type's MIME types, the one whose shared-mime-info glob matches `filename` with the highest
    /// weight: `x.sdc` is `application/vnd.stardivision.calc` among the MIME types of the OpenOffice
    /// spreadsheet type, which also covers `.sxc`. `nil` when two of them match as well (`*.iso` is a CD
    /// image's and a Sega CD ROM's glob: the name does not tell which).
    private func globbed(for type: UTType, filename: String, cached: Bool) -> String? {
        let known: NameGlobs
        if cached, let found = reportCache.withLock({ $0.globs[type] }) {
            known = found
        } else {
            let mimeTypes = type.tags(of: .mimeType).map { $0.lowercased() }
            known = NameGlobs(mimeTypes: mimeTypes, globs: mimeTypes.count > 1 ? globs(of: mimeTypes) : [])
            if cached { reportCache.withLock { $0.globs[type] = known } }
        }
        let mimeTypes = known.mimeTypes
        guard mimeTypes.count > 1 else { return nil }
        // Lower-cased as `String.lowercased()` does, in place for an ASCII name (nearly every one).
        var name = filename
        let folded: [UInt8]? = name.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            return [UInt8](unsafeUninitializedCapacity: utf8.count) { bytes, count in
                for index in 0..<utf8.count { bytes[index] = CompiledTypeDatabase.folded(utf8[index]) }
                count = utf8.count
            }
        }
        let bytes = folded ?? Array(filename.lowercased().utf8)
        var cString: ContiguousArray<CChar>?
        var best: (mimeType: String, weight: Int)?
        var tied = false
        for index in 0..<mimeTypes.count {
            let weight = bytes.withUnsafeBufferPointer { known.weight(index, matching: $0, cString: &cString) }
            guard weight >= 0 else { continue }
            if weight > (best?.weight ?? -1) {
                best = (mimeTypes[index], weight)
                tied = false
            } else if weight == best?.weight, let best, !MediaTypeNames.sameFormat(mimeTypes[index], best.mimeType) {
                tied = true
            }
        }
        return tied ? nil : best?.mimeType
    }
}
