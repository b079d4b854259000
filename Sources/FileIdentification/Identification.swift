public import UniformTypeIdentifiers

/// What a file is, and why: the answer of `FileIdentifier`.
public struct Identification: Sendable, Hashable {
    /// The type the evidence settles on.
    public var type: UTType
    /// What the name and the content said, and which rule decided.
    public var evidence: Evidence
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

    /// The MIME type to report on Linux: for a type the name proposed, the one of its MIME types whose
    /// shared-mime-info glob matches the name; else the one the deciding reader named, when it named this
    /// type and shared-mime-info knows it as a type; else the type's first MIME type that the system's
    /// shared-mime-info database knows as a type of its own (what desktop applications expect), else
    /// `type.preferredMIMEType`; for a type with none, `inode/directory`, `inode/symlink`, `text/plain`
    /// or `application/octet-stream`, as it conforms.
    public var mimeType: String {
        let mimeTypes = type.tags[.mimeType] ?? []
        if let name = evidence.name, name.candidates.contains(type),
           let mime = LinuxMIMETypes.globbed(among: mimeTypes, filename: name.filename) {
            return mime
        }
        if let content = evidence.content, content.type == type, let mime = content.mimeType,
           LinuxMIMETypes.isKnown(mime) {
            return mime
        }
        if let mime = LinuxMIMETypes.preferred(among: mimeTypes) { return mime }
        // A type with no MIME type of its own: what it is at heart, as file(1) would say.
        let fallbacks: [(UTType, String)] = [
            (.folder, "inode/directory"), (.directory, "inode/directory"), (.symbolicLink, "inode/symlink"),
            (.text, "text/plain"), (.data, "application/octet-stream"),
        ]
        return fallbacks.first { type.conforms(to: $0.0) }?.1 ?? "application/octet-stream"
    }

    public init(type: UTType, evidence: Evidence, confidence: Confidence, isMismatch: Bool, textEncoding: TextEncoding?) {
        self.type = type
        self.evidence = evidence
        self.confidence = confidence
        self.isMismatch = isMismatch
        self.textEncoding = textEncoding
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

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }
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

    public init(name: NameEvidence?, content: ContentEvidence?, otherReadings: [ContentEvidence] = [], rule: Rule) {
        self.name = name
        self.content = content
        self.otherReadings = otherReadings
        self.rule = rule
    }

    /// The rules of resolution, in the order they are tried.
    public enum Rule: String, Sendable, Hashable {
        /// The file system decided: a directory, bundle, link, FIFO, socket or device.
        case fileSystem = "file-system"
        /// The file is empty.
        case empty
        /// The name's type is the content's type or a more specific kind of it (`x.docx` read as ZIP).
        case nameRefinesContent = "name-refines-content"
        /// The content's type is a more specific kind of the name's (`data.txt` holding JSON).
        case contentRefinesName = "content-refines-name"
        /// Conclusive content overrules a name that says otherwise (an ELF file named `.txt`).
        case contentOverrulesName = "content-overrules-name"
        /// No name evidence, or names that conflict: the content decided.
        case contentOnly = "content-only"
        /// The content was inconclusive; the name decided.
        case nameOnly = "name-only"
        /// Nothing conclusive: text or binary decided between `public.plain-text` and `public.data`.
        case textOrBinary = "text-or-binary"
    }
}

/// What the file name says.
public struct NameEvidence: Sendable, Hashable {
    /// The last path component.
    public var filename: String
    /// What matched: the whole name, a multi-dot suffix (`tar.gz`), the extension or a pattern.
    public var match: Match
    /// The tag that matched (`tar.gz`, `jpg`, `Makefile`).
    public var tag: String
    /// The declared types claiming it, best first.
    public var candidates: [UTType]

    public enum Match: String, Sendable, Hashable {
        case filename, suffix, filenameExtension = "extension", pattern
    }

    public init(filename: String, match: Match, tag: String, candidates: [UTType]) {
        self.filename = filename
        self.match = match
        self.tag = tag
        self.candidates = candidates
    }
}

/// What the content says.
public struct ContentEvidence: Sendable, Hashable {
    /// The type the content shows.
    public var type: UTType
    /// Which reader said so.
    public var source: Source
    /// The MIME type the reader named, when it names types that way (freedesktop magic, libmagic).
    public var mimeType: String?
    /// Whether it proves the type (a signature, a container's entries, a `#!` line) rather than
    /// suggesting it (plain text, unrecognised binary, a text heuristic).
    public var isConclusive: Bool
    /// What was seen: `ZIP entry word/document.xml`, `#!/usr/bin/python3`, `libmagic: image/png`.
    public var detail: String

    public enum Source: String, Sendable, Hashable {
        case fileSystem = "file-system"
        case signature
        case container
        case freedesktopMagic = "shared-mime-info"
        /// Text or binary, from the bytes alone.
        case bytes
        case text
        case libmagic
    }

    public init(type: UTType, source: Source, mimeType: String? = nil, isConclusive: Bool, detail: String) {
        self.type = type
        self.source = source
        self.mimeType = mimeType
        self.isConclusive = isConclusive
        self.detail = detail
    }
}

/// A text encoding, as told by a byte-order mark or by validating the bytes.
public enum TextEncoding: String, Sendable, Hashable {
    case ascii = "us-ascii"
    case utf8 = "utf-8"
    case utf16LittleEndian = "utf-16le"
    case utf16BigEndian = "utf-16be"
    case utf32LittleEndian = "utf-32le"
    case utf32BigEndian = "utf-32be"
    /// Eight-bit text that is not UTF-8 (ISO 8859, Windows code pages).
    case eightBit = "unknown-8bit"
}
