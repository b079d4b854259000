public import UniformTypeIdentifiers

/// Tag classes for what identification matches beyond extensions and MIME types: whole file names,
/// multi-dot suffixes and globs, `#!` interpreters, GitHub Linguist's language names, and Magika's
/// labels and MIME names.
extension UTTagClass {
    /// The MIME name Google Magika gives the content type (`text/x-msdos-batch`, `inode/x-empty`), from its
    /// content-type knowledge base: what `MIMENames.magika` reports.
    public static let magikaMIMEType = UTTagClass(rawValue: "uti.magika-mime-type")
    /// Magika's MIME name for the format's text form, where Magika names its text and binary forms apart
    /// (ASCII-armoured OpenPGP keys are its `pem`, their packets its `pgp`): what `MIMENames.magika` reports
    /// for a file of the format read as text.
    public static let magikaTextMIMEType = UTTagClass(rawValue: "uti.magika-text-mime-type")
}

/// Whose names identification reports a file's MIME type in (`Identification.mimeType`).
///
/// One format often has several names: IANA registered `application/vnd.microsoft.portable-executable`,
/// freedesktop.org calls it `application/x-ms-dos-executable`, libmagic prints `application/x-dosexec`.
/// By default (`standard`) uti reports the IANA-registered name where there is one, else freedesktop's,
/// Tika's, libmagic's, then Magika's, and keeps every name in `Identification.mimeTypes`. A program that
/// compares answers with another tool's (a pipeline that used `file --mime-type`, an index built by Tika or
/// Magika) asks for that tool's names instead. The type is the same whatever the names: only the name
/// reported changes, and where the vocabulary has no name for the type, the standard one is reported.
public enum MIMENames: String, Sendable, Hashable, CaseIterable {
    /// IANA's registered name, else freedesktop's, Tika's, libmagic's, Magika's.
    case standard
    /// freedesktop.org shared-mime-info's type (an alias's type, never the alias): what GIO and `xdg-mime` say.
    case freedesktop
    /// Apache Tika's type (else one of its aliases).
    case tika
    /// What libmagic prints (`file --mime-type`).
    case libmagic
    /// Google Magika's name for the content type (`magika --output-format`'s MIME type).
    case magika
}

extension MediaTypeNames {
    /// The name `type` goes by in `vocabulary`: the vocabulary's name for the type; for the two coarse
    /// vocabularies, libmagic's and Magika's, else their name for its nearest supertype they name other
    /// than as text or data (both call an Ogg Vorbis file `audio/ogg`, as `file` and `magika` answer);
    /// `nil` for `standard`, and where the vocabulary names neither (freedesktop's and Tika's are as rich
    /// as the type database: a supertype's name there would say less than the standard name).
    /// `format`: the name a file's name or a content reader gave, preferred among the type's own.
    static func name(of type: UTType, in vocabulary: MIMENames, format: String?) -> String? {
        guard vocabulary != .standard else { return nil }
        if let name = ownName(of: type, in: vocabulary, format: format) { return name }
        guard vocabulary == .libmagic || vocabulary == .magika else { return nil }
        for supertype in type.orderedSupertypes where supertype != type {
            guard let name = ownName(of: supertype, in: vocabulary, format: nil) else { continue }
            if name != "text/plain" && name != "application/octet-stream" { return name }
        }
        return nil
    }

    /// The vocabulary's name among the type's own names (Magika's: its tag), `nil` when it has none.
    private static func ownName(of type: UTType, in vocabulary: MIMENames, format: String?) -> String? {
        let ranks: [MediaTypeVocabularies]
        switch vocabulary {
        case .standard: return nil
        case .magika: return type.tags(of: .magikaMIMEType).first
        case .freedesktop: ranks = [.freedesktop, .freedesktopAlias]
        case .tika: ranks = [.tika, .tikaAlias]
        case .libmagic: ranks = [.libmagic]
        }
        let names = type.tags(of: .mimeType)
        // The format's own names first (`x.sdc`'s StarCalc among the OpenOffice spreadsheet's names).
        let ordered = format.map { format in names.filter { sameFormat($0, format) } + names.filter { !sameFormat($0, format) } } ?? names
        for rank in ranks {
            guard let name = ordered.first(where: { vocabularies(of: $0).contains(rank) }) else { continue }
            // freedesktop reports an alias's type, as its database does.
            if vocabulary == .freedesktop, rank == .freedesktopAlias {
                let canonical = canonical(name)
                if vocabularies(of: canonical).contains(.freedesktop) { return canonical }
            }
            return name
        }
        return nil
    }
}
