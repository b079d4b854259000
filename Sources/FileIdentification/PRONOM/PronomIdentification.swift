public import UniformTypeIdentifiers

/// What PRONOM, The National Archives' registry of formats and versions, says a file is: the formats whose
/// signatures DROID publishes match its bytes, after DROID's priorities between formats, best first.
///
/// Each match names a format and version by its PUID (`fmt/354`: PDF/A-1b), how it was found (its byte
/// signature, its container's entries, or only its extension) and where. Where more than one format remains, all
/// are reported with a `warning`, as DROID does; the first is the best (a format the file's extension names
/// before one it does not).
public struct PronomIdentification: Sendable, Hashable {
    /// One format PRONOM names.
    public struct Match: Sendable, Hashable {
        /// How a format was found.
        public enum Method: String, Sendable, Hashable {
            /// Its internal signature matched the bytes.
            case signature
            /// Its container signature matched a ZIP's entries or an OLE2 file's streams.
            case container
            /// Only the file's extension names it (no signature matched).
            case `extension`
        }

        /// The PUID: `fmt/18`, `x-fmt/111`.
        public var puid: String
        /// PRONOM's name of the format.
        public var name: String
        /// PRONOM's version, "" when it gives none.
        public var version: String
        /// The MIME type PRONOM gives, if any.
        public var mimeType: String?
        /// How it was found: its signature, its container's entries, or its extension alone.
        public var method: Method
        /// Where it matched, as DROID and Siegfried say it: `byte match at 0, 8` (each sequence's offset and
        /// length), `container ZIP: word/document.xml`, `extension .doc`.
        public var basis: String
        /// The format's number in uti's tables (`PronomFormats`).
        let format: Int32

        /// The format as a PRONOM reading's detail names it: `PRONOM fmt/12: Portable Network Graphics 1.1`.
        var readingName: String { "PRONOM \(puid): \(name)\(version.isEmpty ? "" : " " + version)" }

        /// The type that carries this PUID (`UTTagClass.pronomPUID`): the format's own type, or the version's.
        public var type: UTType? {
            TypeDatabase.shared.declaredTypes(tag: puid, tagClass: .pronomPUID).first
        }
    }

    /// The formats, best first; empty when none matched and the extension names none.
    public var matches: [Match]
    /// Why the answer is not one format by its bytes: several formats remain, only the extension names them, or
    /// the extension is not one the format's PRONOM record gives.
    public var warning: String?
    /// Whether a pattern needed bytes past the scan limit (`FileIdentifier.Options.pronomScanLimit`), so that a
    /// signature may have matched had more been read.
    public var isScanCutShort: Bool

    /// The version of DROID's signature file uti's signatures come from.
    public static var signatureFileVersion: Int { PronomTables.signatureFileVersion }
    /// The version of DROID's container signature file.
    public static var containerFileVersion: Int { PronomTables.containerFileVersion }

    /// PRONOM's answer; each argument sets the property of the same name.
    public init(matches: [Match], warning: String?, isScanCutShort: Bool) {
        self.matches = matches
        self.warning = warning
        self.isScanCutShort = isScanCutShort
    }
}

/// PRONOM's formats by signature and extension, and the priorities between them, from the tables once.
struct PronomFormats: Sendable {
    /// Each internal signature's formats.
    let formatsOfSignature: [[Int32]]
    /// Each container signature's formats.
    let formatsOfContainer: [[Int32]]
    /// The formats each format has priority over.
    let priorityOver: [Set<Int32>]
    /// Formats by extension (lower-case).
    let formatsOfExtension: [String: [Int32]]
    /// Each format's extensions.
    let extensions: [[String]]
    /// Each format as an answer names it (method and basis to be set).
    let matches: [PronomIdentification.Match]
    /// Whether each format has an internal signature.
    let signed: [Bool]
    /// Each format's types: those carrying its PUID when the catalog was made (the built-in database's and
    /// those registered by then), for choosing among several formats.
    let carriers: [[UTType]]
    /// The type database's generation when `carriers` was made: while it is the same, they are what a lookup
    /// by PUID would find.
    let generation: Int
    /// Each format as a reading's detail says it: `PRONOM fmt/12: Portable Network Graphics 1.1`.
    let details: [String]

