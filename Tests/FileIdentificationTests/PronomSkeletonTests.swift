import Foundation
import Testing
import TestSupport
@testable import FileIdentification

/// PRONOM's internal signatures checked the way the field checks an identifier: for each signature, the least
/// bytes that satisfy it (a "skeleton" file, as Siegfried's and DROID's test suites are made), built here from
/// TypeDB/pronom.json by a reading of DROID's data of the test's own (not the engine's compiled tables), and
/// identified; the signature's format must be among the answers (any-match), and should be the first (top-1).
@Suite("PRONOM's signatures identify their own skeleton files")
struct PronomSkeletonTests {
    /// One test of a byte in a DROID fragment: a byte, a range, a negation, a mask.
    enum ByteTest {
        case bytes([UInt8])
        case notBytes([UInt8])
        case range([UInt8], [UInt8])
        case notRange([UInt8], [UInt8])
        case mask(UInt8, all: Bool, negated: Bool)

        /// Bytes that satisfy the test.
        var satisfying: [UInt8] {
            switch self {
            case .bytes(let bytes): bytes
            case .notBytes(let bytes): [bytes[0] ^ 0xFF] + bytes.dropFirst().map { $0 ^ 0xFF }
            case .range(let low, _): low
            case .notRange(let low, let high):
                high.last.map { $0 < 0xFF } == true ? Array(high.dropLast()) + [high[high.count - 1] + 1]
                    : (low.last.map { $0 > 0 } == true ? Array(low.dropLast()) + [low[low.count - 1] - 1] : high.map { _ in 0 })
            case .mask(let mask, _, let negated): [negated ? 0 : mask]
            }
        }
    }

