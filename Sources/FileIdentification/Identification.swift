public import UniformTypeIdentifiers

/// What a file is, and why: the answer of `FileIdentifier`.
public struct Identification: Sendable, Hashable {
    /// The type the evidence settles on.
    public var type: UTType
    /// What the name and the content said, and which rule decided.
    public var evidence: Evidence {
        get { evidenceStorage.value }
        _modify {
            if !isKnownUniquelyReferenced(&evidenceStorage) { evidenceStorage = EvidenceStorage(evidenceStorage.value) }
            yield &evidenceStorage.value
        }
    }
    /// The evidence, in a box that copies of the identification share until one changes it: the evidence holds
    /// a score of strings and arrays, and an identification is copied a few times on its way from the reader
    /// to a record (each copy retained every one of them; now the box alone).
    private var evidenceStorage: EvidenceStorage
    /// How sure the answer is.
    public var confidence: Confidence
    /// Whether the name claims one type and the content proves another (a Windows executable
    /// named `photo.jpg`). A name that is merely more specific than the content is not a mismatch.
    public var isMismatch: Bool
    /// The text encoding, for text.
    public var textEncoding: TextEncoding?
    /// The size in bytes of the file or buffer whose content was read; `nil` for directories, links,
    /// devices and the like, and by name alone.
    public var fileSize: Int?

    /// The MIME type to report on Linux, decided with the type: for a type the name proposed, the one of its
    /// MIME types whose shared-mime-info glob matches the name; else the one the deciding reader named,
    /// when it named this type and shared-mime-info knows it as a type; else the type's first MIME type
    /// that shared-mime-info knows as a type of its own (what desktop applications expect), else
    /// `type.preferredMIMEType`; for a type with none, `inode/directory`, `inode/symlink`, `text/plain`
    /// or `application/octet-stream`, as it conforms.
    public var mimeType: String
    /// What PRONOM says the file is (its formats and versions by DROID's signatures), when the identifier was
    /// asked (`FileIdentifier.Options.pronom`); `nil` otherwise, and for what is not a file's bytes.
    public var pronom: PronomIdentification?

    /// An identification; `mimeType` defaults to the type's preferred MIME type (or what it is at heart:
    /// `inode/directory`, `text/plain`, `application/octet-stream` ...).
    public init(type: UTType, evidence: Evidence, confidence: Confidence, isMismatch: Bool, textEncoding: TextEncoding?,
                mimeType: String? = nil) {
        self.type = type
        evidenceStorage = EvidenceStorage(evidence)
        self.confidence = confidence
        self.isMismatch = isMismatch
        self.textEncoding = textEncoding
        self.mimeType = mimeType ?? type.preferredMIMEType ?? SharedMIMEInfo.fallbackMIMEType(for: type)
    }

    /// How sure an identification is.
    public enum Confidence: String, Sendable, Hashable, Comparable, CaseIterable {
        /// A guess: no evidence beyond text-or-binary, or a name the content cannot confirm.
        case low
        /// One source of evidence, or a content heuristic.
        case medium
        /// Content proves it (a signature, a container's entries, the file system), alone or with the name.
        case high

        private var rank: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .high: 2
            }
        }

        /// Whether `lhs` is less sure than `rhs`: low, then medium, then high.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }
}

/// An identification's evidence, shared by its copies: changed only where one copy holds it
/// (`Identification.evidence` makes its own before it changes a shared one), so that no two threads ever change
/// the same box.
private final class EvidenceStorage: @unchecked Sendable, Hashable {
    var value: Evidence

    init(_ value: Evidence) { self.value = value }

    static func == (lhs: EvidenceStorage, rhs: EvidenceStorage) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The evidence behind an identification.
public struct Evidence: Sendable, Hashable {
    /// The types the name proposes, best first, and how it proposed them (nil: the name said nothing).
    public var name: NameEvidence?
    /// What the content (or the file system) said, if it was read: the reading that decided, or the
    /// most authoritative one.
    public var content: ContentEvidence?
    /// What the other readers of the content said, most authoritative first.
    public var otherReadings: [ContentEvidence] = []
    /// The rule that decided.
    public var rule: Rule
    /// Why the name's types were set aside, when they were: a regular file named for a package, text under
    /// the name of a binary format whose rules the bytes do not meet, a format's magic that the bytes fail.
    /// `nil` when the name was followed, or said nothing.
    public var nameOverruled: String?

