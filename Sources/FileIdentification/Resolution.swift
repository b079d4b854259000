internal import UniformTypeIdentifiers

/// How name and content evidence become one type: freedesktop's recommended order, with conformance.
///
/// 1. The name proposes candidates (whole name, multi-dot suffix, extension, pattern).
/// 2. A candidate that is the content's type, or a more specific kind of it, wins: `x.docx` read as
///    ZIP is a Word document, `notes.md` read as plain text is Markdown.
/// 3. Content that is a more specific kind of a candidate wins: `data.txt` holding a `#!` script.
/// 4. Conclusive content (a signature, a container's entries, a `#!` line) overrules a name that says
///    otherwise, and the answer is flagged as a mismatch: an ELF file named `.txt` is an ELF file.
/// 5. Inconclusive content (plain text, unrecognised binary, a heuristic) leaves the name standing, as
///    in freedesktop's order, but where the extension itself names no format: one that formats of
///    different families share (`key`, `mod`, `bin`) does not make text a binary format (a PEM key named
///    `.key`, Jetty's text `.mod` files), and one that only libmagic's lists of extensions seen give a
///    type (`dat`, `msg`) names it only when the bytes meet its rules (Java's `tzdb.dat` is no Inno
///    Setup file, Tcl's `.msg` files no Inno Setup messages). Binary bytes contradict a name promising
///    plain text. The name set aside, the answer is what the content reads as, flagged as a mismatch
///    with the reason in the evidence.
/// 6. No name: the content decides; with nothing conclusive, text or binary chooses between
///    `public.plain-text` and `public.data`.
enum Resolution {
    static func fileSystem(_ type: UTType, detail: String, name: NameEvidence?) -> Identification {
        Identification(
            type: type,
            evidence: Evidence(name: name, content: ContentEvidence(type: type, source: .fileSystem, isConclusive: true, detail: detail), rule: .fileSystem),
            confidence: .high, isMismatch: false, textEncoding: nil)
    }

    static func empty(name: NameEvidence?) -> Identification {
        let emptyType = KnownTypes.emptyFile
        let content = ContentEvidence(type: emptyType, source: .fileSystem, isConclusive: false, detail: "empty file")
        // An empty file is what its name says it will be, and empty; with no name, an empty document.
        let type = name?.candidates.first ?? emptyType
        return Identification(type: type, evidence: Evidence(name: name, content: content, rule: .empty),
                              confidence: .low, isMismatch: false, textEncoding: nil)
    }

    /// By name alone: the best candidate, or the dynamic type of an extension nobody declares.
    static func byNameOnly(_ name: NameEvidence?, filename: String) -> Identification {
        if let name, let best = name.candidates.first {
            return Identification(type: best, evidence: Evidence(name: name, content: nil, rule: .nameOnly),
                                  confidence: .medium, isMismatch: false, textEncoding: nil)
        }
        let type = UTType.filenameExtension(ofPath: filename).flatMap { UTType(filenameExtension: $0) } ?? .data
        return Identification(type: type, evidence: Evidence(name: name, content: nil, rule: .nameOnly),
                              confidence: .low, isMismatch: false, textEncoding: nil)
    }

