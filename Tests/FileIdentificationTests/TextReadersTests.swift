import Testing
@testable import FileIdentification

/// The text readers that work on bytes (the encoding, eight bytes at a time; the markup head, the HTML
/// prefix and CSV lines), each against the rule it implements by characters or byte by byte, kept here as
/// the specification (UTF-8 itself by the standard library's validation), on text, binary data and the
/// boundaries between them.
@Suite("Text readers by bytes")
struct TextReadersTests {
    /// The rule, one byte at a time.
    static func reference(_ bytes: [UInt8]) -> TextEncoding? {
        let slice = bytes[...]
        for (bom, encoding) in [([0xEF, 0xBB, 0xBF], TextEncoding.utf8), ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian),
                                ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian), ([0xFF, 0xFE], .utf16LittleEndian),
                                ([0xFE, 0xFF], .utf16BigEndian)] as [([UInt8], TextEncoding)] where slice.starts(with: bom) {
            return encoding
        }
        var controls = 0
        var highBit = false
        for byte in bytes {
            if byte == 0 { return nil }
            if byte < 0x20, ![0x09, 0x0A, 0x0D, 0x0C, 0x1B, 0x08].contains(byte) { controls += 1 }
            if byte >= 0x80 { highBit = true }
        }
        if !highBit {
            // ISO-2022-KR and -CN: a designation, then SO and SI are no control characters.
            let designations: [([UInt8], TextEncoding)] = [([0x1B, 0x24, 0x29, 0x43], .iso2022KR), ([0x1B, 0x24, 0x29, 0x41], .iso2022CN),
                                                          ([0x1B, 0x24, 0x29, 0x47], .iso2022CN), ([0x1B, 0x24, 0x2A, 0x48], .iso2022CN)]
            for index in bytes.indices where bytes[index] == 0x1B {
                if let (_, encoding) = designations.first(where: { bytes[index...].starts(with: $0.0) }) {
                    let shifts = bytes.filter { $0 == 0x0E || $0 == 0x0F }.count
                    return (controls - shifts) * 100 > bytes.count ? nil : encoding
                }
            }
            return controls * 100 > bytes.count ? nil : .ascii
        }
        if referenceIsUTF8(bytes) { return controls * 100 > bytes.count ? nil : .utf8 }
        return controls * 50 > bytes.count ? nil : .eightBit
    }

    /// Whether bytes are UTF-8 as the readers take them, decided by the standard library's validation (an
    /// oracle that shares none of the readers' code): valid, or valid but for a sequence the sample's end cut,
    /// which some continuation bytes would complete.
    static func referenceIsUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var consumed = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                consumed += encoded.count
            case .emptyInput:
                return true
            case .error(let length):
                // Only the sample's end may cut a sequence: then some continuation bytes complete what is left.
                guard consumed + length == bytes.count, length <= 3 else { return false }
                let tail = Array(bytes[consumed...])
                let continuations: [UInt8] = [0x80, 0x90, 0xA0, 0xBF]  // each bound a second byte may have to meet
                var completions: [[UInt8]] = [[]]
                for _ in 0..<(4 - tail.count) {
                    completions = completions.flatMap { prefix in continuations.map { prefix + [$0] } }
                    if completions.contains(where: { String(validating: tail + $0, as: UTF8.self) != nil }) { return true }
                }
                return false
            }
        }
    }

    @Test("every pair of bytes, and every lead byte with each kind of continuation, inside text and at its end, as the standard library validates UTF-8")
    func everySequence() {
        let text = Array("words ".utf8)
        let kinds: [UInt8] = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
        var compared = 0
        var disagreements: [String] = []
        func check(_ sequence: [UInt8]) {
            for bytes in [text + sequence, text + sequence + text] {
                if TextAnalysis.isUTF8(bytes[...]) != Self.referenceIsUTF8(bytes) {
                    disagreements.append(sequence.map { String($0, radix: 16) }.joined(separator: " ") + (bytes.count > text.count + sequence.count ? " inside" : " at the end"))
                }
                compared += 1
            }
        }
        defer { #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, among them \(disagreements.prefix(8))") }
        for first in 0...255 {
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
            for second in kinds {
                for third in kinds {
                    check([UInt8(first), second, third])
                    for fourth: UInt8 in [0x41, 0x80, 0xBF] { check([UInt8(first), second, third, fourth]) }
                }
            }
        }
        #expect(compared > 250_000)
    }

    @Test("one odd byte at every offset of printable text, in slices that start anywhere")
    func oneByteEverywhere() {
        let text = Array("The quick brown fox jumps over the lazy dog; 0123456789 ~!@#$%^&*()_+{}|:<>?".utf8)
        var compared = 0
        for odd: UInt8 in [0x00, 0x01, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x1A, 0x1B, 0x1C, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xC3, 0xE2, 0xFF] {
            for offset in 0..<text.count {
                var bytes = text
                bytes[offset] = odd
                for start in 0..<9 {
                    let slice = bytes[start...]
                    #expect(TextAnalysis.encoding(of: slice) == Self.reference(Array(slice)), "byte \(odd) at \(offset) from \(start)")
                    #expect(TextAnalysis.isUTF8(slice) == Self.referenceIsUTF8(Array(slice)))
                    compared += 1
                }
            }
        }
        #expect(compared > 8_000)
    }

    @Test("control characters counted, high bits and NULs found sixteen bytes at a time as byte by byte, at any length and alignment")
    func scanAgreesByteByByte() {
        var generator = SplitMix(seed: 41)
        // Printable bytes mostly; each kind of odd byte now and then, NUL rarely.
        let odd: [UInt8] = [0x01, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x1B, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        var outcomes = Set<String>()
        for round in 0..<4_000 {
            let length = Int(generator.next() % 80)
            var bytes = (0..<length).map { _ -> UInt8 in
                let pick = generator.next() % 100
                return pick < 85 ? UInt8(0x20 + generator.next() % 0x5F) : odd[Int(pick % UInt64(odd.count))]
            }
            if length > 0, generator.next() % 8 == 0 { bytes[Int(generator.next() % UInt64(length))] = 0 }
            let start = Int(generator.next() % 4)
            let expected: (controls: Int, highBit: Bool)? = bytes.contains(0) ? nil : (
                bytes.count { $0 < 0x20 && ![0x09, 0x0A, 0x0D, 0x0C, 0x1B, 0x08].contains($0) }, bytes.contains { $0 >= 0x80 })
            // At an offset from an allocation's start, so that the blocks of sixteen fall anywhere.
            let answer = (Array(repeating: 0x41, count: start) + bytes).withUnsafeBufferPointer {
                TextAnalysis.scan(UnsafeBufferPointer(rebasing: $0[start...]))
            }
            #expect(answer?.controls == expected?.controls && answer?.highBit == expected?.highBit, "round \(round): \(bytes)")
            outcomes.insert(answer.map { "\($0.controls > 0) \($0.highBit)" } ?? "NUL")
        }
        #expect(outcomes.count == 5)
    }

    @Test("random bytes, mostly text, with controls, UTF-8 sequences (some cut or malformed) and NULs")
    func randomSamples() {
        var generator = SplitMix(seed: 29)
        let pieces: [[UInt8]] = [Array("plain words ".utf8), [0x0A], [0x0D, 0x0A], [0x09], [0x1B], [0x01], [0x7F],
                                 Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80],
                                 [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0x80], [0xFF], [0x00]]
        var kinds = Set<String>()
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            let length = Int(generator.next() % 400)
            while bytes.count < length {
                // Text most of the time, so that whole printable words alternate with the odd bytes.
                let pick = generator.next() % 100
                let piece = pick < 70 ? pieces[0] : pieces[1 + Int(pick % UInt64(pieces.count - 1))]
                bytes += piece
            }
            let answer = TextAnalysis.encoding(of: bytes[...])
            #expect(answer == Self.reference(bytes), "\(bytes)")
            kinds.insert(answer.map(\.rawValue) ?? "binary")
        }
        // Every outcome was met: the comparison covers each branch.
        #expect(kinds.isSuperset(of: [TextEncoding.ascii.rawValue, "binary", TextEncoding.utf8.rawValue, TextEncoding.eightBit.rawValue]))
    }

    @Test("eight-bit text decoded byte by byte as the code point of its number (ISO 8859-1), as the scalars say, at any length and offset")
    func eightBitDecoding() {
        let every = (0...255).map { UInt8($0) }
        let text = Array("caf\u{E9} na\u{EF}ve".utf8) + [0xE9, 0x20, 0x80, 0x9F, 0xA0, 0xFF, 0x0A]
        let cases: [[UInt8]] = [every, Array(every.reversed()), text, [], [0xFF], [0x41]]
        for bytes in cases {
            for start in [0, 1, 3] where start <= bytes.count {
                let slice = bytes[start...]
                #expect(TextAnalysis.decode(slice, as: .eightBit) == String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) })),
                        "\(bytes.count) bytes from \(start)")
            }
        }
    }

    @Test("the root element past a DOCTYPE with an internal subset or without one, whatever brackets the document holds after it")
    func rootElements() {
        let subset = "<?xml version=\"1.0\"?>\n<!DOCTYPE note [\n<!ELEMENT note (#PCDATA)>\n<!ENTITY a \"b\">\n]>\n<note>x</note>\n"
        let plain = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"svg11.dtd\">\n<svg xmlns=\"http://www.w3.org/2000/svg\">[a]</svg>\n"
        let comment = "<!-- [x] -->\n<!DOCTYPE a>\n<b:root xmlns:b=\"urn:b\">]></b:root>"
        #expect(TextAnalysis.rootElement(subset) == "note")
        #expect(TextAnalysis.rootElement(plain) == "svg")
        #expect(TextAnalysis.rootElement(comment) == "b:root")
        #expect(TextAnalysis.namespaceURI(of: plain, root: "svg", prefix: nil) == "http://www.w3.org/2000/svg")
        #expect(TextAnalysis.namespaceURI(of: comment, root: "b:root", prefix: "b") == "urn:b")
        // An internal subset never closed: the DOCTYPE taken to end at its first ">".
        #expect(TextAnalysis.rootElement("<!DOCTYPE a [ <!ELEMENT a ANY>\n<a/>") == "a")
    }

    @Test("the first characters of a text, cut by bytes where that is the same")
    func prefixes() {
        let long = String(repeating: "abc<def> ", count: 20)
        var texts = [long, "short", "", String(repeating: "\r\n", count: 30), "é" + long, long + "é"]
        for cut in [3, 9, 10, 11] {
            for insert in ["\r\n", "\u{301}", "é", "\r", "\n"] {
                var text = long
                text.insert(contentsOf: insert, at: text.utf8.index(text.startIndex, offsetBy: cut))
                texts.append(text)
            }
        }
        for text in texts {
            for count in [0, 1, 9, 10, 11, 12, 200] {
                #expect(TextAnalysis.prefix(text[...], characters: count) == String(text.prefix(count)), "\(count) of \(text.debugDescription)")
            }
        }
    }

    @Test("an HTML document's start, in any case, as lower-casing says")
    func htmlStarts() {
        for text in ["<!DOCTYPE html>", "<!doctype HTML PUBLIC", "<HTML>", "<html", "<Html lang=en>", "<html\u{301}>", "<htm",
                     "<!doctype htmx", "<!doctype html\u{301}", "\u{130}<html>", "<\u{212A}html>", "<html>\u{301}", "", "<"] {
            let lower = text.lowercased()
            #expect(TextAnalysis.startsHTMLDocument(text) == (lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html")), "\(text.debugDescription)")
        }
    }

    @Test("CSV by bytes agrees with CSV by lines")
    func csv() {
        func reference(_ text: String) -> Bool {
            let lines = text.utf8.prefix(4096).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(20)
            guard lines.count >= 2 else { return false }
            var counts: [Int] = []
            for line in lines.dropLast() {
                var inQuotes = false
                var commas = 0
                for byte in line {
                    if byte == UInt8(ascii: "\"") { inQuotes.toggle() } else if byte == UInt8(ascii: ",") && !inQuotes { commas += 1 }
                }
                counts.append(commas)
            }
            guard let first = counts.first, first >= 1 else { return false }
            return counts.allSatisfy { $0 == first } && counts.count >= 2
        }
        var generator = SplitMix(seed: 7)
        let pieces = ["a", ",", "\"", "\n", "\n\n", "x,y", "\r\n", "é"]
        var answers = Set<Bool>()
        for _ in 0..<4_000 {
            var text = ""
            let length = Int(generator.next() % 120)
            while text.utf8.count < length { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            if generator.next() % 4 == 0 { text = String(repeating: "a,b,\"c,d\"\n", count: Int(generator.next() % 30)) + text }
            let answer = TextAnalysis.isCSV(text)
            #expect(answer == reference(text), "\(text.debugDescription)")
            answers.insert(answer)
        }
        #expect(answers == [true, false])
    }

    @Test("ISO-2022-KR: Korean shifted in and out with SO and SI after its designation is text, not binary; SO and SI without one are control characters")
    func shiftedISO2022() throws {
        // RFC 1557's form: the designation at the start of a line, then words shifted out and back.
        var bytes = Array("\u{1B}$)C\n".utf8)
        for _ in 0..<40 { bytes += [0x0E, 0x47, 0x51, 0x31, 0x5B, 0x0F, 0x20] }  // two Hangul syllables and a space
        bytes += Array("plain ASCII at the end\n".utf8)
        #expect(TextAnalysis.encoding(of: bytes[...]) == .iso2022KR)
        #expect(Self.reference(bytes) == .iso2022KR)
        #expect(TextAnalysis.decode(bytes[...], as: .iso2022KR).hasSuffix("plain ASCII at the end\n"))
        let found = try FileIdentifier().identify(data: bytes, filename: "letter.txt")
        #expect(found.type == .plainText && !found.isMismatch, "\(found.type.identifier)")
        #expect(found.textEncoding == .iso2022KR)
        // The same shifts without the designation: control characters, one in seven bytes.
        let undesignated = Array(bytes.dropFirst(5))
        #expect(TextAnalysis.encoding(of: undesignated[...]) == nil)
        #expect(try FileIdentifier().identify(data: undesignated, filename: "letter.txt").isMismatch)
    }
}