    /// Evidence; each argument sets the property of the same name.
    public init(name: NameEvidence?, content: ContentEvidence?, otherReadings: [ContentEvidence] = [], rule: Rule,
                nameOverruled: String? = nil) {
        self.name = name
        self.content = content
        self.otherReadings = otherReadings
        self.rule = rule
        self.nameOverruled = nameOverruled
    }

    /// The rules of resolution, in the order they are tried; new rules may be added.
    public struct Rule: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The rule's name, as shown in reports and JSON (`content-refines-name`).
        public let rawValue: String
        /// Creates a rule from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The rule's name.
        public var description: String { rawValue }

        /// The file system decided: a directory, bundle, link, FIFO, socket or device.
        public static let fileSystem = Rule(rawValue: "file-system")
        /// The file is empty.
        public static let empty = Rule(rawValue: "empty")
        /// The name's type is the content's type or a more specific kind of it (`x.docx` read as ZIP).
        public static let nameRefinesContent = Rule(rawValue: "name-refines-content")
        /// The content's type is a more specific kind of the name's (`data.txt` holding JSON).
        public static let contentRefinesName = Rule(rawValue: "content-refines-name")
        /// Conclusive content overrules a name that says otherwise (an ELF file named `.txt`).
        public static let contentOverrulesName = Rule(rawValue: "content-overrules-name")
        /// No name evidence, or names that conflict: the content decided.
        public static let contentOnly = Rule(rawValue: "content-only")
        /// The content was inconclusive; the name decided.
        public static let nameOnly = Rule(rawValue: "name-only")
        /// Nothing conclusive: text or binary decided between `public.plain-text` and `public.data`.
        public static let textOrBinary = Rule(rawValue: "text-or-binary")
    }
}

/// What the file name says.
public struct NameEvidence: Sendable, Hashable {
    /// The last path component.
    public var filename: String {
        get { storage.filename }
        set {
            makeUnique()
            storage.filename = newValue
        }
    }
    /// What matched: the whole name, a multi-dot suffix (`tar.gz`), the extension or a pattern.
    public var match: Match {
        get { storage.match }
        set {
            makeUnique()
            storage.match = newValue
        }
    }
    /// The tag that matched (`tar.gz`, `jpg`, `Makefile`).
    public var tag: String {
        get { storage.tag }
        set {
            makeUnique()
            storage.tag = newValue
        }
    }
    /// The declared types claiming it, best first.
    public var candidates: [UTType] {
        get { storage.candidates }
        set {
            makeUnique()
            storage.candidates = newValue
        }
    }
    /// What put the first candidate first, when the database's order did not: GitHub Linguist's heuristics,
    /// which choose among the languages an extension is written in by the text (`.m`: MATLAB).
    public var decidedBy: String? {
        get { storage.decidedBy }
        set {
            makeUnique()
            storage.decidedBy = newValue
        }
    }

    /// The fields, in a box that copies share until one changes (`makeUnique()` makes its own first), set as
    /// `ContentEvidence`'s are: the evidence of a name is copied into every answer the resolver tries.
    private final class Storage: @unchecked Sendable {
        var filename: String
        var match: Match
        var tag: String
        var candidates: [UTType]
        var decidedBy: String?

        init(filename: String, match: Match, tag: String, candidates: [UTType], decidedBy: String?) {
            self.filename = filename
            self.match = match
            self.tag = tag
            self.candidates = candidates
            self.decidedBy = decidedBy
        }

