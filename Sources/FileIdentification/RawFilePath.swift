internal import SystemCalls

/// A file path as the system holds it: bytes, which need not be valid UTF-8.
///
/// Linux file names are any bytes but `/` and NUL. `String` would replace invalid sequences and lose
/// the name, so paths travel as bytes and are decoded only for display, where each byte that is not
/// part of valid UTF-8 is written `\xNN` (and a backslash `\\`), so the shown name is unambiguous.
public struct RawFilePath: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8]

    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path decoded as UTF-8, with replacement characters where it is not valid.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the path is valid UTF-8.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The path for display: valid UTF-8 as is, other bytes as `\xNN`, a backslash as `\\` when the
    /// path needs escaping at all.
    public var escaped: String {
        if isValidUTF8 { return string }
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
        let length = bytes.firstIndex(of: 0) ?? bytes.count
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: length + 1)
        defer { pointer.deallocate() }
        for index in 0..<length { pointer[index] = CChar(bitPattern: bytes[index]) }
        pointer[length] = 0
        return try body(pointer)
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