    /// One type from the name's candidates and the content's readings (conclusive ones first).
    static func resolve(name: NameEvidence?, readings: [ContentEvidence], encoding: TextEncoding?) -> Identification {
        let candidates = name?.candidates ?? []
        guard !readings.isEmpty else {
            return byNameOnly(name, filename: name?.filename ?? "")
        }
        func answer(_ type: UTType, _ rule: Evidence.Rule, _ confidence: Identification.Confidence,
                    by reading: ContentEvidence, mismatch: Bool = false, overruled: String? = nil) -> Identification {
            Identification(type: type,
                           evidence: Evidence(name: name, content: reading, otherReadings: readings.filter { $0 != reading }, rule: rule,
                                              nameOverruled: overruled),
                           confidence: confidence, isMismatch: mismatch, textEncoding: encoding)
        }
        // A generic reading gives way to a specific one that conforms to it: an OLE2 container to the
        // StarCalc document freedesktop's magic finds inside, XML to the property list it holds.
        // The specific reading keeps the generic one's authority: a ZIP proven by its directory and
        // named more precisely by a weaker rule is that precise format, proven.
        // A suggestion cannot displace a proof, though, unless what was proved is only a container or an
        // encoding (a ZIP, gzip, XML): a #! line saying shell script stands against a pattern saying Perl.
        let specific: [ContentEvidence] = readings.compactMap { reading in
            let generalizations = readings.filter { $0.type != reading.type && reading.type.isKind(of: $0.type) }
            let displaced = readings.contains { other in
                other.type != reading.type && other.type.isKind(of: reading.type)
                    && (other.isConclusive || !reading.isConclusive || isContainer(reading.type))
            }
            if displaced { return nil }
            var kept = reading
            if !kept.isConclusive, generalizations.contains(where: { $0.isConclusive && isContainer($0.type) }) { kept.isConclusive = true }
            return kept
        }
        let conclusive = specific.filter(\.isConclusive)
        // With conclusive readings, the name must agree with one of them; otherwise with any reading.
        let considered = conclusive.isEmpty ? specific : conclusive
        let primary = considered.first ?? readings[0]
        // First a candidate that is a reading's type or a subtype of it, then one that refines a reading
        // only in the looser senses (any text format is text, any binary format is data).
        // In the strict pass any specific reading counts, conclusive or not: a name and a reader that
        // agree on a format (a .kpt file freedesktop's magic calls KPresenter) outweigh a proof of the
        // container it comes in (gzip).
        // In the strict pass the most specific reading a candidate matches wins, and the candidate that
        // is that reading's type: x.png read as PNG by its signature and as animated PNG by its chunks is
        // an animated PNG; an .awk file whose #! line says awk is an AWK script, not its GNU dialect.
        var agreement: (candidate: UTType, reading: ContentEvidence)?
        // A first candidate the text's own heuristics chose (a manual page among Roff files) stands when it
        // agrees with a reading.
        if name?.decidedBy != nil, let chosen = candidates.first,
           let reading = specific.first(where: { $0.source != .bytes && NameAgreement.of(chosen, with: $0) == .strict }) {
            return answer(chosen, .nameRefinesContent, reading.isConclusive ? .high : .medium, by: reading)
        }
        for candidate in candidates {
            for reading in specific where reading.source != .bytes && NameAgreement.of(candidate, with: reading) == .strict {
                guard let current = agreement else { agreement = (candidate, reading); continue }
                let moreSpecific = reading.type != current.reading.type && reading.type.isKind(of: current.reading.type)
                let exact = reading.type == current.reading.type && candidate == reading.type && current.candidate != reading.type
                if moreSpecific || exact { agreement = (candidate, reading) }
            }
        }
        if let agreement {
            return answer(agreement.candidate, .nameRefinesContent, agreement.reading.isConclusive ? .high : .medium, by: agreement.reading)
        }
        // The looser senses, where the bytes could be the candidate's: not for a binary format that only
        // libmagic's lists of extensions seen give the extension, which it names only when the bytes meet
        // its rules (the strict pass above).
        let extensionKinds = name.map { $0.match == .filenameExtension ? MediaTypeNames.extensionKinds($0.tag) : [] } ?? []
        let weakName = extensionKinds.contains(.libmagicOnly)
        for candidate in candidates where !weakName || candidate.isKind(of: .text) {
            if let reading = considered.first(where: { NameAgreement.of(candidate, with: $0) != .none }) {
                return answer(candidate, .nameRefinesContent, reading.isConclusive ? .high : .medium, by: reading)
            }
        }
        for reading in considered {
            if candidates.contains(where: { reading.type.isKind(of: $0) }) {
                return answer(reading.type, .contentRefinesName, reading.isConclusive ? .high : .medium, by: reading)
            }
        }
        if let best = candidates.first {
            if primary.isConclusive {
                return answer(primary.type, .contentOverrulesName, .high, by: primary, mismatch: true)
            }
            // The name's formats cannot be these bytes: text under binary formats' names, binary bytes under
            // text formats' names, or bytes that fail the rules of every binary format named. The content
            // says what they are.
            let named = candidates.prefix(3).map(\.identifier).joined(separator: ", ")
            let tag = name?.tag ?? ""
            if weakName, !candidates.contains(where: { $0.isKind(of: .text) }) {
                return answer(primary.type, .contentOverrulesName, .medium, by: primary, mismatch: true,
                              overruled: "only libmagic's lists of extensions seen give .\(tag) to \(named), and the bytes do not meet \(candidates.count == 1 ? "its" : "their") rules")
            }
            if encoding != nil, extensionKinds.contains(.shared), !candidates.contains(where: { $0.isKind(of: .text) }) {
                return answer(primary.type, .contentOverrulesName, .medium, by: primary, mismatch: true,
                              overruled: "formats of different kinds share the extension .\(tag), and the bytes are text, which none the name offers (\(named)) is")
            }
            // Binary bytes under text formats' names that a reader names as a binary format: that format
            // (an EFI disk image named `.gpt`, which Gerber's text also uses).
            if encoding == nil, candidates.allSatisfy({ $0.isKind(of: .text) }),
               let other = considered.first(where: { $0.source != .bytes && !$0.type.isKind(of: .text) }) {
                return answer(other.type, .contentOverrulesName, .medium, by: other, mismatch: true,
                              overruled: "the name's \(named) \(candidates.count == 1 ? "is a text format" : "are text formats"), and the bytes are not text: they read as \(other.type.identifier)")
            }
            // Binary bytes under a name that promises plain text: the name is wrong. A name promising a
            // text format stands, as in freedesktop's order: such formats may hold binary bytes (an
            // encoded VBScript, G-code with an embedded thumbnail).
            if encoding == nil, candidates.allSatisfy({ $0 == .plainText }) {
                return answer(primary.type, .contentOverrulesName, .medium, by: primary, mismatch: true,
                              overruled: "the name promises plain text, and the bytes are not text")
            }
            return answer(best, .nameOnly, encoding != nil && !best.isKind(of: .text) ? .low : .medium, by: primary)
        }
        if primary.type == .plainText || primary.type == .data {
            return answer(primary.type, .textOrBinary, .low, by: primary)
        }
        return answer(primary.type, .contentOnly, primary.isConclusive ? .high : .medium, by: primary)
    }