        func copy() -> Storage { Storage(filename: filename, match: match, tag: tag, candidates: candidates, decidedBy: decidedBy) }
    }
    private var storage: Storage

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Equal when every field is (the same box, first, without comparing them).
    public static func == (lhs: NameEvidence, rhs: NameEvidence) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (l, r) = (lhs.storage, rhs.storage)
        return l.filename == r.filename && l.match == r.match && l.tag == r.tag && l.candidates == r.candidates && l.decidedBy == r.decidedBy
    }

    /// Hashes every field `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.filename)
        hasher.combine(storage.match)
        hasher.combine(storage.tag)
        hasher.combine(storage.candidates)
        hasher.combine(storage.decidedBy)
    }

    /// How the name matched; new kinds of match may be added.
    public struct Match: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind of match's name, as shown in reports and JSON (`suffix`).
        public let rawValue: String
        /// Creates a kind of match from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind of match's name.
        public var description: String { rawValue }

        /// The whole name (`Makefile`).
        public static let filename = Match(rawValue: "filename")
        /// A multi-dot suffix (`tar.gz`).
        public static let suffix = Match(rawValue: "suffix")
        /// The extension after the last dot.
        public static let filenameExtension = Match(rawValue: "extension")
        /// Another pattern (`*.[1-9]`, `README*`).
        public static let pattern = Match(rawValue: "pattern")
    }

    /// Name evidence; each argument sets the property of the same name, and ``decidedBy`` is `nil`.
    public init(filename: String, match: Match, tag: String, candidates: [UTType]) {
        storage = Storage(filename: filename, match: match, tag: tag, candidates: candidates, decidedBy: nil)
    }
}

/// What the content says.
public struct ContentEvidence: Sendable, Hashable {
    /// The type the content shows.
    public var type: UTType {
        get { storage.type }
        set {
            makeUnique()
            storage.type = newValue
        }
    }
    /// Which reader said so.
    public var source: Source {
        get { storage.source }
        set {
            makeUnique()
            storage.source = newValue
        }
    }
    /// The MIME type the reader named, when it names types that way (freedesktop magic, libmagic).
    public var mimeType: String? {
        get { storage.mimeType }
        set {
            makeUnique()
            storage.mimeType = newValue
        }
    }
    /// Whether it proves the type (a signature, a container's entries, a `#!` line) rather than
    /// suggesting it (plain text, unrecognised binary, a text heuristic).
    public var isConclusive: Bool {
        get { storage.isConclusive }
        set {
            makeUnique()
            storage.isConclusive = newValue
        }
    }
    /// What was seen: `ZIP entry word/document.xml`, `#!/usr/bin/python3`, `libmagic: image/png`.
    public var detail: String {
        get { storage.detail }
        set {
            makeUnique()
            storage.detail = newValue
        }
    }
    /// A model's probability for the type, 0 to 1 (Magika's); `nil` for readers that do not score.
    public var score: Double? {
        get { storage.score }
        set {
            makeUnique()
            storage.score = newValue
        }
    }
    /// A resemblance rather than evidence (shared-mime-info's lowest priorities, a keyword or comment opener at
    /// the start): it may confirm a language the name names, never name one alone (`Resolution`).
    var isResemblance: Bool {
        get { storage.isResemblance }
        set {
            makeUnique()
            storage.isResemblance = newValue
        }
    }

    /// The fields, in a box that copies share until one changes (`makeUnique()` makes its own first): a reading
    /// holds four strings, and the resolver's loops and filters copy readings a dozen times a file (each copy
    /// retained every string; now the box alone). No two threads ever change the same box. Set, not modified in
    /// place: a `_modify` that yields a box's field keeps an access open that the runtime must track (its
    /// exclusivity checks cost more than the copies saved).
    private final class Storage: @unchecked Sendable {
        var type: UTType
        var source: Source
        var mimeType: String?
        var isConclusive: Bool
        var detail: String
        var score: Double?
        var isResemblance: Bool

        init(type: UTType, source: Source, mimeType: String?, isConclusive: Bool, detail: String, score: Double?, isResemblance: Bool) {
            self.type = type
            self.source = source
            self.mimeType = mimeType
            self.isConclusive = isConclusive
            self.detail = detail
            self.score = score
            self.isResemblance = isResemblance
        }

