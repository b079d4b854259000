/// The file name a client gives for a body: RFC 6266's `Content-Disposition` (`filename*=UTF-8''...`, RFC
/// 8187, before `filename="..."`), and the headers Apache Tika's server reads.
package enum UploadName {
    /// The `filename*` or `filename` parameter of a `Content-Disposition` value; `nil` when it has none
    /// or it cannot be decoded.
    package static func fromContentDisposition(_ value: String) -> String? {
        var plain: String?
        var extended: String?
        for parameter in parameters(of: value) {
            switch parameter.name.lowercased() {
            case "filename*": extended = decodeExtended(parameter.value)
            case "filename": plain = parameter.value
            default: continue
            }
        }
        let name = extended ?? plain
        return name.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `name=value` pairs after the first `;`, values unquoted (`\"` and `\\` unescaped).
    static func parameters(of value: String) -> [(name: String, value: String)] {
        var result: [(String, String)] = []
        var characters = Substring(value)
        // The disposition type.
        guard let semicolon = characters.firstIndex(of: ";") else { return [] }
        characters = characters[characters.index(after: semicolon)...]
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard let equals = characters.firstIndex(of: "=") else { break }
            let name = characters[..<equals].trimmingHeaderWhitespace()
            characters = characters[characters.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            var parsed = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                var escaped = false
                while let character = characters.first {
                    characters = characters.dropFirst()
                    if escaped {
                        parsed.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        parsed.append(character)
                    }
                }
                characters = characters.drop { $0 != ";" }
            } else {
                let end = characters.firstIndex(of: ";") ?? characters.endIndex
                parsed = characters[..<end].trimmingHeaderWhitespace()
                characters = characters[end...]
            }
            result.append((name, parsed))
        }
        return result
    }

    /// RFC 8187: `charset'language'percent-encoded`; UTF-8 and ISO-8859-1 are understood.
    static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let bytes = PercentEncoding.decoded(parts[2].utf8) else { return nil }
        switch parts[0].lowercased() {
        case "utf-8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1": return String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
        default: return nil
        }
    }

}

/// Percent-encoding (RFC 3986), as request targets and RFC 8187 header values use it.
enum PercentEncoding {
    /// `bytes` with every `%XX` made the byte it stands for; `nil` for a `%` not followed by two hexadecimal digits.
    static func decoded(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            decoded.append(high << 4 | low)
        }
        return decoded
    }

    /// The value of a hexadecimal digit, `nil` for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

