internal import UniformTypeIdentifiers

/// How name and content evidence become one type: every rule, in the order of the table in the Identification
/// article ("The rules"), each step below marked with its row. The readers only report (`FileIdentifier`'s
/// `read`); whether a candidate agrees with a reading is `NameAgreement`'s; the MIME name is chosen after this,
/// in one step (`SharedMIMEInfo.reportedMIMEType`).
///
/// 1. Not a regular file: its kind (`fileSystem`, `directory`). 2. No bytes: `empty`.
/// 3. Readings that cannot count are set aside: a text format's reading of bytes that are not text, a
///    resemblance that confirms nothing the name names. 4. No reading left: the name alone (`byNameOnly`).
/// 5. No name: the content alone (`contentAlone`).
/// 6. The bytes rule out what they cannot be (`ruledOut`). 7. Nothing the name offers is left: the content,
///    a mismatch when the name promised a format.
/// 8. to 11. What is left of the name and the readings agree (`agreement`): the name refines the content,
///    the content refines the name, a proof the name could be stands without a lie, or the name stands.
/// 12. Magika's model, when asked, for text still plain under a name that names nothing (`asksModel`).
enum Resolution {
    static func fileSystem(_ type: UTType, detail: String, name: NameEvidence?) -> Identification {
        Identification(
            type: type,
            evidence: Evidence(name: name, content: ContentEvidence(type: type, source: .fileSystem, isConclusive: true, detail: detail), rule: .fileSystem),
            confidence: .high, isMismatch: false, textEncoding: nil)
    }

