/// The codec for dynamic type identifiers (`dyn.a…`), byte-identical to Apple's.
///
/// A dynamic identifier stands for a tag that no declared type claims. Its payload is a
/// colon-separated list of `key=value` pairs, preceded by `?` when it records a conformance:
///
///     ?0=6:1=md          => dyn.ah62d4rv4ge8043a   (extension md, conforming to public.data)
///     1=ogg              => dyn.age80835h           (extension ogg, no conformance)
///
/// Frequent keys and conformances are written as one character (`0` UTTypeConformsTo, `1`
/// public.filename-extension, `3` public.mime-type, `6` public.data, ...). The payload's UTF-8
/// bytes are cut into 5-bit groups, most significant bit first, the last group padded with
/// zero bits, each group written with the alphabet `abcdefghkmnpqrstuvwxyz0123456789`; the
/// result follows the prefix `dyn.a`.
///
/// Characters that would break the payload's structure (`:`, `=`, `\`) are escaped with a
/// backslash. Apple does not document this case; no valid extension contains them.
struct DynamicTypeIdentifier: Hashable, Sendable {
    /// The types the dynamic type conforms to, in payload order.
    var conformsTo: [String]
    /// The tags, in payload order: tag class identifier and tag.
    var tags: [(tagClass: String, tag: String)]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.conformsTo == rhs.conformsTo
            && lhs.tags.map(\.tagClass) == rhs.tags.map(\.tagClass)
            && lhs.tags.map(\.tag) == rhs.tags.map(\.tag)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(conformsTo)
        for pair in tags {
            hasher.combine(pair.tagClass)
            hasher.combine(pair.tag)
        }
    }

    static let prefix = "dyn.a"
    private static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)
    private static let alphabetIndex: [UInt8: UInt8] = {
        var index: [UInt8: UInt8] = [:]
        for (value, character) in alphabet.enumerated() {
            index[character] = UInt8(value)
        }
        return index
    }()

    /// One-character codes for keys and conformance values.
    private static let codes: [(code: String, identifier: String)] = [
        ("0", "UTTypeConformsTo"),
        ("1", "public.filename-extension"),
        ("2", "com.apple.ostype"),
        ("3", "public.mime-type"),
        ("4", "com.apple.nspboard-type"),
        ("5", "public.url-scheme"),
        ("6", "public.data"),
        ("7", "public.text"),
        ("8", "public.plain-text"),
        ("9", "public.utf16-plain-text"),
        ("A", "com.apple.traditional-mac-plain-text"),
        ("B", "public.image"),
        ("C", "public.video"),
        ("D", "public.audio"),
        ("E", "public.directory"),
        ("F", "public.folder"),
    ]
    private static let identifierForCode = Dictionary(uniqueKeysWithValues: codes.map { ($0.code, $0.identifier) })
    private static let codeForIdentifier = Dictionary(uniqueKeysWithValues: codes.map { ($0.identifier.lowercased(), $0.code) })

    init(conformsTo: [String], tags: [(tagClass: String, tag: String)]) {
        self.conformsTo = conformsTo
        self.tags = tags
    }

    // MARK: Payload

    /// The textual payload, such as `?0=6:1=md`.
    var payload: String {
        var fields: [String] = []
        for parent in conformsTo {
            fields.append("0=" + Self.code(for: parent))
        }
        for pair in tags {
            fields.append(Self.code(for: pair.tagClass) + "=" + Self.escape(pair.tag))
        }
        let body = fields.joined(separator: ":")
        return conformsTo.isEmpty ? body : "?" + body
    }

    /// Parses a payload; `nil` when it is not one.
    init?(payload: String) {
        var text = Substring(payload)
        let hasConformance = text.first == "?"
        if hasConformance { text = text.dropFirst() }
        guard !text.isEmpty else { return nil }
        var conformsTo: [String] = []
        var tags: [(tagClass: String, tag: String)] = []
        for field in Self.splitUnescaped(text, on: ":") {
            let parts = Self.splitUnescaped(field, on: "=")
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            let key = Self.identifier(forCode: String(parts[0]))
            if key == "UTTypeConformsTo" {
                conformsTo.append(Self.identifier(forCode: String(parts[1])))
            } else {
                tags.append((key, Self.unescape(parts[1])))
            }
        }
        guard hasConformance == !conformsTo.isEmpty, !tags.isEmpty else { return nil }
        self.conformsTo = conformsTo
        self.tags = tags
    }

    private static func code(for identifier: String) -> String {
        codeForIdentifier[identifier.lowercased()] ?? escape(identifier)
    }

    private static func identifier(forCode code: String) -> String {
        identifierForCode[code] ?? unescape(Substring(code))
    }

    private static func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == ":" || $0 == "=" || $0 == "\\" }) else { return value }
        var escaped = ""
        for character in value {
            if character == ":" || character == "=" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private static func unescape(_ value: Substring) -> String {
        guard value.contains("\\") else { return String(value) }
        var result = ""
        var escaping = false
        for character in value {
            if escaping || character != "\\" {
                result.append(character)
                escaping = false
            } else {
                escaping = true
            }
        }
        return result
    }

    private static func splitUnescaped(_ text: Substring, on separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        var escaping = false
        while index < text.endIndex {
            let character = text[index]
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == separator {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        parts.append(text[start..<text.endIndex])
        return parts
    }

    // MARK: Identifier

    /// The dynamic identifier, such as `dyn.ah62d4rv4ge8043a`.
    var identifier: String {
        Self.prefix + Self.encode(Array(payload.utf8))
    }

    /// Decodes a dynamic identifier; `nil` when it is not a well-formed one.
    init?(identifier: String) {
        let utf8 = Array(identifier.utf8)
        let prefix = Array(Self.prefix.utf8)
        guard utf8.count > prefix.count,
              utf8[0..<4].map({ $0 | 0x20 }) == Array("dyn.".utf8), utf8[4] == prefix[4],
              let bytes = Self.decode(utf8[prefix.count...]),
              let payload = String(validating: bytes, as: UTF8.self)
        else { return nil }
        self.init(payload: payload)
    }

    private static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func decode(_ characters: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in characters {
            guard let value = alphabetIndex[character] else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // What is left is padding: fewer than five bits, all zero.
        guard bits < 5, buffer == 0, !bytes.isEmpty else { return nil }
        return bytes
    }
}
