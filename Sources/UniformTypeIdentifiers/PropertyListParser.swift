#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// A property list that was refused: where (an XML line, a binary object's offset) and why.
package struct PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}

/// What a property list may cost before it is refused. Real `Info.plist` and declaration files are a few
/// kilobytes, a handful of levels deep.
package struct PropertyListLimits: Sendable, Hashable {
    /// The most bytes read.
    package var size: Int
    /// The deepest nesting of arrays and dictionaries.
    package var depth: Int
    /// The most values produced (a binary plist can refer to one object from many places).
    package var values: Int

    package init(size: Int = 16 << 20, depth: Int = 64, values: Int = 1_000_000) {
        self.size = size
        self.depth = depth
        self.values = values
    }
}

/// Kept beside Foundation's `PropertyListDecoder` for its limits: manifests and declaration files come from
/// anyone, and each bound here is one the tests drive a hostile file against, the refusal naming where.
///
/// A parser of XML and binary property lists into `PropertyListValue`, for files from anyone: every
/// length and offset read is checked before it is used, nesting is followed with an explicit stack (never
/// by recursion on the input's depth) up to `PropertyListLimits.depth`, a binary plist's references are
/// checked for cycles, and the work is bounded by `PropertyListLimits`.
///
/// XML: Apple's DTD (`plist`, `dict`, `key`, `array`, `string`, `integer` (decimal or `0x` hex), `real`,
/// `true`, `false`, `date` (ISO 8601, UTC), `data` (base64)); the XML declaration, a DOCTYPE, comments,
/// processing instructions, CDATA sections, the five named entities and character references; UTF-8 (a
/// byte-order mark is skipped) or UTF-16 with a byte-order mark. Binary: `bplist00` with every object kind
/// but UIDs; sets are read as arrays. A key repeated in a dictionary keeps its last value, as
/// CoreFoundation does.
package enum PropertyListParser {
    package static func parse(_ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits()) throws(PropertyListError) -> PropertyListValue {
        guard bytes.count <= limits.size else {
            throw PropertyListError("larger than \(limits.size >> 20 > 0 ? "\(limits.size >> 20) MiB" : "\(limits.size) bytes")")
        }
        if bytes.starts(with: Array("bplist0".utf8)) {
            var reader = BinaryPropertyListReader(bytes: bytes, limits: limits)
            return try reader.parse()
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            let bigEndian = bytes[0] == 0xFE
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = 2
            while index + 1 < bytes.count {
                units.append(bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]) : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index]))
                index += 2
            }
            var reader = XMLPropertyListReader(bytes: Array(String(decoding: units, as: UTF16.self).utf8), limits: limits)
            return try reader.parse()
        }
        var reader = XMLPropertyListReader(bytes: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, limits: limits)
        return try reader.parse()
    }
}

// MARK: - XML

private struct XMLPropertyListReader {
    let bytes: [UInt8]
    let limits: PropertyListLimits
    var position = 0
    var produced = 0