    /// A directory: a volume when it is a mount point, the package or bundle its extension names (`X.app`,
    /// `.bundle`, `.framework`, `.rtfd`), otherwise a folder. (Its kind bounds its type as a regular file's
    /// does: `ruledOut` keeps every directory type from a regular file.)
    static func directory(name: NameEvidence?, isMountPoint: Bool) -> Identification {
        if isMountPoint { return fileSystem(.volume, detail: "mount point", name: name) }
        if let name, name.match == .filenameExtension,
           let package = name.candidates.first(where: { $0.conforms(to: .package) || $0.conforms(to: .bundle) }) {
            return fileSystem(package, detail: "directory named .\(name.tag)", name: name)
        }
        return fileSystem(.folder, detail: "directory", name: name)
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

    /// One type from the name's candidates and the content's readings (conclusive ones first): the rules of
    /// the Identification article's table, in its order.
    ///
    /// The name proposes; the bytes rule out what they cannot be (`ruledOut`); what is left of the name then
    /// agrees with the content, refines it or is refined by it, or stands where the content cannot speak to it.
    /// When the bytes rule out every type the name offers, the answer is what the bytes read as, and it is a
    /// mismatch when the name is one that promises a format (an extension or a multi-dot suffix naming a
    /// format a regular file could be; not a pattern like `*.[1-9]` nor a whole file name like `login`,
    /// which many formats share).
    ///
    /// Last, Magika's `model` (when it is asked for) reads what is left plain text under a name that names
    /// nothing (`asksModel`).
    static func resolve(name: NameEvidence?, readings: [ContentEvidence], encoding: TextEncoding?, provenBinary: Bool,
                        model: (() throws(IdentificationError.Reason) -> ContentEvidence?)?) throws(IdentificationError.Reason) -> Identification {
        let answer = resolve(name: name, readings: readings, encoding: encoding, provenBinary: provenBinary)
        guard let model, asksModel(answer), let reading = try model() else { return answer }
        return withModel(answer, reading)
    }

    /// Whether Magika's model is asked about bytes resolved as `identification`: text every reader left plain,
    /// under a name that names nothing. (The model's reader itself leaves a `#!` line alone.)
    static func asksModel(_ identification: Identification) -> Bool {
        identification.type == .plainText && identification.textEncoding != nil
            && identification.evidence.name?.candidates.isEmpty ?? true
    }

    /// The answer when the model names the text: its reading first, the others kept.
    static func withModel(_ identification: Identification, _ reading: ContentEvidence) -> Identification {
        var evidence = identification.evidence
        evidence.otherReadings = ([evidence.content].compactMap { $0 }) + evidence.otherReadings
        evidence.content = reading
        evidence.rule = .contentOnly
        var answer = Identification(type: reading.type, evidence: evidence, confidence: .medium, isMismatch: identification.isMismatch,
                                    textEncoding: identification.textEncoding)
        answer.fileSize = identification.fileSize
        return answer
    }

    static func resolve(name: NameEvidence?, readings: [ContentEvidence], encoding: TextEncoding?, provenBinary: Bool = true) -> Identification {
        // 3. Readings of text formats in bytes that are not text are no readings, unless the name names that
        // format and shared-mime-info's own rules found it (text formats that hold binary bytes: an encoded
        // VBScript, G-code with an embedded thumbnail).
        // A resemblance (shared-mime-info's rule for a file that starts with `//`, `class` or `def`) may confirm a
        // text format the name names, never name one alone.
        let named = name?.candidates ?? []
        let counts = { (reading: ContentEvidence) -> Bool in
            (encoding != nil || reading.source == .container || reading.source == .signature || !reading.type.isKind(of: .text)
                || (reading.source == .freedesktopMagic && named.contains { $0.isKind(of: reading.type) }))
                && !(reading.isResemblance && reading.type.isKind(of: .text) && !named.contains { $0.isKind(of: reading.type) })
        }
        // Nearly always every reading counts: then the array is kept as it is, nothing copied.
        let readings = readings.allSatisfy(counts) ? readings : readings.filter(counts)
        // 4. Nothing read: the name alone. 5. No name: the content alone.
        guard !readings.isEmpty else { return byNameOnly(name, filename: name?.filename ?? "") }
        guard var name, !name.candidates.isEmpty else { return contentAlone(name: name, readings: readings, encoding: encoding) }
        // 6. The bytes against each type the name offers.
        var standing: [UTType] = []
        var reasons: [String] = []
        for candidate in name.candidates {
            if let reason = ruledOut(candidate, by: readings, encoding: encoding, provenBinary: provenBinary, name: name) {
                reasons.append(reason)
            } else {
                standing.append(candidate)
            }
        }
        if standing.isEmpty {
            // 7. Nothing the name offers can be these bytes: they are what they read as.
            let primary = considered(readings).first ?? readings[0]
            let claimed = name.candidates.prefix(3).map(\.identifier).joined(separator: ", ")
            // A lie needs a claim: an extension or suffix (not a pattern, nor a whole name many formats share)
            // that names some format a regular file could be (a directory type alone, `x.dist` for an
            // installer's bundle, says nothing of a regular file's bytes).
            // Nor an extension that another source gives a format of the kind these bytes are (text named `.mod`,
            // which Jetty's modules are, where the database has only tracker modules).
            // Nor one that only libmagic's lists of extensions seen give a format (`.dat`), nor one whose first
            // sense is a package (`x.template`, `x.key`), which says nothing sure of a regular file's bytes.
            // Nor, for binary bytes, an extension that names binary data of any kind (`.bin`).
            let elsewhere = name.match == .filenameExtension ? MediaTypeNames.extensionKinds(name.tag) : []
            let claimedElsewhere = encoding == nil ? !elsewhere.isDisjoint(with: [.binaryElsewhere, .anyBinary]) : elsewhere.contains(.textElsewhere)
            let promises = (name.match == .filenameExtension || name.match == .suffix) && !name.candidates[0].conforms(to: .directory)
                && !claimedElsewhere && !elsewhere.contains(.libmagicOnly)
            var answer = contentAlone(name: name, readings: readings, encoding: encoding)
            answer.evidence.rule = .contentOverrulesName
            answer.evidence.nameOverruled = "the name's \(claimed) cannot be these bytes: " + Array(Set(reasons)).sorted().joined(separator: "; ")
            answer.isMismatch = promises
            if answer.confidence == .low { answer.confidence = primary.isConclusive ? .high : .medium }
            return answer
        }
        // 8 to 11: what is left of the name against the readings.
        let offered = name.candidates
        // `standing` is `offered` less what was ruled out: the same when as long (and the evidence then not changed).
        if standing.count != offered.count { name.candidates = standing }
        var answer = agreement(name: name, readings: readings, encoding: encoding)
        if standing.count != offered.count { answer.evidence.name?.candidates = offered }
        if !reasons.isEmpty, answer.evidence.rule != .nameRefinesContent, answer.evidence.rule != .contentRefinesName {
            answer.evidence.nameOverruled = [answer.evidence.nameOverruled, Array(Set(reasons)).sorted().joined(separator: "; ")]
                .compactMap { $0 }.joined(separator: "; ")
        }
        return answer
    }

    /// Why the bytes cannot be `candidate`, `nil` when they can:
    /// - text (in a Unicode encoding) rules out a format whose files are never text, binary bytes (a NUL, or
    ///   control characters more than one in ten: `TextAnalysis.isProvenBinary`) one whose files are always
    ///   text (`FormatFacts`), unless a reader found that very format;
    /// - a format whose every file carries a signature the readers check is ruled out when no reader found it;
    /// - a binary format that only libmagic's lists of extensions give the extension (`.dat`), when libmagic's
    ///   rules for it did not hold;
    /// - a text format, by a conclusive reading of something else (a `#!` line naming another language).
    /// A binary format without a signature (raw audio, a game's data) cannot be ruled out by bytes: any bytes
    /// may be one.
    static func ruledOut(_ candidate: UTType, by readings: [ContentEvidence], encoding: TextEncoding?, provenBinary: Bool,
                         name: NameEvidence) -> String? {
        // A file's kind bounds its type: these bytes are a regular file's.
        if candidate.conforms(to: .directory) { return "\(candidate.identifier) is a directory type (a package or bundle), and this is a regular file" }
        let found = readings.contains { $0.source != .bytes && (NameAgreement.of(candidate, with: $0) == .strict || $0.type.isKind(of: candidate)) }
        if found { return nil }
        let canBeText = FormatFacts.canBeText(candidate), canBeBinary = FormatFacts.canBeBinary(candidate)
        // Text proves itself in a Unicode encoding; bytes that pass only as some 8-bit text (a CBOR file of
        // strings) rule nothing out.
        if encoding != nil && encoding != .eightBit && !canBeText { return "the bytes are text, which \(candidate.identifier) is not" }
        if encoding == nil && provenBinary && !canBeBinary { return "the bytes are not text, which \(candidate.identifier) is" }
        // A reading that agrees with the name in any sense proves the signature (a ZIP container whose entries
        // name another ZIP-based format than the name's still has the ZIP's).
        if FormatFacts.requiresSignature(candidate), !readings.contains(where: { $0.source != .bytes && NameAgreement.of(candidate, with: $0) != .none }) {
            return "every \(candidate.identifier) file has its signature, and these bytes do not"
        }
        if name.match == .filenameExtension, !canBeText, MediaTypeNames.extensionKinds(name.tag).contains(.libmagicOnly) {
            return "only libmagic's lists of extensions seen give .\(name.tag) to \(candidate.identifier), and the bytes do not meet its rules"
        }
        if canBeText, !canBeBinary || encoding != nil, candidate != .plainText, candidate != .text,
           !readings.contains(where: { $0.source != .bytes && NameAgreement.of(candidate, with: $0) != .none }),
           let proof = readings.first(where: { $0.isConclusive && $0.source != .bytes && !isContainer($0.type) }) {
            return "the bytes are \(proof.type.identifier) (\(proof.detail))"
        }
        return nil
    }

    /// The readings that count: a generic reading gives way to a specific one that is a kind of it (see
    /// `specific`), and conclusive ones, where there are any, before the rest.
    private static func considered(_ readings: [ContentEvidence]) -> [ContentEvidence] {
        let specific = specific(readings)
        let conclusive = specific.filter(\.isConclusive)
        return conclusive.isEmpty ? specific : conclusive
    }

    /// No name, or nothing of it left: the content decides; with nothing conclusive, text or binary chooses
    /// between `public.plain-text` and `public.data`.
    private static func contentAlone(name: NameEvidence?, readings: [ContentEvidence], encoding: TextEncoding?) -> Identification {
        let primary = considered(readings).first ?? readings[0]
        let evidence = Evidence(name: name, content: primary, otherReadings: readings.filter { $0 != primary },
                                rule: primary.type == .plainText || primary.type == .data ? .textOrBinary : .contentOnly)
        let confidence: Identification.Confidence = primary.type == .plainText || primary.type == .data ? .low : primary.isConclusive ? .high : .medium
        return Identification(type: primary.type, evidence: evidence, confidence: confidence, isMismatch: false, textEncoding: encoding)
    }

    /// A generic reading gives way to a specific one that is a kind of it: an OLE2 container to the StarCalc
    /// document freedesktop's magic finds inside, XML to the property list it holds. The specific reading
    /// keeps the generic one's authority: a ZIP proven by its directory and named more precisely by a weaker
    /// rule is that precise format, proven. A suggestion cannot displace a proof, though, unless what was
    /// proved is only a container or an encoding (a ZIP, gzip, XML): a #! line saying shell script stands
    /// against a pattern saying Perl.
    private static func specific(_ readings: [ContentEvidence]) -> [ContentEvidence] {
        // One reading is specific: nothing to give way to.
        guard readings.count > 1 else { return readings }
        return readings.compactMap { reading in
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
    }

    /// The types the name offers that the bytes do not rule out, against the readings: a candidate that is
    /// a reading's type or a more specific kind of it, one that refines a reading in a looser sense, a
    /// reading more specific than a candidate; else the name stands, or a conclusive reading answers (the
    /// name could be these bytes, so this is no mismatch: a program named `rename.ul` is no lie about µ-law
    /// audio, whose bytes may be anything).
    private static func agreement(name: NameEvidence, readings: [ContentEvidence], encoding: TextEncoding?) -> Identification {
        let candidates = name.candidates
        func answer(_ type: UTType, _ rule: Evidence.Rule, _ confidence: Identification.Confidence,
                    by reading: ContentEvidence, overruled: String? = nil) -> Identification {
            Identification(type: type,
                           evidence: Evidence(name: name, content: reading, otherReadings: readings.filter { $0 != reading }, rule: rule,
                                              nameOverruled: overruled),
                           confidence: confidence, isMismatch: false, textEncoding: encoding)
        }
        let specific = specific(readings)
        let conclusive = specific.filter(\.isConclusive)
        // With conclusive readings, the name must agree with one of them; otherwise with any reading.
        let considered = conclusive.isEmpty ? specific : conclusive
        let primary = considered.first ?? readings[0]
        // 8. The name refines the content: first a candidate that is a reading's type or a subtype of it, then
        // one that refines a reading only in the looser senses (any text format is text, any binary format is data).
        // In the strict pass any specific reading counts, conclusive or not: a name and a reader that
        // agree on a format (a .kpt file freedesktop's magic calls KPresenter) outweigh a proof of the
        // container it comes in (gzip).
        // In the strict pass the most specific reading a candidate matches wins, and the candidate that
        // is that reading's type: x.png read as PNG by its signature and as animated PNG by its chunks is
        // an animated PNG; an .awk file whose #! line says awk is an AWK script, not its GNU dialect.
        var agreement: (candidate: UTType, reading: ContentEvidence)?
        // A first candidate the text's own heuristics chose (a manual page among Roff files) stands when it
        // agrees with a reading.
        if name.decidedBy != nil, let chosen = candidates.first,
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
        for candidate in candidates {
            if let reading = considered.first(where: { NameAgreement.of(candidate, with: $0) != .none }) {
                return answer(candidate, .nameRefinesContent, reading.isConclusive ? .high : .medium, by: reading)
            }
        }
        // 9. The content refines the name: a reading that is a kind of a candidate; any text format under a name
        // that promises only text (`.txt`).
        for reading in considered where candidates.contains(where: { reading.type.isKind(of: $0) || ($0 == .plainText && reading.type.isKind(of: .text)) }) {
            return answer(reading.type, .contentRefinesName, reading.isConclusive ? .high : .medium, by: reading)
        }
        // 10. A proof of something the name does not rule out answers, and is no lie.
        let best = candidates[0]
        if primary.isConclusive {
            return answer(primary.type, .contentOverrulesName, .high, by: primary,
                          overruled: "the bytes are \(primary.type.identifier), which the name's \(best.identifier) does not rule out (its files have no signature to miss): no lie")
        }
        // 11. Inconclusive content the name could be: the name stands.
        return answer(best, .nameOnly, encoding != nil && !best.isKind(of: .text) ? .low : .medium, by: primary)
    }

    /// Types that say how bytes are packed rather than what they are: a proof of one of these leaves the
    /// format inside open.
    static func isContainer(_ type: UTType) -> Bool {
        let containers: [UTType] = [.zip, .gzip, .bz2, .data, .plainText, .text, .xml, .json]
        return containers.contains(type) || [KnownTypes.oleStorage, KnownTypes.xz, KnownTypes.zstandard, KnownTypes.sevenZip].contains(type)
    }
}
