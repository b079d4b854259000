/// A JSON reader for small configuration files from outside the project (Magika's `config.min.json`):
/// bounded in size, nesting and the number of values, so that a hostile or damaged file costs little and
/// fails with a reason instead of exhausting the stack or the memory.
enum BoundedJSON: Equatable, Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case array([BoundedJSON])
    /// Members in file order; a repeated key keeps its last value when looked up.
    case object([(String, BoundedJSON)])

    /// The limits one reading keeps to.
    struct Limits: Sendable {
        var bytes = 1 << 20
        var depth = 32
        var values = 100_000
    }

    /// Why a document was not read, and where.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    static func == (lhs: BoundedJSON, rhs: BoundedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.boolean(let a), .boolean(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object (the last, when repeated); `nil` for other values.
    subscript(key: String) -> BoundedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var array: [BoundedJSON]? { if case .array(let value) = self { value } else { nil } }
    var members: [(String, BoundedJSON)]? { if case .object(let value) = self { value } else { nil } }

    /// An integer member within `range`, when the value is one exactly.
    func integer(in range: ClosedRange<Int>) -> Int? {
        guard let number, number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else { return nil }
        return Int(number)
    }

    /// Reads one JSON document (surrounding white space allowed, nothing after it).
    static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(Failure) -> BoundedJSON {
        guard bytes.count <= limits.bytes else { throw Failure(offset: 0, reason: "larger than \(limits.bytes) bytes") }
        var reader = Reader(bytes: bytes, limits: limits)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw Failure(offset: reader.index, reason: "text after the document") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let limits: Limits
        var index = 0
        var values = 0

        init(bytes: [UInt8], limits: Limits) {
            self.bytes = bytes
            self.limits = limits
        }

        func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ word: String) throws(Failure) {
            for byte in word.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(word)") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(Failure) -> BoundedJSON {
            guard depth < limits.depth else { throw fail("nested deeper than \(limits.depth)") }
            values += 1
            guard values <= limits.values else { throw fail("more than \(limits.values) values") }
            guard index < bytes.count else { throw fail("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(String, BoundedJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw fail("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [BoundedJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw fail("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .boolean(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .boolean(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default:
                return .number(try number())
            }
        }

        mutating func number() throws(Failure) -> Double {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected a value") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw fail("expected digits after the decimal point") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw fail("expected an exponent") }
            }
            // At most a few hundred characters: a longer number is no configuration's.
            guard index - start <= 400, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
                throw Failure(offset: start, reason: "a number out of range")
            }
            return value
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("unexpected end in an escape") }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw fail("a bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }

        mutating func string() throws(Failure) -> String {
            index += 1  // the opening quote
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ end: Int) throws(Failure) {
                guard run < end else { return }
                guard let text = String(validating: bytes[run..<end], as: UTF8.self) else { throw Failure(offset: run, reason: "a string that is not UTF-8") }
                scalars.append(contentsOf: text.unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw fail("unexpected end in a string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try flush(index)
                    index += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw fail("a control character in a string") }
                guard byte == UInt8(ascii: "\\") else { index += 1; continue }
                try flush(index)
                index += 1
                guard index < bytes.count else { throw fail("unexpected end in an escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("a lone surrogate") }
                    scalars.append(scalar)
                default:
                    throw fail("an unknown escape")
                }
                run = index
            }
        }
    }
}