    init(bytes: [UInt8], limits: PropertyListLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// A container being read.
    enum Frame {
        case array([PropertyListValue])
        case dictionary([String: PropertyListValue], key: String?)
    }

    /// One piece of markup.
    enum Tag {
        case open(String)
        case close(String)
        case empty(String)
    }

    func line(at offset: Int) -> Int {
        1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    func failure(_ message: String, at offset: Int? = nil) -> PropertyListError {
        PropertyListError("line \(line(at: offset ?? position)): \(message)")
    }

    mutating func parse() throws(PropertyListError) -> PropertyListValue {
        var stack: [Frame] = []
        var root: PropertyListValue?
        var insidePlist = false
        while true {
            skipWhitespace()
            guard position < bytes.count else {
                if let root, stack.isEmpty { return root }
                throw failure(stack.isEmpty ? "no value" : "ends inside <\(stack.last.map { if case .array = $0 { "array" } else { "dict" } } ?? "")>")
            }
            guard bytes[position] == UInt8(ascii: "<") else { throw failure("text outside an element") }
            if try skipMarkupDeclaration() { continue }
            let tagStart = position
            let tag = try readTag()
            var value: PropertyListValue?
            switch tag {
            case .open("plist") where stack.isEmpty && root == nil && !insidePlist:
                insidePlist = true
                continue
            case .close("plist") where stack.isEmpty && insidePlist:
                insidePlist = false
                guard root != nil else { throw failure("<plist> holds no value", at: tagStart) }
                continue
            case .empty("plist") where stack.isEmpty && root == nil:
                throw failure("<plist> holds no value", at: tagStart)
            case .open("array"), .open("dict"):
                guard root == nil else { throw failure("a second value after the top one", at: tagStart) }
                guard stack.count < limits.depth else { throw failure("arrays and dictionaries nested deeper than \(limits.depth) levels", at: tagStart) }
                if case .dictionary(_, nil) = stack.last { throw failure("a value without a <key> in <dict>", at: tagStart) }
                if case .open("array") = tag { stack.append(.array([])) } else { stack.append(.dictionary([:], key: nil)) }
                continue
            case .close(let name) where name == "array" || name == "dict":
                guard let frame = stack.popLast() else { throw failure("</\(name)> closes nothing", at: tagStart) }
                switch frame {
                case .array(let items):
                    guard name == "array" else { throw failure("</dict> closes an <array>", at: tagStart) }
                    value = .array(items)
                case .dictionary(let entries, let key):
                    guard name == "dict" else { throw failure("</array> closes a <dict>", at: tagStart) }
                    if let key { throw failure("<key>\(key)</key> has no value", at: tagStart) }
                    value = .dictionary(entries)
                }
            case .empty("array"): value = .array([])
            case .empty("dict"): value = .dictionary([:])
            case .open("key"):
                let key = try readText(closing: "key")
                guard case .dictionary(let entries, nil) = stack.last else {
                    throw failure(stack.last == nil ? "<key> outside a <dict>" : "<key> where a value was expected", at: tagStart)
                }
                stack[stack.count - 1] = .dictionary(entries, key: key)
                continue
            case .empty("key"):
                guard case .dictionary(let entries, nil) = stack.last else { throw failure("<key/> outside a <dict>", at: tagStart) }
                stack[stack.count - 1] = .dictionary(entries, key: "")
                continue
            case .open("string"): value = .string(try readText(closing: "string"))
            case .empty("string"): value = .string("")
            case .open("integer"):
                let text = try readText(closing: "integer")
                guard let number = Self.integer(text) else { throw failure("'\(text)' is not an integer (or does not fit 64 bits)", at: tagStart) }
                value = .integer(number)
            case .open("real"):
                let text = try readText(closing: "real").trimming(while: \.isWhitespace)
                guard let number = Double(text) else { throw failure("'\(text)' is not a real number", at: tagStart) }
                value = .real(number)
            case .empty("true"): value = .boolean(true)
            case .empty("false"): value = .boolean(false)
            case .open("true"):
                _ = try readText(closing: "true")
                value = .boolean(true)
            case .open("false"):
                _ = try readText(closing: "false")
                value = .boolean(false)
            case .open("date"):
                let text = try readText(closing: "date")
                guard let date = Self.date(text.trimming(while: \.isWhitespace)) else { throw failure("'\(text)' is not a date (YYYY-MM-DDTHH:MM:SSZ)", at: tagStart) }
                value = .date(date)
            case .open("data"):
                let text = try readText(closing: "data")
                guard let data = Data(base64Encoded: String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))) else {
                    throw failure("<data> is not base64", at: tagStart)
                }
                value = .data(data)
            case .empty("data"): value = .data(Data())
            case .open(let name), .empty(let name):
                throw failure("<\(name)> is not a property-list element", at: tagStart)
            case .close(let name):
                throw failure("</\(name)> closes nothing open", at: tagStart)
            }
            guard let value else { continue }
            produced += 1
            guard produced <= limits.values else { throw failure("more than \(limits.values) values") }
            guard let top = stack.popLast() else {
                guard root == nil else { throw failure("a second value after the top one", at: tagStart) }
                root = value
                continue
            }
            switch top {
            case .array(var items):
                items.append(value)
                stack.append(.array(items))
            case .dictionary(var entries, let key):
                guard let key else { throw failure("a value without a <key> in <dict>", at: tagStart) }
                entries[key] = value
                stack.append(.dictionary(entries, key: nil))
            }
        }
    }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    func hasPrefix(_ text: String, at offset: Int) -> Bool {
        let pattern = Array(text.utf8)
        guard offset + pattern.count <= bytes.count else { return false }
        return bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }

