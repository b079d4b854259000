/// A JSON value that keeps its object keys in the order they were given, rendered on one line. Kept beside
/// Foundation's `JSONEncoder`, which orders keys by hash or sorts them: uti's records are documented field by
/// field in a fixed order, and are written as bytes, with no `Encodable` containers, one per file of a tree.
package enum JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    case string(String)
    case integer(Int)
    /// A finite number, written as Swift's shortest form that reads back the same (`0.973`).
    case number(Double)
    case boolean(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .boolean(value) }
    package init(integerLiteral value: Int) { self = .integer(value) }
    package init(nilLiteral: ()) { self = .null }

    package init(_ value: String?) { self = value.map { .string($0) } ?? .null }
    package init(_ value: Int?) { self = value.map { .integer($0) } ?? .null }
    package init(_ values: [String]) { self = .array(values.map { .string($0) }) }

    /// The compact rendering (no spaces, no newline).
    package var rendered: String {
        String(decoding: renderedUTF8, as: UTF8.self)
    }

    /// The compact rendering as UTF-8 bytes (what a server sends).
    package var renderedUTF8: [UInt8] {
        var output = JSONBytes()
        output.value(self)
        return output.bytes
    }

    /// A JSON string. Beyond what JSON requires, C1 controls and the characters that reorder text (bidi
    /// controls) are escaped too, so that what a terminal shows is what the string holds.
    package static func quote<Output: ByteSink & ~Copyable>(_ string: String, into output: inout Output) {
        output.append(UInt8(ascii: "\""))
        // Printable ASCII without '"' or '\\', the common case, goes as it is, in one pass over the bytes in place.
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard PrintableASCII.test(bytes, allowingQuotes: false) else { return false }
            output.append(bytes: bytes)
            return true
        } ?? false
        if !copied {
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": output.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case "\\": output.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case "\n": output.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case "\r": output.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case "\t": output.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x061C, 0x200E, 0x200F].contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value):
                    let hex = String(scalar.value, radix: 16)
                    output.append(utf8: "\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                default: UTF8.encode(scalar) { output.append($0) }
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
