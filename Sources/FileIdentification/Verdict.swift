internal import UniformTypeIdentifiers
internal import Synchronization

/// What one reader of the content says a file is: a declared type, the MIME type the reader named it by
/// (when it names formats that way), and what it saw.
///
/// Readers that name formats by MIME type (shared-mime-info's magic, libmagic, a ZIP's `mimetype` entry)
/// make a verdict with `init?(mimeType:detail:)`, which finds the declared type claiming that name; a name
/// no declared type claims is no verdict at all. Readers that know the type make one with `init(type:detail:)`.
struct Verdict: Sendable, Hashable {
    var type: UTType
    /// The reader's own name for the format, kept for the report (`x.sdc` is `application/vnd.stardivision.calc`
    /// among the names of its type); `nil` when the reader named the type directly.
    var mimeType: String?
    /// What the reader saw: `ZIP entry word/document.xml`, `#!/usr/bin/python3`, `libmagic: image/png`.
    var detail: String

    init(type: UTType, mimeType: String? = nil, detail: String) {
        self.type = type
        self.mimeType = mimeType
        self.detail = detail
    }

    /// The verdict naming `mimeType`, or `nil` when no declared type claims it.
    init?(mimeType: String, detail: String) {
        guard let type = Self.declaredType(claiming: mimeType) else { return nil }
        self.type = type
        self.mimeType = mimeType
        self.detail = detail
    }

    /// The declared type that claims `mimeType` first, looked up once per name while the database is
    /// unchanged: the readers name a few hundred formats, thousands of times in a classification.
    private static func declaredType(claiming mimeType: String) -> UTType? {
        let generation = TypeDatabase.shared.generation
        if let known = claimants.withLock({ $0.generation == generation ? $0.types[mimeType] : nil }) { return known }
        let type = TypeDatabase.shared.declaredTypes(tag: mimeType, tagClass: .mimeType).first
        claimants.withLock { cache in
            if cache.generation != generation { cache = (generation, [:]) }
            // Bounded: the readers' names are a fixed set, but libmagic's come from a file's bytes' rules.
            if cache.types.count < 4_096 { cache.types[mimeType] = .some(type) }
        }
        return type
    }

    private static let claimants = Mutex<(generation: Int, types: [String: UTType?])>((0, [:]))
}
