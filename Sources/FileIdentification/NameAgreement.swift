internal import UniformTypeIdentifiers

/// How a type the name proposes stands to what a reader of the content found: the one rule for "the name
/// agrees with the content", used both to stop reading early and to resolve.
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
        return Resolution.refines(candidate, reading) ? .loose : .none
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
}