    /// Types that say how bytes are packed rather than what they are: a proof of one of these leaves the
    /// format inside open.
    static func isContainer(_ type: UTType) -> Bool {
        let containers: [UTType] = [.zip, .gzip, .bz2, .data, .plainText, .text, .xml, .json]
        return containers.contains(type) || [KnownTypes.oleStorage, KnownTypes.xz, KnownTypes.zstandard, KnownTypes.sevenZip].contains(type)
    }

    /// Languages, which may hold or start like others: source code, scripts, markup.
    static func nests(_ type: UTType) -> Bool {
        type.isKind(of: .sourceCode) || type.isKind(of: .script) || type.isKind(of: .xml) || type.isKind(of: .html)
    }

    /// Whether the name's type `candidate` is the content's type or a more specific kind of it, in the
    /// strict sense or the looser ones below; see `NameAgreement`.
    static func refines(_ candidate: UTType, _ content: ContentEvidence) -> Bool {
        let type = content.type
        // Text or binary, from the bytes alone: any text format is text, any other format is data.
        if content.source == .bytes {
            return type == .data ? !candidate.isKind(of: .text) : candidate.isKind(of: .text)
        }
        if candidate.isKind(of: type) { return true }
        // Text formats nest (PHP holds HTML, a Python file may start with #!python3): when the content
        // is text of any kind, a name that promises a text format says more than the bytes can. A name
        // that promises only plain text (.txt) says less than any format the content shows.
        // Only languages nest, though: a format its first line declares that is no language (a PGP key
        // block, a certificate, a vCard) is that format under any other text format's name (a PGP key
        // named `.pub`, which names an SSH key).
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
