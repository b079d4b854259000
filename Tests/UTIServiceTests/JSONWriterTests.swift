import Foundation
import Testing
import FileIdentification
import UTIReports

/// The JSON the service answers and `uti identify --json` prints is written straight into bytes
/// (`JSONBytes`, over a `ByteWriter`), and the same report is also built as a tree (`JSONTreeBuilder`) for
/// callers that add to it: both from one `write(to:)`. These hold the two to each other and to a JSON parser.
@Suite("JSON written as bytes and as trees")
struct JSONWriterTests {
    /// Every kind of character the writer escapes, and some it does not.
    static let awkward = [
        "", "plain", "quote \" and backslash \\", "line\nfeed\rreturn\ttab", "\u{0}\u{1}\u{1F}\u{7F}\u{80}\u{9F}",
        "bidi \u{202E}reversed\u{202C} \u{2066}isolate\u{2069} \u{200E}\u{200F}\u{061C}", "Grüße 𝄞 日本語", String(repeating: "long ", count: 400),
    ]

    @Test("a document written into a writer that starts at 16 bytes and grows reads back as the values written, every escape included")
    func bytesReadBack() throws {
        var bytes = JSONBytes(capacity: 16)
        bytes.beginObject()
        for (index, text) in Self.awkward.enumerated() {
            bytes.key("k\(index) \(text)")
            bytes.beginArray()
            bytes.string(text)
            bytes.integer(index - 3)
            bytes.number(0.5)
            bytes.boolean(index % 2 == 0)
            bytes.null()
            bytes.string(nil as String?)
            bytes.endArray()
        }
        bytes.endObject()
        let rendered = bytes.bytes
        #expect(rendered.count > 2_000, "the writer grew well past its first 16 bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(rendered)) as? [String: [Any]])
        #expect(object.count == Self.awkward.count)
        for (index, text) in Self.awkward.enumerated() {
            let values = try #require(object["k\(index) \(text)"], "k\(index)")
            #expect(values.count == 6)
            #expect(values.first as? String == text, "\(index)")
            #expect((values[1] as? NSNumber)?.intValue == index - 3)
            #expect((values[2] as? NSNumber)?.doubleValue == 0.5)
            #expect(values[4] is NSNull && values[5] is NSNull)
        }
        // Nothing but printable ASCII is written where an escape is due (C0, C1 and bidi controls).
        let text = String(decoding: rendered, as: UTF8.self)
        for scalar in text.unicodeScalars {
            #expect(!(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                      || (0x2066...0x2069).contains(scalar.value)), "U+\(String(scalar.value, radix: 16)) written as it is")
        }
    }

    @Test("a character JSON must escape, or one uti escapes, is escaped wherever it stands in a string, eight bytes at a time or after them")
    func escapesAtEveryPlace() throws {
        let specials: [String] = ["\u{0}", "\u{1F}", "\"", "\\", "\u{7F}", "\u{85}", "\u{202E}", "é"]
        let neighbours: [String] = [" ", "!", "#", "[", "]", "~"]  // 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E: written as they are
        for length in [1, 7, 8, 9, 16, 17, 24] {
            for place in 0..<length {
                for special in specials + neighbours {
                    var characters = Array(repeating: "a", count: length)
                    characters[place] = special
                    let text = characters.joined()
                    var quoted: [UInt8] = []
                    JSONValue.quote(text, into: &quoted)
                    let read = try JSONSerialization.jsonObject(with: Data(quoted), options: .fragmentsAllowed) as? String
                    #expect(read == text, "\(special.unicodeScalars.map { $0.value }) at \(place) of \(length)")
                    if neighbours.contains(special) {
                        #expect(String(decoding: quoted, as: UTF8.self) == "\"\(text)\"", "\(special) at \(place) of \(length) is written as it is")
                    } else if special != "é" {
                        #expect(quoted.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(special.unicodeScalars.map { $0.value }) at \(place) of \(length) is escaped")
                    }
                }
            }
        }
    }

    @Test("a tree built by the writer and the same calls written as bytes are one document; a tree written back is the same bytes")
    func treeAndBytesAgree() throws {
        func document<Writer: JSONWriter & ~Copyable>(_ writer: inout Writer) {
            writer.beginObject()
            writer.key("empty object")
            writer.beginObject()
            writer.endObject()
            writer.key("empty array")
            writer.beginArray()
            writer.endArray()
            writer.key(JSONKey("nested"))
            writer.beginArray()
            for text in Self.awkward {
                writer.beginObject()
                writer.key(text)
                writer.strings([text, text])
                writer.endObject()
            }
            writer.endArray()
            writer.key("made before")
            writer.value(.object([("a", .array([.integer(1), .null, .boolean(false)])), ("b", .number(1e-3))]))
            writer.endObject()
        }
        var tree = JSONTreeBuilder()
        document(&tree)
        var bytes = JSONBytes(capacity: 16)
        document(&bytes)
        #expect(tree.value.rendered == String(decoding: bytes.bytes, as: UTF8.self))
        guard case .object(let members) = tree.value else {
            Issue.record("not an object: \(tree.value.rendered)")
            return
        }
        #expect(members.map(\.0) == ["empty object", "empty array", "nested", "made before"])
    }

    @Test("identifications' reports, as bytes and as trees, are the same JSON, and say what the identification says")
    func reportsAgree() throws {
        let identifier = FileIdentifier(), pronom = FileIdentifier().withPronom
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)
        let cases: [(FileIdentifier, [UInt8], String?)] = [
            (identifier, png, "photo.png"), (pronom, png, "photo.png"), (identifier, png, "lies.txt"),
            (identifier, Array("#!/usr/bin/env python3\nprint('hi')\n".utf8), "script"),
            (identifier, Array("<html><body>Grüße</body></html>\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "page.html"),
            (pronom, Array("%PDF-1.4\n%\u{E2}\u{E3}\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n".utf8), "a.pdf"),
            (identifier, [], "empty.json"), (identifier, Array("a,b\n1,2\n".utf8), nil),
        ]
        for (identifier, bytes, name) in cases {
            let identification = try identifier.identify(data: bytes, filename: name)
            for path in [name ?? "-", "odd \"path\"\n\u{202E}.txt"] {
                let report = IdentificationReport(identification, path: path, pathEscaped: path.hasPrefix("odd"))
                let rendered = report.renderedUTF8
                #expect(String(decoding: rendered, as: UTF8.self) == report.json.rendered, "\(path)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(rendered)) as? [String: Any], "\(path)")
                #expect(object["path"] as? String == path)
                #expect(object["identifier"] as? String == identification.type.identifier)
                #expect(object["mimeType"] as? String == identification.mimeType)
                #expect((object["mismatch"] as? NSNumber)?.boolValue == identification.isMismatch)
                #expect((object["pathEscaped"] as? NSNumber)?.boolValue == (path.hasPrefix("odd") ? true : nil))
                #expect((object["pronom"] != nil) == (identification.pronom != nil), "\(path): \(identification.type.identifier)")
                let evidence = try #require(object["evidence"] as? [String: Any])
                #expect(evidence["rule"] as? String == identification.evidence.rule.rawValue)
                #expect((evidence["otherReadings"] as? [Any])?.count == identification.evidence.otherReadings.count)
            }
        }
    }
}
