internal import SystemCalls

/// A file path as the system holds it: bytes, which need not be valid UTF-8.
///
/// Linux file names are any bytes but `/` and NUL. `String` would replace invalid sequences and lose
/// the name, so paths travel as bytes and are decoded only for display, where each byte that is not
/// part of valid UTF-8 is written `\xNN` (and a backslash `\\`), so the shown name is unambiguous.
public struct RawFilePath: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8]

    /// The path made of `bytes`, taken as they are.
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// The path whose bytes are the UTF-8 encoding of `string`.
    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The path whose bytes are the UTF-8 encoding of the literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path decoded as UTF-8, with replacement characters where it is not valid.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the path is valid UTF-8.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The path for display, unambiguous and safe to print: every byte that could not be shown as itself
    /// is written `\\xNN`, and a backslash `\\\\`, so a name holding the text `\\xFF` never looks like one
    /// holding the byte 0xFF. Written as escapes: bytes that are not valid UTF-8, control characters
    /// (C0, DEL, C1; `\\t`, `\\n` and `\\r` by name) and the Unicode controls that reorder or hide text
    /// (bidirectional overrides and isolates, U+200E/F, U+061C), which could forge what a terminal shows.
    /// A path that needs none of this is shown as it is (`needsEscaping` is false).
    public var escaped: String {
        guard bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) else { return String(decoding: bytes, as: UTF8.self) }
        return Self.escape(bytes, escapingBackslash: true)
    }

    /// The path as text for data formats (JSON, CSV, TSV), whose own quoting carries any character:
    /// valid UTF-8 as it is; otherwise each byte that is not part of valid UTF-8 as `\\xNN` and a
    /// backslash as `\\\\` (the record then says `pathEscaped`, see `isValidUTF8`).
    public var dataText: String {
        guard !isValidUTF8 else { return string }
        var result = ""
        var index = 0
        while index < bytes.count {
            let length = Self.validSequenceLength(bytes, at: index)
            if length > 0 {
                let piece = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                result += piece == "\\" ? "\\\\" : piece
                index += length
            } else {
                let hex = String(bytes[index], radix: 16, uppercase: true)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                index += 1
            }
        }
        return result
    }

    /// Whether `escaped` differs from the path's bytes.
    public var needsEscaping: Bool {
        guard bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\\") }) else { return false }
        return !Self.escape(bytes, escapingBackslash: true).utf8.elementsEqual(bytes)
    }

    /// `bytes` made safe to print, as `escaped` describes; with `escapingBackslash` false (for lines of
    /// output, not names), a backslash and a tab stay as they are.
    package static func escape(_ bytes: [UInt8], escapingBackslash: Bool) -> String {
        var result = ""
        result.reserveCapacity(bytes.count)
        func hex(_ byte: UInt8) {
            let digits = String(byte, radix: 16, uppercase: true)
            result += "\\x" + (digits.count == 1 ? "0" + digits : digits)
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x5C:
                result += escapingBackslash ? "\\\\" : "\\"
                index += 1
            case 0x09: result += escapingBackslash ? "\\t" : "\t"; index += 1
            case 0x0A: result += "\\n"; index += 1
            case 0x0D: result += "\\r"; index += 1
            case 0x00..<0x20, 0x7F: hex(byte); index += 1
            case 0x20..<0x7F:
                result.unicodeScalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                let length = validSequenceLength(bytes, at: index)
                guard length > 0 else { hex(byte); index += 1; continue }
                let piece = bytes[index..<(index + length)]
                let scalar = String(decoding: piece, as: UTF8.self).unicodeScalars.first
                if let scalar, isHidingControl(scalar) {
                    piece.forEach(hex)
                } else {
                    result += String(decoding: piece, as: UTF8.self)
                }
                index += length
            }
        }
        return result
    }

    /// C1 controls, and the invisible characters that change how the text around them is shown.
    private static func isHidingControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The path for display: the same as ``escaped``.
    public var description: String { escaped }

    /// The last path component's bytes (the whole path when it has no slash); trailing slashes ignored.
    public var lastComponent: [UInt8] {
        var end = bytes.count
        while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return Array(bytes[start..<end])
    }

    /// The path with a NUL terminator, for system calls; a NUL inside cuts it short, as the system would
    /// read it.
    public func withCString<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        try withNULTerminated(bytes, body)
    }

    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let byte = bytes[index]
        let length: Int
        switch byte {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<(index + length)], as: UTF8.self) == nil ? 0 : length
    }
}

extension RawFilePath: SystemPath {
    package var systemPathBytes: [UInt8] { bytes }
}