    static let shared = PronomFormats(PronomTables.shared)

    init(_ tables: PronomTables) {
        var bySignature = [[Int32]](repeating: [], count: tables.signatureCount)
        var byContainer = [[Int32]](repeating: [], count: tables.containerSignatures.count / 4)
        var priority: [Set<Int32>] = []
        var byExtension: [String: [Int32]] = [:]
        var extensions: [[String]] = []
        for format in 0..<tables.formatCount {
            let own = tables.formatList(format, 0).map { tables.string($0) }
            extensions.append(own)
            for ext in Set(own) { byExtension[ext, default: []].append(Int32(format)) }
            priority.append(Set(tables.formatList(format, 1).map { Int32($0) }))
            for signature in tables.formatList(format, 2) where Int(signature) < bySignature.count {
                bySignature[Int(signature)].append(Int32(format))
            }
            for container in tables.formatList(format, 3) where Int(container) < byContainer.count {
                byContainer[Int(container)].append(Int32(format))
            }
        }
        formatsOfSignature = bySignature
        formatsOfContainer = byContainer
        priorityOver = priority
        formatsOfExtension = byExtension
        self.extensions = extensions
        matches = (0..<tables.formatCount).map { format in
            PronomIdentification.Match(puid: tables.puid(format), name: tables.name(format), version: tables.version(format),
                                       mimeType: tables.mimeType(format), method: .signature, basis: "", format: Int32(format))
        }
        signed = (0..<tables.formatCount).map { !tables.formatList($0, 2).isEmpty }
        generation = TypeDatabase.shared.generation
        carriers = matches.map { TypeDatabase.shared.declaredTypes(tag: $0.puid, tagClass: .pronomPUID) }
        details = matches.map(\.readingName)
    }
}

/// PRONOM identification of one file's bytes: the internal signatures (the gates, then the candidates matched),
/// then DROID's rules for what remains.
enum PronomIdentifier {
    /// Makes PRONOM's matcher and its catalog (its formats, their types and words) on threads of their own, once
    /// per process, while the caller goes on (a classification lists its first directories and reads its first
    /// files meanwhile): a process that identifies with PRONOM needs both before its first answer, and whoever
    /// needs one first waits for it there.
    static func prepare() { _ = preparation }
    private static let preparation: Void = {
        Threads.spawn { _ = PronomMatcher.shared }
        Threads.spawn { _ = PronomFormats.shared }
    }()

