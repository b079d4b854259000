import Foundation
import Testing
@testable import UniformTypeIdentifiers

/// A binary property list written object by object, for inputs no writer would make.
struct BinaryPlistBuilder {
    var objects: [[UInt8]] = []
    var referenceSize = 4
    var offsetSize = 8

    /// Adds an object's bytes; returns its index.
    @discardableResult
    mutating func add(_ bytes: [UInt8]) -> Int {
        objects.append(bytes)
        return objects.count - 1
    }

    func reference(_ index: Int) -> [UInt8] {
        (0..<referenceSize).reversed().map { UInt8(truncatingIfNeeded: index >> ($0 * 8)) }
    }

    /// An array (or dictionary, with keys then values) marker and its references.
    func container(_ marker: UInt8, _ references: [Int]) -> [UInt8] {
        var bytes: [UInt8]
        let count = marker == 0xD0 ? references.count / 2 : references.count
        if count < 15 {
            bytes = [marker | UInt8(count)]
        } else {
            bytes = [marker | 0x0F, 0x13] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> ($0 * 8)) }
        }
        for index in references { bytes += reference(index) }
        return bytes
    }

    func string(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        precondition(utf8.count < 15)
        return [0x50 | UInt8(utf8.count)] + utf8
    }

    func build(top: Int = 0, objectCount: UInt64? = nil, offsetTable: UInt64? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += (0..<offsetSize).reversed().map { UInt8(truncatingIfNeeded: offset >> ($0 * 8)) } }
        func be64(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) } }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += be64(objectCount ?? UInt64(objects.count)) + be64(UInt64(top)) + be64(offsetTable ?? UInt64(table))
        return bytes
    }
}