    /// Moves past `terminator` from `position`; false when it never comes.
    mutating func skip(past terminator: String) -> Bool {
        let pattern = Array(terminator.utf8)
        guard let first = pattern.first else { return true }
        var index = position
        while index + pattern.count <= bytes.count {
            if bytes[index] == first && bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                position = index + pattern.count
                return true
            }
            index += 1
        }
        return false
    }

    /// Skips `<?...?>`, `<!--...-->` and `<!DOCTYPE ...>` at `position`; false when there is none.
    mutating func skipMarkupDeclaration() throws(PropertyListError) -> Bool {
        let start = position
        if hasPrefix("<?", at: position) {
            guard skip(past: "?>") else { throw failure("an unterminated processing instruction", at: start) }
            return true
        }
        if hasPrefix("<!--", at: position) {
            position += 4
            guard skip(past: "-->") else { throw failure("an unterminated comment", at: start) }
            return true
        }
        if hasPrefix("<!DOCTYPE", at: position) {
            // Up to the '>' that is not inside an internal subset [...] or quotes.
            var bracket = false
            var quote: UInt8?
            position += 9
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == 0x22 || byte == 0x27 {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    bracket = true
                } else if byte == UInt8(ascii: "]") {
                    bracket = false
                } else if byte == UInt8(ascii: ">") && !bracket {
                    return true
                }
            }
            throw failure("an unterminated DOCTYPE", at: start)
        }
        return false
    }

    /// `<name attributes>`, `<name/>` or `</name>` at `position`.
    mutating func readTag() throws(PropertyListError) -> Tag {
        let start = position
        position += 1
        let closing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
        if closing { position += 1 }
        let nameStart = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > nameStart else { throw failure("'<' that starts no element", at: start) }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case 0x22, 0x27: quote = byte
            case UInt8(ascii: ">"):
                if closing { return .close(name) }
                return bytes[position - 2] == UInt8(ascii: "/") ? .empty(name) : .open(name)
            case UInt8(ascii: "<"): throw failure("<\(name) is not closed with '>'", at: start)
            default: continue
            }
        }
        throw failure("<\(name) is not closed with '>'", at: start)
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }

    /// The text of an element up to `</name>`: entities decoded, CDATA taken as it is, comments skipped;
    /// no element may be nested in it.
    mutating func readText(closing name: String) throws(PropertyListError) -> String {
        let start = position
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if hasPrefix("<![CDATA[", at: position) {
                    let contentStart = position + 9
                    position = contentStart
                    guard skip(past: "]]>") else { throw failure("an unterminated CDATA section", at: start) }
                    text += bytes[contentStart..<(position - 3)]
                    continue
                }
                if hasPrefix("<!--", at: position) {
                    position += 4
                    guard skip(past: "-->") else { throw failure("an unterminated comment", at: start) }
                    continue
                }
                let tagStart = position
                guard case .close(let closed) = try readTag(), closed == name else {
                    throw failure("<\(name)> holds an element; it may hold only text", at: tagStart)
                }
                return String(decoding: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "&") {
                text += try readEntity()
                continue
            }
            text.append(byte)
            position += 1
        }
        throw failure("<\(name)> is never closed", at: start)
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#N;` `&#xN;` at `position`, as UTF-8.
    mutating func readEntity() throws(PropertyListError) -> [UInt8] {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw failure("'&' that starts no entity", at: start) }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        position = end + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [0x22]
        case "apos": return [0x27]
        default:
            var digits = Substring(name)
            guard digits.first == "#" else { throw failure("&\(name); is not an entity of property lists", at: start) }
            digits = digits.dropFirst()
            let hex = digits.first == "x" || digits.first == "X"
            if hex { digits = digits.dropFirst() }
            guard let code = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(code), code != 0 else {
                throw failure("&\(name); is not a character", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// Decimal, or `0x` hexadecimal, with an optional sign; what fits 64 bits.
    static func integer(_ text: String) -> Int? {
        var digits = Substring(text.trimming(while: \.isWhitespace))
        var negative = false
        if digits.first == "-" || digits.first == "+" {
            negative = digits.first == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else { return nil }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int.min : -Int(magnitude)
        }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, and nothing else.
    static func date(_ text: String) -> Date? { ISO8601Dates.date(text) }
}


// MARK: - Binary

private struct BinaryPropertyListReader {
    let bytes: [UInt8]
    let limits: PropertyListLimits
    var offsetSize = 0
    var referenceSize = 0
    var objectCount = 0
    var offsetTable = 0
    /// Where objects may lie: before the trailer.
    var objectsEnd = 0

    init(bytes: [UInt8], limits: PropertyListLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// A container being read: its object, its kind, the references it holds, what was read of them.
    struct Frame {
        var object: Int
        var isDictionary: Bool
        var references: [Int]
        var values: [PropertyListValue] = []
        /// The values in it, itself included, counting a shared object each time it is referred to.
        var weight = 1
    }

    /// A big-endian unsigned number of `size` (1 to 8) bytes at `offset`, inside bounds checked here.
    func number(at offset: Int, size: Int) throws(PropertyListError) -> UInt64 {
        guard size >= 1, size <= 8, offset >= 0, offset <= bytes.count - size else {
            throw PropertyListError("a \(size)-byte number at offset \(offset) lies outside the file")
        }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    mutating func parse() throws(PropertyListError) -> PropertyListValue {
        guard bytes.count >= 8 + 32 + 1 else { throw PropertyListError("a binary property list too short for its trailer") }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw PropertyListError("binary trailer: offset size \(offsetSize) or reference size \(referenceSize) is not 1 to 8")
        }
        let count = try number(at: trailer + 8, size: 8)
        let top = try number(at: trailer + 16, size: 8)
        let table = try number(at: trailer + 24, size: 8)
        guard count >= 1, count <= UInt64(trailer), top < count, table >= 8, table < UInt64(trailer) else {
            throw PropertyListError("binary trailer: \(count) objects, top object \(top), offset table at \(table): not within the file")
        }
        objectCount = Int(count)
        offsetTable = Int(table)
        let (tableLength, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
        guard !overflow, tableLength <= trailer - offsetTable else {
            throw PropertyListError("binary trailer: an offset table of \(objectCount) entries does not fit the file")
        }
        objectsEnd = trailer
        return try value(of: Int(top))
    }

    func offset(of object: Int) throws(PropertyListError) -> Int {
        let offset = try number(at: offsetTable + object * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(objectsEnd) else { throw PropertyListError("object \(object): offset \(offset) lies outside the file") }
        return Int(offset)
    }

    /// The length that follows a marker whose low nibble is `info` (15: an integer object follows), and
    /// where the content starts.
    func length(info: UInt8, after offset: Int, object: Int) throws(PropertyListError) -> (length: Int, start: Int) {
        guard info == 0x0F else { return (Int(info), offset + 1) }
        guard offset + 1 < objectsEnd else { throw PropertyListError("object \(object): its length lies outside the file") }
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw PropertyListError("object \(object): its length is not an integer") }
        let size = 1 << Int(marker & 0x0F)
        let value = try number(at: offset + 2, size: size)
        guard value <= UInt64(objectsEnd) else { throw PropertyListError("object \(object): a length of \(value) is larger than the file") }
        return (Int(value), offset + 2 + size)
    }

    /// Checks that `count` units of `unit` bytes from `start` lie inside the objects; returns the end.
    func span(_ start: Int, count: Int, unit: Int, object: Int) throws(PropertyListError) -> Int {
        let (length, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, start <= objectsEnd, length <= objectsEnd - start else {
            throw PropertyListError("object \(object) at offset \(start): \(count) items run past the end of the file")
        }
        return start + length
    }

    /// The object's value; containers are followed with an explicit stack, each object on the way checked
    /// against those that contain it (a reference cycle).
    mutating func value(of root: Int) throws(PropertyListError) -> PropertyListValue {
        var stack: [Frame] = []
        var onPath = Set<Int>()
        // Each object is read once; a shared one is reused, and counted again (its weight) each time.
        var finished: [Int: (value: PropertyListValue, weight: Int)] = [:]
        var pending: Int? = root
        var result: (value: PropertyListValue, weight: Int)?
        while true {
            if let object = pending {
                pending = nil
                guard object >= 0, object < objectCount else { throw PropertyListError("a reference to object \(object), of \(objectCount)") }
                if let done = finished[object] {
                    result = done
                } else {
                    guard !onPath.contains(object) else {
                        throw PropertyListError("object \(object) contains itself (a reference cycle)")
                    }
                    switch try read(object) {
                    case .value(let value):
                        finished[object] = (value, 1)
                        result = (value, 1)
                    case .container(let frame):
                        guard stack.count < limits.depth else {
                            throw PropertyListError("arrays and dictionaries nested deeper than \(limits.depth) levels (object \(object))")
                        }
                        onPath.insert(object)
                        stack.append(frame)
                    }
                }
            }
            if let (value, weight) = result {
                result = nil
                guard !stack.isEmpty else { return value }
                stack[stack.count - 1].values.append(value)
                stack[stack.count - 1].weight += weight
                guard stack[stack.count - 1].weight <= limits.values else {
                    throw PropertyListError("more than \(limits.values) values (objects referred to over and over)")
                }
            }
            // The next reference of the innermost container, or the container itself when it is complete.
            guard var frame = stack.last else { throw PropertyListError("no value") }
            if frame.values.count < frame.references.count {
                pending = frame.references[frame.values.count]
                continue
            }
            stack.removeLast()
            onPath.remove(frame.object)
            let value: PropertyListValue
            if frame.isDictionary {
                let half = frame.references.count / 2
                var entries: [String: PropertyListValue] = [:]
                entries.reserveCapacity(half)
                for index in 0..<half {
                    guard case .string(let key) = frame.values[index] else {
                        throw PropertyListError("object \(frame.object): a dictionary key that is not a string")
                    }
                    entries[key] = frame.values[half + index]
                }
                value = .dictionary(entries)
            } else {
                value = .array(frame.values)
            }
            frame.values = []
            finished[frame.object] = (value, frame.weight)
            result = (value, frame.weight)
        }
    }

    enum Read {
        case value(PropertyListValue)
        case container(Frame)
    }

    func read(_ object: Int) throws(PropertyListError) -> Read {
        let offset = try offset(of: object)
        let marker = bytes[offset]
        let info = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .value(.boolean(false))
            case 0x09: return .value(.boolean(true))
            default: throw PropertyListError("object \(object): marker 0x\(String(marker, radix: 16)) is not a value")
            }
        case 0x1:
            guard info <= 4 else { throw PropertyListError("object \(object): an integer of 2^\(info) bytes") }
            let size = 1 << Int(info)
            if size == 16 {
                // 128 bits: the high half must only extend the sign of the low half.
                let high = try number(at: offset + 1, size: 8), low = try number(at: offset + 9, size: 8)
                guard (high == 0 && low <= UInt64(Int.max)) || (high == UInt64.max && low > UInt64(Int.max)) else {
                    throw PropertyListError("object \(object): an integer that does not fit 64 bits")
                }
                return .value(.integer(Int(bitPattern: UInt(low))))
            }
            let raw = try number(at: offset + 1, size: size)
            // 8-byte integers are signed; shorter ones are not.
            return .value(.integer(size == 8 ? Int(bitPattern: UInt(raw)) : Int(raw)))
        case 0x2:
            guard info == 2 || info == 3 else { throw PropertyListError("object \(object): a real of 2^\(info) bytes") }
            let raw = try number(at: offset + 1, size: 1 << Int(info))
            return .value(.real(info == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)))
        case 0x3:
            guard marker == 0x33 else { throw PropertyListError("object \(object): marker 0x\(String(marker, radix: 16)) is not a date") }
            let seconds = Double(bitPattern: try number(at: offset + 1, size: 8))
            guard seconds.isFinite else { throw PropertyListError("object \(object): a date that is not a number") }
            return .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case 0x4, 0x5, 0x6, 0x7:
            let (count, start) = try length(info: info, after: offset, object: object)
            let unit = marker >> 4 == 0x6 ? 2 : 1
            let end = try span(start, count: count, unit: unit, object: object)
            let content = bytes[start..<end]
            switch marker >> 4 {
            case 0x4: return .value(.data(Data(content)))
            case 0x5:
                guard content.allSatisfy({ $0 < 0x80 }) else { throw PropertyListError("object \(object): an ASCII string that is not ASCII") }
                return .value(.string(String(decoding: content, as: UTF8.self)))
            case 0x7: return .value(.string(String(decoding: content, as: UTF8.self)))
            default:
                var units: [UInt16] = []
                units.reserveCapacity(count)
                var index = start
                while index < end {
                    units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                    index += 2
                }
                return .value(.string(String(decoding: units, as: UTF16.self)))
            }
        case 0x8:
            throw PropertyListError("object \(object): a UID (an archived object graph), not a property list")
        case 0xA, 0xC, 0xD:
            let (count, start) = try length(info: info, after: offset, object: object)
            let isDictionary = marker >> 4 == 0xD
            let (references, overflow) = count.multipliedReportingOverflow(by: isDictionary ? 2 : 1)
            guard !overflow else { throw PropertyListError("object \(object): \(count) entries") }
            _ = try span(start, count: references, unit: referenceSize, object: object)
            var list: [Int] = []
            list.reserveCapacity(references)
            for index in 0..<references {
                let reference = try number(at: start + index * referenceSize, size: referenceSize)
                guard reference < UInt64(objectCount) else {
                    throw PropertyListError("object \(object): a reference to object \(reference), of \(objectCount)")
                }
                list.append(Int(reference))
            }
            return .container(Frame(object: object, isDictionary: isDictionary, references: list))
        default:
            throw PropertyListError("object \(object): marker 0x\(String(marker, radix: 16)) is not a property-list object")
        }
    }
}