    /// Identifies `source` (whose first bytes `head` were read already) named with extension `ext` (lower-case,
    /// `nil` for none), reading at most `scanLimit` bytes from its beginning and as many from its end.
    static func identify(_ source: some ByteSource, head: [UInt8], extension ext: String?, scanLimit: Int,
                         type: UTType? = nil) throws(IdentificationError.Reason) -> PronomIdentification {
        // The first bytes read where they are (no copy while nothing more is read), and a bit per signature on
        // the stack.
        try head.withUnsafeBufferPointer { (head: UnsafeBufferPointer<UInt8>) throws(IdentificationError.Reason) -> PronomIdentification in
            try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (PronomTables.shared.signatureCount + 63) / 64) {
                (marks: UnsafeMutableBufferPointer<UInt64>) throws(IdentificationError.Reason) -> PronomIdentification in
                marks.initialize(repeating: 0)
                return try identify(source, head: head, marks: marks, extension: ext, scanLimit: scanLimit, type: type)
            }
        }
    }

    private static func identify(_ source: some ByteSource, head: UnsafeBufferPointer<UInt8>, marks: UnsafeMutableBufferPointer<UInt64>,
                                 extension ext: String?, scanLimit: Int, type: UTType?) throws(IdentificationError.Reason) -> PronomIdentification {
        let tables = PronomTables.shared, matcher = PronomMatcher.shared, catalog = PronomFormats.shared
        let size = source.count
        let bytes = PronomBytes(borrowing: head, size: size)
        var frontRead = bytes.known >= min(size, max(scanLimit, head.count))
        // The end is read in two steps: its last 4 KiB (where the patterns anchored there lie), then, only if a
        // pattern needs more, up to the scan limit.
        var backSteps = bytes.known >= size ? 2 : 0
        /// Reads up to `scanLimit` bytes from the beginning or the end; whether more was read.
        func read(front: Bool, back: Bool) throws(IdentificationError.Reason) -> Bool {
            var more = false
            if front, !frontRead {
                frontRead = true
                let count = min(size, max(scanLimit, bytes.known))
                if count > bytes.known {
                    try bytes.extendFront(to: count, from: source)
                    more = true
                }
            }
            while back, backSteps < 2 {
                backSteps += 1
                let count = min(size - bytes.known, backSteps == 1 ? min(PronomMatcher.headSize, scanLimit) : scanLimit)
                if count > bytes.back.count {
                    try bytes.readBack(count, from: source)
                    more = true
                    break
                }
            }
            return more
        }
        var candidates: [Int32] = []
        var gates = matcher.candidates(bytes, marks: marks, list: &candidates)
        // Gates past the bytes read: the beginning up to the scan limit, the end's last 4 KiB; the gates again.
        if gates.needsFront || gates.needsBack, try read(front: gates.needsFront, back: gates.needsBack) {
            gates = matcher.candidates(bytes, marks: marks, list: &candidates, after: gates)
        }
        matcher.openPending(gates, marks: marks, list: &candidates)
        matcher.closeSecondGates(bytes, list: &candidates)
        var cutShort = false
        var matched: [(signature: Int, spans: [PronomSpan])] = []
        // Most files open no gate: no context for them.
        if !candidates.isEmpty || !gates.beyond.isEmpty {
            let context = PronomMatchContext(tables: tables, matcher: matcher, bytes: bytes)
            for candidate in candidates {
                var outcome = context.match(signature: Int(candidate))
                while case .undecided(let front, let back) = outcome, try read(front: front, back: back) {
                    outcome = context.match(signature: Int(candidate))
                }
                switch outcome {
                case .matched(let spans): matched.append((Int(candidate), spans))
                case .undecided: cutShort = true
                case .failed: break
                }
            }
            // A gate past the scan limit, not found before it: cut short when everything else of its signature matched.
            for signature in gates.beyond where !cutShort {
                if context.matchesBesidesGate(signature: Int(signature)) { cutShort = true }
            }
        }
        let containers = try containerMatches(source, head: head, limit: scanLimit, tables: tables, matcher: matcher)
        return decide(matched: matched, containers: containers, extension: ext, cutShort: cutShort, catalog: catalog, tables: tables, type: type)
    }

    /// How many of an entry's or stream's first bytes a container signature's patterns are matched against.
    static let containerEntryLimit = 1 << 20

    /// The container signatures that match: for a ZIP file its entries' paths (and their contents, inflated), for
    /// an OLE2 file its streams' names (and contents); each with where it matched.
    static func containerMatches(_ source: some ByteSource, head: some Collection<UInt8>, limit: Int, tables: PronomTables,
                                 matcher: PronomMatcher) throws(IdentificationError.Reason) -> [(container: Int, basis: String)] {
        let isZip = head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
        let isOLE2 = head.starts(with: OLE2Container.signature)
        guard isZip || isOLE2 else { return [] }
        let entryLimit = max(limit, Self.containerEntryLimit)
        var contents: [String: [UInt8]] = [:]
        var found: [(Int, String)] = []
        if isZip {
            var entries = try ZipContainer.centralDirectory(source)
            if entries == nil { entries = ZipContainer.localHeaders(try source.bytes(at: 0, length: 64 * 1024)) }
            let byName = Dictionary((entries ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            found = try matchContainers(kind: 0, tables: tables, matcher: matcher) { (path: String, needsContents: Bool) throws(IdentificationError.Reason) -> [UInt8]? in
                guard let entry = byName[path] ?? (path.hasSuffix("/") ? byName.first { $0.key.hasPrefix(path) }?.value : nil) else { return nil }
                guard needsContents else { return [] }
                if let cached = contents[path] { return cached }
                let bytes = try ZipContainer.contents(of: entry, source, limit: entryLimit) ?? []
                contents[path] = bytes
                return bytes
            }
        } else if var file = try CompoundFile(source) {
            // Names as DROID's container file writes them: without the control character some begin with
            // ("\u{1}CompObj", "\u{5}SummaryInformation").
            let byName = Dictionary(file.entries.map { (String($0.name.drop { $0.asciiValue.map { $0 < 0x20 } ?? false }), $0) },
                                    uniquingKeysWith: { first, _ in first })
            found = try matchContainers(kind: 1, tables: tables, matcher: matcher) { (path: String, needsContents: Bool) throws(IdentificationError.Reason) -> [UInt8]? in
                let name = path.split(separator: "/").last.map(String.init) ?? path
                guard let entry = byName[name] else { return nil }
                guard needsContents else { return [] }
                if let cached = contents[name] { return cached }
                let bytes = try file.contents(of: entry, limit: entryLimit)
                contents[name] = bytes
                return bytes
            }
        }
        return found
    }

    /// The container signatures of `kind` (0 ZIP, 1 OLE2) whose every entry `entry` finds (with its contents when
    /// it has patterns) and whose patterns match those contents.
    private static func matchContainers(kind: UInt32, tables: PronomTables, matcher: PronomMatcher,
                                        entry: (String, Bool) throws(IdentificationError.Reason) -> [UInt8]?) throws(IdentificationError.Reason) -> [(Int, String)] {
        var found: [(Int, String)] = []
        let count = tables.containerSignatures.count / 4
        signatures: for container in 0..<count where tables.containerSignatures[container * 4] == kind {
            let first = Int(tables.containerSignatures[container * 4 + 1]), entries = Int(tables.containerSignatures[container * 4 + 2])
            var paths: [String] = []
            for index in first..<first + entries {
                let path = tables.string(tables.containerEntries[index * 3])
                let firstSequence = Int(tables.containerEntries[index * 3 + 1]), sequenceCount = Int(tables.containerEntries[index * 3 + 2])
                guard let bytes = try entry(path, sequenceCount > 0) else { continue signatures }
                if sequenceCount > 0 {
                    let context = PronomMatchContext(tables: tables, matcher: matcher, bytes: PronomBytes(front: bytes, size: bytes.count))
                    guard context.match(sequences: firstSequence..<firstSequence + sequenceCount) != nil else { continue signatures }
                }
                paths.append(path)
            }
            found.append((container, "container \(kind == 0 ? "ZIP" : "OLE2"): " + paths.joined(separator: ", ")))
        }
        return found
    }

    /// DROID's rules over the signatures that matched: every format of each, less those another has priority
    /// over; the ones the extension names first; by extension alone when no signature matched.
    static func decide(matched: [(signature: Int, spans: [PronomSpan])], containers: [(container: Int, basis: String)] = [],
                       extension ext: String?, cutShort: Bool, catalog: PronomFormats, tables: PronomTables,
                       type: UTType? = nil) -> PronomIdentification {
        /// Where a signature matched, as DROID says it: `byte match at 0, 8; 4381, 12`.
        func describe(_ spans: [PronomSpan]) -> String {
            // Written into the string's own storage, once: no buffer, no string per number.
            String(unsafeUninitializedCapacity: 14 + spans.count * 44) { text in
                var at = 0
                func put(_ piece: StaticString) {
                    piece.withUTF8Buffer { for byte in $0 { text[at] = byte; at += 1 } }
                }
                func put(_ number: Int) {
                    if number < 0 { text[at] = UInt8(ascii: "-"); at += 1 }
                    var magnitude = number.magnitude, digits = 1
                    while magnitude >= 10 { magnitude /= 10; digits += 1 }
                    magnitude = number.magnitude
                    for place in (at..<at + digits).reversed() {
                        text[place] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                        magnitude /= 10
                    }
                    at += digits
                }
                put("byte match at ")
                for (index, span) in spans.enumerated() {
                    if index > 0 { put("; ") }
                    put(span.offset)
                    put(", ")
                    put(span.length)
                }
                return at
            }
        }
        /// The warning for one format found by its bytes whose record gives extensions, but not this file's (the
        /// format's own few extensions asked, not the catalog's lookup by string).
        func mismatch(_ format: Int32) -> String? {
            let extensions = catalog.extensions[Int(format)]
            guard let ext, !extensions.isEmpty, !extensions.contains(ext) else { return nil }
            return "extension mismatch: PRONOM does not give .\(ext) to this format"
        }
        // The common case, one signature of one format matched: the rules below come to that format, with the
        // extension's warning.
        if containers.isEmpty, matched.count == 1, case let formats = catalog.formatsOfSignature[matched[0].signature],
           formats.count == 1, let format = formats.first {
            var match = catalog.matches[Int(format)]
            match.method = .signature
            match.basis = describe(matched[0].spans)
            return PronomIdentification(matches: [match], warning: mismatch(format), isScanCutShort: cutShort)
        }
        // Each format found, with where (a few at most: a list).
        var basis: [(format: Int32, text: String)] = []
        func note(_ format: Int32, _ text: String) {
            if !basis.contains(where: { $0.format == format }) { basis.append((format, text)) }
        }
        // A container's formats stand for the container's own (ZIP, OLE2), as DROID reports them.
        for (container, text) in containers {
            for format in catalog.formatsOfContainer[container] { note(format, text) }
        }
        let byContainer = !basis.isEmpty
        if !byContainer {
            for (signature, spans) in matched {
                let text = describe(spans)
                for format in catalog.formatsOfSignature[signature] { note(format, text) }
            }
        }
        let found = basis.map(\.format)
        var formats = found.filter { format in !found.contains { $0 != format && catalog.priorityOver[Int($0)].contains(format) } }
        // The extension's formats, in PRONOM's order.
        let named = ext.flatMap { catalog.formatsOfExtension[$0] } ?? []
        // Best first: a format the extension names, then one whose type the content's type is (what the rest of
        // identification read: the content's type conforms to the type carrying the format's PUID), then
        // PRONOM's order. Asked only when there is a choice.
        func agrees(_ format: Int32) -> Bool {
            guard let type else { return false }
            return catalog.carriers[Int(format)].contains { type.conforms(to: $0) }
        }
        /// `list` (in PRONOM's order) with the formats whose type the content's type is first.
        func agreeingFirst(_ list: [Int32]) -> [Int32] {
            guard list.count > 1 else { return list }
            let agreeing = list.map(agrees)
            return list.indices.filter { agreeing[$0] }.map { list[$0] } + list.indices.filter { !agreeing[$0] }.map { list[$0] }
        }
        if formats.count > 1 {
            formats.sort()
            formats = agreeingFirst(formats.filter { named.contains($0) }) + agreeingFirst(formats.filter { !named.contains($0) })
        }
        var warning: String?
        var method = byContainer ? PronomIdentification.Match.Method.container : .signature
        if formats.isEmpty {
            // By extension alone: formats with no signature first (one that has a signature was ruled out by
            // the bytes), then as above.
            formats = agreeingFirst(named.filter { !catalog.signed[Int($0)] }) + agreeingFirst(named.filter { catalog.signed[Int($0)] })
            method = .extension
            if !formats.isEmpty { warning = "no byte signature matched: by extension only" }
        } else if formats.count > 1 {
            warning = "\(formats.count) formats match; the first is the best"
        } else {
            warning = mismatch(formats[0])
        }
        let matches = formats.map { format in
            // The format's strings made once (`PronomFormats.matches`); the method and basis are this file's.
            var match = catalog.matches[Int(format)]
            match.method = method
            match.basis = basis.first { $0.format == format }?.text ?? "extension .\(ext ?? "")"
            return match
        }
        return PronomIdentification(matches: matches, warning: warning, isScanCutShort: cutShort)
    }
}