        func copy() -> Storage {
            Storage(type: type, source: source, mimeType: mimeType, isConclusive: isConclusive, detail: detail, score: score,
                    isResemblance: isResemblance)
        }
    }
    private var storage: Storage

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Equal when every field is (the same box, first, without comparing them).
    public static func == (lhs: ContentEvidence, rhs: ContentEvidence) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (l, r) = (lhs.storage, rhs.storage)
        return l.type == r.type && l.source == r.source && l.mimeType == r.mimeType && l.isConclusive == r.isConclusive
            && l.detail == r.detail && l.score == r.score && l.isResemblance == r.isResemblance
    }

    /// Hashes every field `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.type)
        hasher.combine(storage.source)
        hasher.combine(storage.mimeType)
        hasher.combine(storage.isConclusive)
        hasher.combine(storage.detail)
        hasher.combine(storage.score)
        hasher.combine(storage.isResemblance)
    }

    /// The readers of content; new readers may be added.
    public struct Source: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The reader's name, as shown in reports and JSON (`shared-mime-info`).
        public let rawValue: String
        /// Creates a reader from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The reader's name.
        public var description: String { rawValue }

        /// `lstat`: directories, links, FIFOs, sockets, devices, empty files.
        public static let fileSystem = Source(rawValue: "file-system")
        /// A built-in signature (PNG, PDF, ELF ...).
        public static let signature = Source(rawValue: "signature")
        /// A container's entries (ZIP, OLE2).
        public static let container = Source(rawValue: "container")
        /// shared-mime-info's magic.
        public static let freedesktopMagic = Source(rawValue: "shared-mime-info")
        /// Text or binary, from the bytes alone.
        public static let bytes = Source(rawValue: "bytes")
        /// The text itself: `#!` lines, XML roots, formats that announce themselves.
        public static let text = Source(rawValue: "text")
        /// libmagic.
        public static let libmagic = Source(rawValue: "libmagic")
        /// Magika's model (`MagikaModel`), for text nothing else names.
        public static let model = Source(rawValue: "model")
        /// PRONOM's signatures (DROID's internal or container signatures), when asked for
        /// (`FileIdentifier.Options.pronom`): a format's version within the type the other readers found.
        public static let pronom = Source(rawValue: "pronom")
    }

    /// Content evidence; each argument sets the property of the same name.
    public init(type: UTType, source: Source, mimeType: String? = nil, isConclusive: Bool, detail: String, score: Double? = nil) {
        storage = Storage(type: type, source: source, mimeType: mimeType, isConclusive: isConclusive, detail: detail, score: score,
                          isResemblance: false)
    }
}

/// A text encoding, as told by a byte-order mark or by validating the bytes, named as `file --mime-encoding`
/// names it; new encodings may be added.
public struct TextEncoding: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The encoding's name, as shown in reports and JSON, and as `file --mime-encoding` prints it (`utf-8`).
    public let rawValue: String
    /// Creates an encoding from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The encoding's name.
    public var description: String { rawValue }

    /// ASCII: no byte above 0x7F, and no byte-order mark.
    public static let ascii = TextEncoding(rawValue: "us-ascii")
    /// UTF-8: valid UTF-8 with bytes above 0x7F, or a UTF-8 byte-order mark.
    public static let utf8 = TextEncoding(rawValue: "utf-8")
    /// UTF-16, little-endian.
    public static let utf16LittleEndian = TextEncoding(rawValue: "utf-16le")
    /// UTF-16, big-endian.
    public static let utf16BigEndian = TextEncoding(rawValue: "utf-16be")
    /// UTF-32, little-endian.
    public static let utf32LittleEndian = TextEncoding(rawValue: "utf-32le")
    /// UTF-32, big-endian.
    public static let utf32BigEndian = TextEncoding(rawValue: "utf-32be")
    /// Eight-bit text that is not UTF-8 (ISO 8859, Windows code pages).
    public static let eightBit = TextEncoding(rawValue: "unknown-8bit")
    /// ISO-2022-KR (RFC 1557): Korean in seven bits, shifted in and out with SO and SI.
    public static let iso2022KR = TextEncoding(rawValue: "iso-2022-kr")
    /// ISO-2022-CN (RFC 1922): Chinese in seven bits, shifted in and out with SO and SI.
    public static let iso2022CN = TextEncoding(rawValue: "iso-2022-cn")

    /// What the bytes' reading says of text in this encoding (`utf-8 text`): a constant for the encodings above,
    /// not a string made for every file.
    var textDetail: String {
        switch rawValue {
        case "us-ascii": "us-ascii text"
        case "utf-8": "utf-8 text"
        case "unknown-8bit": "unknown-8bit text"
        case "utf-16le": "utf-16le text"
        case "utf-16be": "utf-16be text"
        case "utf-32le": "utf-32le text"
        case "utf-32be": "utf-32be text"
        default: "\(rawValue) text"
        }
    }
}