@Suite("Property lists from anyone")
struct PropertyListParserTests {
    static let everyKind = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <!-- a comment between elements -->
        <dict>
            <key>string</key><string>a &lt;b&gt; &amp; &quot;c&quot; &#233;&#x1F600;<![CDATA[<raw & kept>]]></string>
            <key>empty</key><string/>
            <key>integer</key><integer>-42</integer>
            <key>hex</key><integer>0x1F</integer>
            <key>real</key><real>2.5</real>
            <key>yes</key><true/>
            <key>no</key><false/>
            <key>date</key><date>2001-01-01T00:00:00Z</date>
            <key>data</key><data>
                aGVs
                bG8=
            </data>
            <key>array</key><array><string>x</string><array/><dict/></array>
        </dict>
        </plist>
        """

    @Test func everyKindOfValueInXML() throws {
        let root = try PropertyListValue.dictionary(from: Array(Self.everyKind.utf8))
        #expect(root["string"] == .string("a <b> & \"c\" é😀<raw & kept>"))
        #expect(root["empty"] == .string(""))
        #expect(root["integer"] == .integer(-42))
        #expect(root["hex"] == .integer(31))
        #expect(root["real"] == .real(2.5))
        #expect(root["yes"] == .boolean(true) && root["no"] == .boolean(false))
        #expect(root["date"] == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(root["data"] == .data(Data("hello".utf8)))
        #expect(root["array"] == .array([.string("x"), .array([]), .dictionary([:])]))
    }

    @Test func binaryAsFoundationWritesIt() throws {
        let object: [String: Any] = [
            "string": "plain", "unicode": "é😀", "integer": -42, "large": Int64.max, "real": 2.5, "yes": true,
            "date": Date(timeIntervalSinceReferenceDate: 86_400), "data": Data([0, 1, 2]),
            "array": ["x", [String](), [String: String]()] as [Any],
        ]
        let bytes = Array(try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
        let root = try PropertyListValue.dictionary(from: bytes)
        #expect(root["string"] == .string("plain") && root["unicode"] == .string("é😀"))
        #expect(root["integer"] == .integer(-42) && root["large"] == .integer(Int.max))
        #expect(root["real"] == .real(2.5) && root["yes"] == .boolean(true))
        #expect(root["date"] == .date(Date(timeIntervalSinceReferenceDate: 86_400)))
        #expect(root["data"] == .data(Data([0, 1, 2])))
        #expect(root["array"] == .array([.string("x"), .array([]), .dictionary([:])]))
    }

    @Test func utf16WithAByteOrderMark() throws {
        let text = "<plist version=\"1.0\"><dict><key>k</key><string>é</string></dict></plist>"
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        #expect(try PropertyListValue.dictionary(from: bytes)["k"] == .string("é"))
    }

    @Test("malformed XML is refused with the line where it goes wrong", arguments: [
        ("<plist>\n<dict>\n<key>a</key>\n<string>x</string>\n</plist>", "line 5"),
        ("<plist>\n<dict>\n<key>a</key><key>b</key>", "line 3"),
        ("<plist><dict><string>no key</string></dict></plist>", "without a <key>"),
        ("<plist><dict><key>a</key><string>x</dict></plist>", "holds an element"),
        ("<plist><integer>12x</integer></plist>", "not an integer"),
        ("<plist><integer>99999999999999999999</integer></plist>", "not an integer"),
        ("<plist><string>&bogus;</string></plist>", "not an entity"),
        ("<plist><unknown/></plist>", "not a property-list element"),
        ("<plist><array></array><array></array></plist>", "a second value"),
        ("<plist><date>yesterday</date></plist>", "not a date"),
        ("", "no value"),
    ])
    func malformedXML(text: String, message: String) {
        let error = #expect(throws: PropertyListError.self) { try PropertyListParser.parse(Array(text.utf8)) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    // MARK: Attacks

    @Test("XML nested 100,000 deep is refused at the depth limit, without a stack overflow", arguments: [1_500, 100_000])
    func deepXML(depth: Int) {
        let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        let error = #expect(throws: PropertyListError.self) { try PropertyListParser.parse(Array(text.utf8)) }
        #expect(error?.message.contains("nested deeper than 64 levels") == true, "\(error?.message ?? "")")
        // Within the limit, the same shape is read.
        let shallow = "<plist>" + String(repeating: "<array>", count: 64) + String(repeating: "</array>", count: 64) + "</plist>"
        #expect(throws: Never.self) { try PropertyListParser.parse(Array(shallow.utf8)) }
    }

    @Test("a binary plist whose objects refer to themselves is refused as a cycle")
    func binaryCycles() {
        var selfReferring = BinaryPlistBuilder()
        selfReferring.add(selfReferring.container(0xA0, [0]))
        let one = #expect(throws: PropertyListError.self) { try PropertyListParser.parse(selfReferring.build()) }
        #expect(one?.message.contains("cycle") == true, "\(one?.message ?? "")")

        var pair = BinaryPlistBuilder()
        pair.add(pair.container(0xD0, [2, 1]))   // { "k": object 1 }
        pair.add(pair.container(0xA0, [0]))      // [ object 0 ]
        pair.add(pair.string("k"))
        let two = #expect(throws: PropertyListError.self) { try PropertyListParser.parse(pair.build()) }
        #expect(two?.message.contains("cycle") == true, "\(two?.message ?? "")")
    }

    @Test("a binary plist 100,000 levels deep is refused at the depth limit")
    func deepBinary() {
        var builder = BinaryPlistBuilder()
        for level in 0..<100_000 { builder.add(level == 99_999 ? [0x08] : builder.container(0xA0, [level + 1])) }
        let error = #expect(throws: PropertyListError.self) { try PropertyListParser.parse(builder.build(), limits: PropertyListLimits(size: 64 << 20)) }
        #expect(error?.message.contains("nested deeper") == true, "\(error?.message ?? "")")
    }

    @Test("objects shared over and over (2^40 paths through 40 arrays) cost at most the value budget")
    func sharedObjects() {
        var builder = BinaryPlistBuilder()
        for level in 0..<40 { builder.add(level == 39 ? [0x09] : builder.container(0xA0, [level + 1, level + 1])) }
        let error = #expect(throws: PropertyListError.self) { try PropertyListParser.parse(builder.build()) }
        #expect(error?.message.contains("more than 1000000 values") == true, "\(error?.message ?? "")")
    }

    @Test("truncated and lying binary plists are refused, never trapped on")
    func lyingBinary() throws {
        var builder = BinaryPlistBuilder()
        builder.add(builder.container(0xA0, [1]))
        builder.add(builder.string("ok"))
        let good = builder.build()
        #expect(try PropertyListParser.parse(good) == .array([.string("ok")]))
        var cases: [[UInt8]] = [
            Array(good.prefix(20)),
            builder.build(objectCount: UInt64.max),
            builder.build(objectCount: 1 << 62),
            builder.build(top: 7),
            builder.build(offsetTable: UInt64.max - 3),
            builder.build(offsetTable: 3),
        ]
        // An array claiming 2^62 entries; a string claiming more bytes than the file.
        var huge = BinaryPlistBuilder()
        huge.add([0xAF, 0x13] + [0x40, 0, 0, 0, 0, 0, 0, 0])
        cases.append(huge.build())
        var long = BinaryPlistBuilder()
        long.add([0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x41])
        cases.append(long.build())
        // An offset pointing past the objects; a reference size of 9; an integer of 2^7 bytes; a UID.
        var past = builder
        past.offsetSize = 8
        var farOffset = past.build()
        farOffset.replaceSubrange((farOffset.count - 32 - 16)..<(farOffset.count - 32 - 8), with: [0x7F, 0, 0, 0, 0, 0, 0, 0])
        cases.append(farOffset)
        var wide = builder.build()
        wide[wide.count - 32 + 7] = 9
        cases.append(wide)
        var bigInteger = BinaryPlistBuilder()
        bigInteger.add([0x17, 1, 2, 3])
        cases.append(bigInteger.build())
        var uid = BinaryPlistBuilder()
        uid.add([0x80, 1])
        cases.append(uid.build())
        for (index, bytes) in cases.enumerated() {
            #expect(throws: PropertyListError.self, "case \(index)") { try PropertyListParser.parse(bytes) }
        }
    }

    @Test func sizeLimit() {
        let bytes = Array("<plist><string>".utf8) + [UInt8](repeating: 0x41, count: 2 << 20) + Array("</string></plist>".utf8)
        let error = #expect(throws: PropertyListError.self) { try PropertyListParser.parse(bytes, limits: PropertyListLimits(size: 1 << 20)) }
        #expect(error?.message == "larger than 1 MiB")
    }
}