    /// DROID's fragment syntax: hex, `[xx:yy]`, `[!xx]`, `[!xx:yy]`, `[&xx]`, `[!&xx]`, `[~xx]`.
    static func parse(_ text: String) -> [ByteTest]? {
        var tests: [ByteTest] = []
        var rest = Substring(text)
        func hex(_ text: Substring) -> [UInt8]? {
            guard text.count % 2 == 0, !text.isEmpty else { return nil }
            var out: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
                out.append(byte)
                index = next
            }
            return out
        }
        while let first = rest.first {
            if first == "[" {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                var inner = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                let negated = inner.first == "!"
                if negated { inner = inner.dropFirst() }
                if let mark = inner.first, mark == "&" || mark == "~" {
                    guard let mask = hex(inner.dropFirst()), mask.count == 1 else { return nil }
                    tests.append(.mask(mask[0], all: mark == "&", negated: negated))
                } else if let colon = inner.firstIndex(of: ":") {
                    guard let low = hex(inner[..<colon]), let high = hex(inner[inner.index(after: colon)...]) else { return nil }
                    tests.append(negated ? .notRange(low, high) : .range(low, high))
                } else {
                    guard let bytes = hex(inner) else { return nil }
                    tests.append(negated ? .notBytes(bytes) : .bytes(bytes))
                }
            } else {
                let end = rest.firstIndex(of: "[") ?? rest.endIndex
                guard let bytes = hex(rest[..<end]) else { return nil }
                tests.append(.bytes(bytes))
                rest = rest[end...]
            }
        }
        return tests
    }

    struct Fragment: Decodable {
        var position: Int
        var minOffset: Int
        var maxOffset: Int
        var bytes: String
    }

    struct Subsequence: Decodable {
        var minOffset: Int
        var maxOffset: Int?
        var sequence: String
        var left: [Fragment]
        var right: [Fragment]
    }

    struct Sequence: Decodable {
        var anchor: String
        var subsequences: [Subsequence]
    }

    struct Signature: Decodable {
        var id: Int
        var sequences: [Sequence]
    }

    struct Format: Decodable {
        var puid: String
        var signatures: [Int]
    }

    struct Table: Decodable {
        var formats: [Format]
        var signatures: [Signature]
    }

    /// A subsequence's least bytes: left fragments (the first alternative of each position, furthest first) at
    /// their least gaps, the anchor, the right fragments likewise. Gaps are filled with `filler`.
    static func bytes(of sub: Subsequence, filler: UInt8) -> [UInt8]? {
        guard let anchor = parse(sub.sequence) else { return nil }
        var out: [UInt8] = anchor.flatMap(\.satisfying)
        for position in Set(sub.left.map(\.position)).sorted() {
            guard let fragment = sub.left.first(where: { $0.position == position }), let tests = parse(fragment.bytes) else { return nil }
            out = tests.flatMap(\.satisfying) + [UInt8](repeating: filler, count: fragment.minOffset) + out
        }
        for position in Set(sub.right.map(\.position)).sorted() {
            guard let fragment = sub.right.first(where: { $0.position == position }), let tests = parse(fragment.bytes) else { return nil }
            out += [UInt8](repeating: filler, count: fragment.minOffset) + tests.flatMap(\.satisfying)
        }
        return out
    }

    /// The skeleton of a signature: its sequences from the beginning at their least offsets, its floating
    /// sequences after them, its sequences from the end at their least distances from it.
    static func skeleton(of signature: Signature, filler: UInt8) -> [UInt8]? {
        var head: [UInt8] = []
        var middle: [UInt8] = []
        var tail: [UInt8] = []
        for sequence in signature.sequences {
            switch sequence.anchor {
            case "BOF":
                // Placed from the start: after what earlier sequences placed where the window allows, else at
                // the window's start (over earlier bytes: DROID's signatures that do so name the same bytes).
                var position = 0
                for (number, sub) in sequence.subsequences.enumerated() {
                    guard let bytes = bytes(of: sub, filler: filler) else { return nil }
                    if number == 0 {
                        position = head.count <= (sub.maxOffset ?? sub.minOffset) && head.count >= sub.minOffset ? head.count : sub.minOffset
                    } else {
                        position += sub.minOffset
                    }
                    if head.count < position + bytes.count { head += [UInt8](repeating: filler, count: position + bytes.count - head.count) }
                    head.replaceSubrange(position..<position + bytes.count, with: bytes)
                    position += bytes.count
                }
            case "EOF":
                var part: [UInt8] = []
                for sub in sequence.subsequences {
                    guard let bytes = bytes(of: sub, filler: filler) else { return nil }
                    part = bytes + [UInt8](repeating: filler, count: sub.minOffset) + part
                }
                tail = part + tail
            default:
                for (number, sub) in sequence.subsequences.enumerated() {
                    guard let bytes = bytes(of: sub, filler: filler) else { return nil }
                    middle += [UInt8](repeating: filler, count: number == 0 ? 1 : sub.minOffset) + bytes
                }
            }
        }
        return head + middle + [filler] + tail
    }

    static func load() throws -> Table {
        let data = try Data(contentsOf: Tools.packageRoot.appending(path: "TypeDB/pronom.json"))
        return try JSONDecoder().decode(Table.self, from: data)
    }

    /// Every signature's skeleton identified: (signatures, any-match, top-1, the misses).
    static func measure(filler: UInt8) throws -> (count: Int, anyMatch: Int, topOne: Int, misses: [String], notFirst: [String]) {
        let table = try load()
        var formatsOf: [Int: [String]] = [:]
        for format in table.formats {
            for signature in format.signatures { formatsOf[signature, default: []].append(format.puid) }
        }
        var options = FileIdentifier.Options()
        options.pronom = true
        let identifier = FileIdentifier(options: options)
        var anyMatch = 0, topOne = 0, count = 0
        var misses: [String] = [], notFirst: [String] = []
        for signature in table.signatures {
            guard let expected = formatsOf[signature.id], let skeleton = skeleton(of: signature, filler: filler) else { continue }
            count += 1
            let pronom = try identifier.identify(data: skeleton).pronom
            let found = pronom?.matches.map(\.puid) ?? []
            if found.contains(where: expected.contains) { anyMatch += 1 } else { misses.append("\(signature.id) \(expected): \(found)") }
            if let first = found.first, expected.contains(first) { topOne += 1 } else { notFirst.append("\(signature.id) \(expected): \(found.prefix(3)) \(pronom?.warning ?? "")") }
        }
        return (count, anyMatch, topOne, misses, notFirst)
    }

    @Test("the extension PRONOM's formats are looked up by: after the last dot, in lower case, ASCII or not")
    func extensions() {
        #expect(FileIdentifier.pronomExtension("Report.PDF") == "pdf")
        #expect(FileIdentifier.pronomExtension("archive.tar.GZ") == "gz")
        #expect(FileIdentifier.pronomExtension("Makefile") == nil)
        #expect(FileIdentifier.pronomExtension("trailing.") == nil)
        #expect(FileIdentifier.pronomExtension(nil) == nil)
        #expect(FileIdentifier.pronomExtension(".Profile") == "profile")
        #expect(FileIdentifier.pronomExtension("Ölfarbe.ÄBC") == "äbc")
        #expect(FileIdentifier.pronomExtension("x.[@Z]") == "[@z]")
    }

    @Test("each internal signature's skeleton is identified with its format among the answers")
    func skeletons() throws {
        let result = try Self.measure(filler: 0x00)
        print("PRONOM skeletons: \(result.anyMatch) of \(result.count) any-match, \(result.topOne) top-1; not first: \(result.notFirst)")
        #expect(result.count > 2_100)
        // Every signature the engine can read is met by its own least bytes; the misses are listed.
        #expect(result.misses.isEmpty, "\(result.misses.count) of \(result.count): \(result.misses.prefix(40))")
        // The first answer is the signature's own format for all but the skeletons that another format's
        // signature also matches and has priority over (a generic format's bytes inside a specific one's).
        #expect(result.topOne * 100 >= result.count * 90, "top-1 \(result.topOne) of \(result.count)")
    }

    @Test("the shortcuts take nothing away: a signature its fixed bytes decide matches as its search would, and a second gate shuts only signatures that fail")
    func shortcuts() throws {
        let table = try Self.load()
        let matcher = PronomMatcher.shared, tables = PronomTables.shared
        // XML of a few vocabularies, the files second gates are for (their signatures share `<?xml version=`).
        let xml = [
            #"<?xml version="1.0" encoding="UTF-8"?>\#n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\#n<plist version="1.0">\#n<dict/>\#n</plist>\#n"#,
            #"<?xml version="1.0" encoding="UTF-8"?>\#n<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/></TEI>\#n"#,
            #"<?xml version="1.0" encoding="UTF-8"?>\#n<svg xmlns="http://www.w3.org/2000/svg" version="1.1"></svg>\#n"#,
            #"<?xml version='1.0'?>\#n<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>\#n"#,
            #"<?xml version="1.0"?>\#n<catalog><book id="1"/></catalog>\#n"#,
        ].map { Array($0.utf8) }
        let samples = table.signatures.compactMap { Self.skeleton(of: $0, filler: 0x00) } + xml
        var decided = 0, shut = 0, shutInXML = 0
        for (number, sample) in samples.enumerated() {
            let bytes = PronomBytes(front: sample, size: sample.count)
            let context = PronomMatchContext(tables: tables, matcher: matcher, bytes: bytes)
            for signature in 0..<tables.signatureCount where matcher.decided(signature, in: bytes.front) {
                decided += 1
                let quick = context.match(signature: signature)
                #expect(quick == context.match(signature: signature, shortcut: false), "signature \(signature), sample \(number)")
            }
            var marks = [UInt64](repeating: 0, count: (tables.signatureCount + 63) / 64)
            var opened: [Int32] = []
            _ = marks.withUnsafeMutableBufferPointer { matcher.candidates(bytes, marks: $0, list: &opened) }
            var kept = opened
            matcher.closeSecondGates(bytes, list: &kept)
            for signature in Set(opened).subtracting(kept) {
                shut += 1
                if number >= samples.count - xml.count { shutInXML += 1 }
                #expect(context.match(signature: Int(signature), shortcut: false) == .failed, "signature \(signature) shut on sample \(number)")
            }
        }
        print("PRONOM shortcuts: \(decided) matches decided by fixed bytes, \(shut) tries shut by second gates (\(shutInXML) on the XML)")
        #expect(decided > 500)
        #expect(shutInXML > 5 * 20)
        // And the formats of the XML still found, through the whole identification.
        var options = FileIdentifier.Options()
        options.pronom = true
        let identifier = FileIdentifier(options: options)
        let expected = ["fmt/979", "fmt/1476", "fmt/92", "fmt/244", "fmt/101"]
        for (sample, puid) in zip(xml, expected) {
            let found = try identifier.identify(data: sample).pronom?.matches.map(\.puid) ?? []
            #expect(found.contains(puid), "\(puid): \(found)")
        }
    }

    @Test("windows that overlap six deep are searched from each place once: Wavefront OBJ's numbers without their line's end")
    func overlappingWindows() throws {
        let tables = PronomTables.shared
        let format = try #require((0..<tables.formatCount).first { tables.puid($0) == "fmt/1210" })
        let signature = try #require(tables.formatList(format, 2).first.map { Int($0) })
        // `v ` and numbers, never the line's end within 64 bytes: every way through the six windows fails, and
        // a search that tried again from each place it reached by another way spends some 70,000 tests here.
        let line = Array("v ".utf8) + Array(repeating: Array("1.1 ".utf8), count: 16).joined()
        let bytes = Array(Array(repeating: line, count: 20).joined().prefix(1_100))
        let context = PronomMatchContext(tables: tables, matcher: PronomMatcher.shared,
                                         bytes: PronomBytes(front: bytes, size: bytes.count))
        #expect(context.match(signature: signature) == .failed)
        #expect(PronomMatcher.testBudget - context.budget < 10_000, "\(PronomMatcher.testBudget - context.budget) tests")
        // Lines that end, and faces: OBJ.
        var options = FileIdentifier.Options()
        options.pronom = true
        let obj = Array("v 1.0 2.0 3.0\nv 1.5 2.5 3.5\nv 0.5 0.5 0.5\nf 1 2 3\n".utf8)
        let found = try FileIdentifier(options: options).identify(data: obj).pronom?.matches.map(\.puid) ?? []
        #expect(found.contains("fmt/1210"), "\(found)")
    }

    @Test("the parts of DROID's patterns: ranges, negations and masks, fragments at their gaps, windows from the end")
    func parts() throws {
        var options = FileIdentifier.Options()
        options.pronom = true
        let identifier = FileIdentifier(options: options)
        // GIF 89a: "GIF89a" at the beginning and ";" within 4 bytes of the end (fmt/4).
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20) + [0x3B]
        #expect(try identifier.identify(data: gif).pronom?.matches.first?.puid == "fmt/4")
        // Without the trailer the end sequence fails: GIF 89a is not named.
        let cut = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20)
        #expect(try identifier.identify(data: cut).pronom?.matches.contains { $0.puid == "fmt/4" } == false)
        // A trailer further than the window allows fails too.
        let far = gif + [UInt8](repeating: 0, count: 10)
        #expect(try identifier.identify(data: far).pronom?.matches.contains { $0.puid == "fmt/4" } == false)
        // PDF 1.4's header at the beginning, %%EOF near the end (fmt/18); the basis names where.
        let pdf = Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x20, count: 100) + Array("%%EOF\n".utf8)
        let answer = try #require(try identifier.identify(data: pdf, filename: "a.pdf").pronom)
        #expect(answer.matches.first?.puid == "fmt/18")
        #expect(answer.matches.first?.basis.hasPrefix("byte match at 0, 8") == true)
        #expect(answer.matches.first?.type?.identifier == "org.nationalarchives.pronom.fmt.18")
        #expect(answer.warning == nil)
        // Named for another format: DROID's extension mismatch.
        #expect(try identifier.identify(data: pdf, filename: "a.doc").pronom?.warning?.hasPrefix("extension mismatch") == true)
        // No signature: by extension only, with a warning.
        let text = try #require(try identifier.identify(data: Array("hello\n".utf8), filename: "notes.txt").pronom)
        #expect(text.matches.first?.method == .extension && text.matches.contains { $0.puid == "x-fmt/111" })
        #expect(text.warning?.contains("extension only") == true)
        // Not asked: nothing.
        #expect(try FileIdentifier().identify(data: pdf).pronom == nil)
    }

    @Test("files read from disk past their first 4 KiB: gates further in and at the end found after the second read, the same as from memory")
    func largeFiles() throws {
        var options = FileIdentifier.Options()
        options.pronom = true
        let identifier = FileIdentifier(options: options)
        let files = try TemporaryDirectory()
        let filler = [UInt8](repeating: 0x20, count: 100_000)
        let cases: [(name: String, bytes: [UInt8], puid: String)] = [
            // A PDF 1.4's header at the beginning and "%%EOF" within 1 KiB of its end, 100 KB apart (fmt/18).
            ("a.pdf", Array("%PDF-1.4\n".utf8) + filler + Array("%%EOF\n".utf8), "fmt/18"),
            // GIF 89a's trailer byte at the very end of a file larger than both reads (fmt/4).
            ("a.gif", Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 100_000) + [0x3B], "fmt/4"),
            // The crystallographic phrase past the first 4 KiB but within the scan limit (fmt/334).
            ("a.cif", [UInt8](repeating: 0x0A, count: 40_000) + Array(" _atom_type_scat_dispersion_real".utf8) + filler, "fmt/334"),
        ]
        for (name, bytes, puid) in cases {
            let path = try files.write(bytes, to: name)
            let fromDisk = try #require(try identifier.identify(fileAt: path).pronom)
            #expect(fromDisk.matches.contains { $0.puid == puid }, "\(name): \(fromDisk.matches.map(\.puid))")
            #expect(try identifier.identify(data: bytes, filename: name).pronom?.matches.map(\.puid) == fromDisk.matches.map(\.puid))
        }
    }

    @Test("a window past the scan limit is not matched, and the answer says the scan was cut short")
    func scanLimit() throws {
        // The Crystallographic Information Framework's phrase may lie anywhere in the first 64 KiB (fmt/334).
        var bytes = [UInt8](repeating: 0x0A, count: 40_000) + Array(" _atom_type_scat_dispersion_real".utf8)
        bytes += [UInt8](repeating: 0x0A, count: 100_000)
        var options = FileIdentifier.Options()
        options.pronom = true
        #expect(try FileIdentifier(options: options).identify(data: bytes).pronom?.matches.contains { $0.puid == "fmt/334" } == true)
        options.pronomScanLimit = 16 * 1024
        let cut = try #require(try FileIdentifier(options: options).identify(data: bytes).pronom)
        #expect(!cut.matches.contains { $0.puid == "fmt/334" })
        #expect(cut.isScanCutShort)
    }

    /// The PUIDs `--pronom` finds in `bytes` (named `filename`).
    private func puids(_ bytes: [UInt8], filename: String? = nil) throws -> [String] {
        var options = FileIdentifier.Options()
        options.pronom = true
        return try FileIdentifier(options: options).identify(data: bytes, filename: filename).pronom?.matches.map(\.puid) ?? []
    }

    /// Whether the gate of a signature of `puid` opens on `bytes` (the whole file in memory).
    private func opens(_ puid: String, _ bytes: [UInt8]) throws -> Bool {
        let tables = PronomTables.shared
        let format = try #require((0..<tables.formatCount).first { tables.puid($0) == puid })
        let own = Set(tables.formatList(format, 2).map { Int32($0) })
        var marks = [UInt64](repeating: 0, count: (tables.signatureCount + 63) / 64), list: [Int32] = []
        let front = PronomBytes(front: bytes, size: bytes.count)
        marks.withUnsafeMutableBufferPointer { _ = PronomMatcher.shared.candidates(front, marks: $0, list: &list) }
        return !own.isDisjoint(with: list)
    }

    @Test("long literals past the first 4 KiB, looked for together, are found at every place of their windows and nowhere past them")
    func farLiterals() throws {
        // Text that holds none of them: a line of words, repeated.
        let text = Array(Array(repeating: Array("the quick brown fox http://example.org/ xmlns=\"a\"\n".utf8), count: 2_000).joined())
        let cases: [(puid: String, literal: String, high: Int)] = [
            ("fmt/333", "xmlns=\"http://www.xml-cml.org/schema\"", 65_536),
            ("fmt/334", " _atom_type_scat_dispersion_real", 65_536),
            ("fmt/1243", "http://isds.czechpoint.cz/v20/message", 20_500),
        ]
        for (puid, literal, high) in cases {
            #expect(try !opens(puid, Array(text.prefix(70_000))), "\(puid) in text without it")
            // Every place modulo the pass's step, across the end of the first 4 KiB, deep in the window, at its end.
            for start in Array(4_080..<4_130) + Array(high / 2..<high / 2 + 40) + [high - 1, high] {
                var bytes = Array(text.prefix(start)) + Array(literal.utf8)
                bytes += text.prefix(max(0, 70_000 - bytes.count))
                #expect(try opens(puid, bytes), "\(puid) at \(start)")
            }
            // Ending the bytes: the pass's last place (its four windows' last quarter ends there; just past 4 KiB,
            // too few places for four windows, one window's).
            for start in Array(9_000..<9_008) + Array(4_100..<4_104) {
                #expect(try opens(puid, Array(text.prefix(start)) + Array(literal.utf8)), "\(puid) ending the bytes at \(start)")
            }
            // Past the window: not there.
            var beyond = Array(text.prefix(high + 1)) + Array(literal.utf8)
            beyond += text.prefix(1_000)
            #expect(try !opens(puid, beyond), "\(puid) past its window")
        }
        // And identified, from disk, where the second read brings them in.
        var options = FileIdentifier.Options()
        options.pronom = true
        let files = try TemporaryDirectory()
        let cml = Array("<?xml version=\"1.0\"?>\n".utf8) + text.prefix(30_000) + Array("<cml xmlns=\"http://www.xml-cml.org/schema\"/>\n".utf8)
        let found = try FileIdentifier(options: options).identify(fileAt: files.write(cml, to: "a.cml")).pronom?.matches.map(\.puid) ?? []
        #expect(found.contains("fmt/333"), "\(found)")
    }

    @Test("a short gate opens only where the next element follows it: BibTeX's @ before an entry's type, not in an address; OBJ's v before a number")
    func gateFollowers() throws {
        let addresses = Array(Array(repeating: Array("mail someone@example.org or me@host.net\n".utf8), count: 400).joined())
        #expect(try !opens("fmt/1616", Array(addresses.prefix(3_000))))
        #expect(try !opens("fmt/1616", Array(addresses.prefix(14_000))))
        // An entry's type must follow, not only a byte one may start with: Perl's @INC is not @INCOLLECTION.
        #expect(try !opens("fmt/1616", Array("use lib 'x';\npush @INC, 'y';\n".utf8)))
        for (place, entry) in [(0, "@Article{key,"), (1_000, "@Book{key,"), (10_000, "@INPROCEEDINGS{key,"), (14_000, "@Misc{key,")] {
            let bytes = Array(addresses.prefix(place)) + Array(entry.utf8) + Array("\n  title = {T}\n}\n".utf8)
            #expect(try opens("fmt/1616", bytes), "\(entry) at \(place)")
        }
        // Or within a narrow window after it: Wavefront OBJ's `v ` before a number within eight bytes.
        let manual = Array(Array(repeating: Array("run make -v to see more, or -v -v for all of it\n".utf8), count: 20).joined())
        #expect(try !opens("fmt/1210", manual))
        #expect(try opens("fmt/1210", manual + Array("v  0.5 1.5 2.5\n".utf8)))
        let bib = Array(addresses.prefix(10_000)) + Array("@Article{key,\n  title = {T},\n  year = 2024\n}\n".utf8)
        let found = try puids(bib, filename: "refs.bib")
        #expect(found.contains("fmt/1616"), "\(found)")
    }

    @Test("short literals, found by a pair of their bytes, are found wherever they lie in their windows, as a search byte by byte finds them")
    func shortLiterals() {
        // A literal alone by its first byte (`v `) or its second (`00 32 ...`: `2` is the less likely), literals
        // sharing a first byte by the bits their second bytes share (MPEG audio's frame headers: `FF E2`, `FF F0`
        // pass those bits, and are not theirs), one byte alone (`@`), a literal of three.
        let literals: [[UInt8]] = [
            Array("v ".utf8), [0x00, 0x32, 0x00, 0x00, 0x00, 0x00],
            [0xFF, 0xFB], [0xFF, 0xF3], [0xFF, 0xFA], [0xFF, 0xF2], [0xFF, 0xE3],
            Array("@".utf8), Array("<cf".utf8), Array("%A".utf8),
        ]
        let lows = [0, 0, 0, 0, 0, 0, 0, 3, 10, 0], highs = [1_024, 1_024, 1_795, 1_795, 1_795, 1_795, 1_795, 4_092, 200, 154]
        // Bytes drawn from the literals' own and their near misses, so that pairs, halves and misses are frequent:
        // half of them, the others a letter no literal holds.
        let alphabet: [UInt8] = [0x00, 0x32, 0x76, 0x20, 0xFF, 0xFB, 0xF3, 0xE2, 0xE3, 0xF0, 0x40, 0x25, 0x41, 0x3C, 0x63, 0x66, 0x61]
        Self.literalTrials(literals, lows: lows, highs: highs, seed: 0x2545_F491_4F6C_DD1D, longest: 3_000, inserted: 4,
                           byte: { next in next(2) == 0 ? alphabet[next(alphabet.count)] : 0x78 }) { trial, count, from, expected, found in
            #expect(found == expected, "trial \(trial): \(count) bytes from \(from)")
        }
    }

    /// Four hundred trials of `NearLiterals.search` over `literals` (in windows `lows`/`highs`) against a search byte
    /// by byte: random bytes (each from `byte`, given the generator), up to `longest`, with up to `inserted` literals
    /// put in whole at places in their windows and past them, searched from the start or, one trial in three, from a
    /// place within; `check` gets the trial, the bytes' count, that place, the literals whose first eight bytes (what
    /// opens a gate) lie in their windows from there, and those the search found.
    static func literalTrials(_ literals: [[UInt8]], lows: [Int], highs: [Int], seed: UInt64, longest: Int, inserted: Int,
                              byte: (_ next: (Int) -> Int) -> UInt8,
                              _ check: (_ trial: Int, _ count: Int, _ from: Int, _ expected: Set<Int32>, _ found: Set<Int32>) -> Void) {
        let near = NearLiterals(literals: literals, signatures: literals.indices.map { Int32($0) }, lows: lows, highs: highs)
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        for trial in 0..<400 {
            let count = 1 + next(trial % 4 == 0 ? 40 : longest)
            var bytes = (0..<count).map { _ in byte(next) }
            for _ in 0..<next(inserted) {
                let literal = literals[next(literals.count)]
                guard literal.count <= count else { continue }
                let place = next(count - literal.count + 1)
                bytes.replaceSubrange(place..<place + literal.count, with: literal)
            }
            let from = trial % 3 == 0 ? next(count + 1) : 0
            var expected = Set<Int32>()
            for (index, literal) in literals.enumerated() {
                let prefix = literal.prefix(8)
                let first = max(lows[index], from), last = min(highs[index], count - prefix.count)
                if first <= last, (first...last).contains(where: { bytes[$0..<$0 + prefix.count].elementsEqual(prefix) }) {
                    expected.insert(Int32(index))
                }
            }
            var found = Set<Int32>(), portable = Set<Int32>()
            bytes.withUnsafeBufferPointer { buffer in near.search(buffer, from: from) { found.insert($0) } }
            // Without the processor's vector instructions (a filter's load a place, as where it has none): the same.
            bytes.withUnsafeBufferPointer { buffer in near.search(buffer, from: from, portable: true) { portable.insert($0) } }
            #expect(portable == found, "trial \(trial): \(count) bytes from \(from), without vector instructions")
            check(trial, count, from, expected, found)
        }
    }

    @Test("literals of four bytes and more, found by three of their bytes and their keys, open their gates wherever their first eight bytes lie in their windows, as a search byte by byte finds them")
    func keyedLiterals() {
        // Literals sharing three bytes (`ion{`, `tion`), sharing their four key bytes but not what follows (`%PDF-1.`,
        // `%PDF-2.`), holding a NUL (not two side by side), repeating one pair (`%%%%`), sixteen bytes long, and
        // in windows from the first byte to past the bytes.
        let literals: [[UInt8]] = [
            Array("section{".utf8), Array("subsection{".utf8), Array("%PDF-1.".utf8), Array("%PDF-2.".utf8), Array("%%%%".utf8),
            Array("tion".utf8), [0x48, 0x2B, 0x00, 0x04], Array("<!DOCTYPE html P".utf8), Array("To: ".utf8), Array("on{s".utf8),
        ]
        let lows = [0, 1, 0, 5, 21, 0, 1_024, 0, 0, 7], highs = [4_092, 3_000, 1_024, 2_000, 277, 60, 2_048, 1_024, 4_092, 4_000]
        // Bytes drawn from the literals' own, so that pairs, keys and near misses are frequent (two in three).
        let alphabet = Array("section{ub%PDF-12.<!DOCTYPE html P To: H+\u{0}\u{4}".utf8)
        Self.literalTrials(literals, lows: lows, highs: highs, seed: 0x1F83_D9AB_FB41_BD6B, longest: 4_200, inserted: 6,
                           byte: { next in next(3) == 0 ? 0x78 : alphabet[next(alphabet.count)] }) { trial, count, from, expected, found in
            // Found once the search's places are past `from` by a key's length: places before it may be given too.
            #expect(found.isSuperset(of: expected), "trial \(trial): \(count) bytes from \(from)")
            #expect(from > 0 || found == expected, "trial \(trial): \(count) bytes")
        }
    }

    @Test("the disc images' keys past 32 KiB, one short key for several gates: ISO 9660 and an Apple partition map found at every alignment, noise not")
    func discImages() throws {
        // Bytes without the key: a generator's noise (every byte value, `C` and `P` among them, about every 256th).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<80_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let byte = UInt8(truncatingIfNeeded: state >> 56)
            return byte == 0x01 ? 0x02 : byte  // no 0x01: UDF's `BEA01` ends with one
        }
        for puid in ["fmt/468", "fmt/1739", "fmt/1741"] {
            #expect(try !opens(puid, noise), "\(puid) in noise")
        }
        func placed(_ parts: [(Int, [UInt8])]) -> [UInt8] {
            var bytes = noise
            for (place, part) in parts { bytes.replaceSubrange(place..<place + part.count, with: part) }
            return bytes
        }
        let volume = Array("CD001".utf8)
        for shift in 0..<8 {
            // ISO 9660: the primary volume descriptor's `CD001` at 32 KiB + 1, the set's terminator `FF CD001`
            // a sector later.
            let iso = placed([(32_768 + shift, [0x01] + volume + [0x01]), (34_816 + shift, [0xFF] + volume + [0x01])])
            #expect(try opens("fmt/468", iso), "ISO 9660 at +\(shift)")
            let isoFound = try puids(iso)
            #expect(isoFound.contains("fmt/468"), "ISO 9660 at +\(shift): \(isoFound)")
            // An Apple partition map's hybrid: `ER 02 00` 512 bytes before `PMCD001`, then the terminator.
            let apm = placed([(39_488 + shift, [0x45, 0x52, 0x02, 0x00]), (40_000 + shift, Array("PM".utf8) + volume),
                              (41_000 + shift, [0xFF] + volume + [0x01])])
            #expect(try opens("fmt/1741", apm), "Apple partition map at +\(shift)")
            let apmFound = try puids(apm)
            #expect(apmFound.contains("fmt/1741"), "Apple partition map at +\(shift): \(apmFound)")
        }
    }
}
