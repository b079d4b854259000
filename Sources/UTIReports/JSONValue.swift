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
        var output: [UInt8] = []
        output.reserveCapacity(512)
        render(into: &output)
        return output
    }

    private func render(into output: inout [UInt8]) {
        switch self {
        case .string(let string): JSONValue.quote(string, into: &output)
        case .integer(let number): output.append(contentsOf: String(number).utf8)
        case .number(let number): output.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
        case .boolean(let flag): output.append(contentsOf: flag ? Self.trueBytes : Self.falseBytes)
        case .null: output.append(contentsOf: Self.nullBytes)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.render(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.quote(key, into: &output)
                output.append(UInt8(ascii: ":"))
                value.render(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8), nullBytes = Array("null".utf8)

    /// A JSON string. Beyond what JSON requires, C1 controls and the characters that reorder text (bidi
    /// controls) are escaped too, so that what a terminal shows is what the string holds.
    package static func quote(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Printable ASCII without '"' or '\\', the common case, goes as it is.
        var string = string
        let plain = string.withUTF8 { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        if plain {
            string.withUTF8 { output.append(contentsOf: $0) }
        } else {
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case "\\": output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case "\n": output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case "\r": output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case "\t": output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x061C, 0x200E, 0x200F].contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value):
                    let hex = String(scalar.value, radix: 16)
                    output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: UTF8.encode(scalar) { output.append($0) }
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
