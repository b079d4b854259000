internal import UniformTypeIdentifiers

/// How a type the name proposes stands to what a reader of the content found: the one rule for "the name
/// agrees with the content", used both to stop reading early (`FileIdentifier`'s readers) and to resolve
/// (`Resolution`). It depends on the types and the reading alone: no rule of the resolver's.
enum NameAgreement: Hashable {
    /// The candidate is the reading's type or a more specific kind of it (`x.docx` read as ZIP).
    case strict
    /// The candidate refines the reading only in a looser sense: a text format over text, a non-text
    /// format over unrecognised binary, a ZIP- or OLE2-based format over a container the entries did not
    /// single out, a structured-syntax suffix (`+xml`) over its base format.
    case loose
    /// The name says something else.
    case none

    static func of(_ candidate: UTType, with reading: ContentEvidence) -> NameAgreement {
        if reading.source != .bytes && candidate.isKind(of: reading.type) { return .strict }
        return refines(candidate, reading) ? .loose : .none
    }

    /// Whether a reading settles the question, so that no slower reader need be asked: it is conclusive,
    /// and there is no name, or a candidate is exactly what it proves, or the name agrees with it in
    /// exactly one way. Not when several candidates are kinds of it: a compound file named `.smf` may be
    /// StarMath 3 or 5, an ELF program named `.AppImage` one of two AppImage formats, and the rules that
    /// tell those apart are freedesktop's.
    static func settles(_ candidates: [UTType], _ reading: ContentEvidence) -> Bool {
        reading.isConclusive
            && (candidates.isEmpty || candidates.contains(reading.type)
                || candidates.count(where: { of($0, with: reading) != .none }) == 1)
    }

    /// Languages, which may hold or start like others: source code, scripts, markup.
    private static func nests(_ type: UTType) -> Bool {
        type.isKind(of: .sourceCode) || type.isKind(of: .script) || type.isKind(of: .xml) || type.isKind(of: .html)
    }

    /// Whether the name's type `candidate` is the content's type or a more specific kind of it, in the
    /// strict sense or the looser ones below.
    private static func refines(_ candidate: UTType, _ content: ContentEvidence) -> Bool {
        let type = content.type
        // Text or binary, from the bytes alone: any text format is text, any other format is data.
        if content.source == .bytes {
            return type == .data ? FormatFacts.canBeBinary(candidate) : FormatFacts.canBeText(candidate)
        }
        if candidate.isKind(of: type) { return true }
        // Text formats nest (PHP holds HTML, a Python file may start with #!python3): when the content
        // is text of any kind, a name that promises a text format says more than the bytes can. A name
        // that promises only plain text (.txt) says less than any format the content shows.
        // Only languages nest, though: a format its first line declares that is no language (a PGP key
        // block, a certificate, a vCard) is that format under any other text format's name.
        if candidate.isKind(of: .text) && candidate != .plainText && (type.isKind(of: .text) || content.source == .text)
            && (!content.isConclusive || nests(candidate) || nests(type)) { return true }
        // A container's generic type: a ZIP- or OLE2-based format the entries did not single out.
        if content.source == .container {
            if type.isKind(of: .zip) || type == .zip { return candidate.isKind(of: .zip) }
            if type.isKind(of: KnownTypes.oleStorage) { return candidate.isKind(of: KnownTypes.oleStorage) }
        }
        // Structured-syntax suffixes (RFC 6839): image/svg+xml is XML, application/ld+json is JSON.
        let suffixes: [(suffix: String, base: UTType)] = [("+xml", .xml), ("+json", .json), ("+zip", .zip)]
        for (suffix, base) in suffixes where type == base {
            if candidate.tags(of: .mimeType).contains(where: { $0.hasSuffix(suffix) }) { return true }
        }
        return false
    }
}
