internal import Synchronization
public import UniformTypeIdentifiers

extension UTTagClass {
    /// What a format's files are, where its conformance does not say: `text` (its files are text, though it
    /// does not conform to `public.text`: PostScript, Adobe font metrics), `text-or-binary` (it has both
    /// forms: property lists, X.509 certificates in DER or PEM) or `binary` (a binary form of a text
    /// family: a PFB font). `TypeDB/sources/curated/content.toml`.
    public static let content = UTTagClass(rawValue: "uti.content")
    /// `required` for a format every file of which carries a signature identification's readers check (PNG,
    /// ZIP, ELF ...): absent it, a name that claims the format does not stand.
    public static let signature = UTTagClass(rawValue: "uti.signature")
}

/// What identification may hold a format's bytes to: whether its files can be text, can be binary, and must
/// carry a signature. From conformance and the type's tags (`UTTagClass.content`, `.signature`), its own or
/// its nearest supertype's; read once per type and state of the database.
enum FormatFacts {
    struct Facts: Sendable {
        var canBeText: Bool
        var canBeBinary: Bool
        var requiresSignature: Bool
    }

    static func canBeText(_ type: UTType) -> Bool { facts(type).canBeText }
    static func canBeBinary(_ type: UTType) -> Bool { facts(type).canBeBinary }
    static func requiresSignature(_ type: UTType) -> Bool { facts(type).requiresSignature }

    /// Types that say nothing of bytes: any content may be one.
    private static let abstract: Set<UTType> = [.item, .data, .content, .compositeContent]
    /// The containers and compressions whose structure the readers always check: a format stored in one (or
    /// conforming to one) needs it too. Other formats' required signatures are their own, not their subtypes'
    /// (a CHIP-8 program filed under executables is no ELF file).
    private static let checkedContainers: [UTType] = [.zip, KnownTypes.oleStorage, .gzip, .bz2, KnownTypes.xz, KnownTypes.zstandard, .tiff]

    private static let cache = Mutex<(generation: Int, facts: [UTType: Facts])>((-1, [:]))

    static func facts(_ type: UTType) -> Facts {
        let generation = TypeDatabase.shared.generation
        if let known = cache.withLock({ $0.generation == generation ? $0.facts[type] : nil }) { return known }
        let made = derive(type)
        cache.withLock { cache in
            if cache.generation != generation { cache = (generation, [:]) }
            cache.facts[type] = made
        }
        return made
    }

    private static func derive(_ type: UTType) -> Facts {
        if abstract.contains(type) { return Facts(canBeText: true, canBeBinary: true, requiresSignature: false) }
        let lineage = [type] + type.orderedSupertypes
        let content = lineage.lazy.compactMap { $0.tags(of: .content).first }.first
        let isText = type.conforms(to: .text)
        let canBeText = (isText && content != "binary") || content == "text" || content == "text-or-binary"
        let canBeBinary = content == "binary" || content == "text-or-binary" || (!isText && content != "text")
        // A signature the data requires is required in either form (a WARC file's version line); one that comes
        // from a container, only of a format whose files are never text (a text form has no ZIP around it).
        let signed = type.tags(of: .signature).contains("required")
        let contained = checkedContainers.contains { type != $0 && type.isKind(of: $0) }
        return Facts(canBeText: canBeText, canBeBinary: canBeBinary,
                     requiresSignature: signed || (contained && canBeBinary && content != "text-or-binary"))
    }
}
