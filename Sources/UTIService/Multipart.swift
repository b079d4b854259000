import FileIdentification

/// `multipart/form-data` (RFC 7578) read from a spooled body: each part's headers and its content, itself
/// spooled, so that memory stays bounded however large the parts.
enum Multipart {
    struct Failure: Error {
        var message: String
        /// The parts would pass the spool budget (or the disk is full): try again later, not a bad body.
        var isOutOfSpace = false
    }

    struct Part {
        /// Header names in lower case.
        var headers: [String: String]
        var content: SpooledBytes

        /// The part's file name: `filename*` or `filename` of its `Content-Disposition`.
        var filename: String? {
            headers["content-disposition"].flatMap(UploadName.fromContentDisposition)
        }
    }

    static let maximumParts = 1_000
    static let maximumHeaderSize = 16 << 10

    /// The `boundary` parameter of a `multipart/form-data` content type; `nil` for another type.
    static func boundary(of contentType: String) -> String? {
        // Most requests are no form: their type is told by its first bytes, before any splitting.
        let prefix = "multipart/form-data".utf8
        guard contentType.utf8.count >= prefix.count,
              zip(contentType.utf8.drop { $0 == 0x20 || $0 == 0x09 }, prefix).allSatisfy({ ($0 | 0x20) == $1 | 0x20 }) else { return nil }
        let pieces = contentType.split(separator: ";").map { $0.trimmingHeaderWhitespace() }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() where piece.lowercased().hasPrefix("boundary=") {
            var value = String(piece.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    /// A `multipart/form-data` body taken apart as its bytes arrive, chunk by chunk: each part's headers once
    /// they are whole (at most `maximumHeaderSize` bytes), then its content as it comes, so that a part is
    /// spooled once, where it is read, and no more than a delimiter's length is ever held back.
    /// (vapor/multipart-kit is the field's parser, but the version this project can depend on, 4.7.1, gathers a
    /// part's header names and values with no bound: a body of one endless header line would be held whole.)
    struct Splitter {
        enum Event {
            /// A part begins, with its headers (names in lower case).
            case part([String: String])
            /// Bytes of the current part's content.
            case content([UInt8])
        }

        private enum State { case preamble, afterDelimiter, headers, content, done }

        /// CRLF "--" boundary.
        private let delimiter: [UInt8]
        /// What arrived and is not yet taken apart. It starts with a line break: the body's first delimiter may
        /// lack its own.
        private var pending: [UInt8] = [0x0D, 0x0A]
        private var state = State.preamble
        private var parts = 0

        init(boundary: String) throws(Failure) {
            guard !boundary.isEmpty, boundary.utf8.count <= 70 else { throw Failure(message: "the boundary is empty or longer than 70 bytes") }
            delimiter = Array("\r\n--\(boundary)".utf8)
        }

        /// Takes `bytes`, the next of the body, and calls `emit` for what they complete.
        mutating func feed(_ bytes: some Collection<UInt8>, _ emit: (Event) throws(Failure) -> Void) throws(Failure) {
            guard state != .done else { return }  // the epilogue, ignored
            pending.append(contentsOf: bytes)
            while true {
                switch state {
                case .preamble:
                    guard let found = Self.firstIndex(of: delimiter, in: pending) else {
                        pending.removeFirst(max(0, pending.count - (delimiter.count - 1)))
                        return
                    }
                    pending.removeFirst(found + delimiter.count)
                    state = .afterDelimiter
                case .afterDelimiter:
                    // "--" ends the body; else optional white space, then a line break and a part.
                    guard pending.count >= 2 else { return }
                    if pending[0] == UInt8(ascii: "-") && pending[1] == UInt8(ascii: "-") {
                        state = .done
                        pending.removeAll()
                        return
                    }
                    guard let text = pending.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else {
                        guard pending.count <= Multipart.maximumHeaderSize else { throw Failure(message: "a boundary not followed by a line break") }
                        return
                    }
                    guard pending.count >= text + 2 else { return }
                    guard pending[text] == 0x0D && pending[text + 1] == 0x0A else { throw Failure(message: "a boundary not followed by a line break") }
                    pending.removeFirst(text + 2)
                    state = .headers
                case .headers:
                    let end: Int
                    if pending.starts(with: [0x0D, 0x0A]) {
                        end = -2
                    } else if let found = Self.firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: pending.prefix(Multipart.maximumHeaderSize)) {
                        end = found
                    } else {
                        guard pending.count < Multipart.maximumHeaderSize else {
                            throw Failure(message: "a part's headers are not ended by an empty line within \(Multipart.maximumHeaderSize) bytes")
                        }
                        return
                    }
                    guard parts < Multipart.maximumParts else { throw Failure(message: "more than \(Multipart.maximumParts) parts") }
                    var headers: [String: String] = [:]
                    if end >= 0 {
                        for line in pending[..<end].split(separator: 0x0A) {
                            let text = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
                            guard let colon = text.firstIndex(of: ":") else { throw Failure(message: "a part's header line without ':'") }
                            headers[text[..<colon].lowercased().trimmingHeaderWhitespace()] = text[text.index(after: colon)...].trimmingHeaderWhitespace()
                        }
                    }
                    parts += 1
                    pending.removeFirst(end + 4)
                    state = .content
                    try emit(.part(headers))
                case .content:
                    if let found = Self.firstIndex(of: delimiter, in: pending) {
                        if found > 0 { try emit(.content(Array(pending[..<found]))) }
                        pending.removeFirst(found + delimiter.count)
                        state = .afterDelimiter
                        continue
                    }
                    // All but what could be the start of a delimiter split across chunks.
                    let ready = pending.count - (delimiter.count - 1)
                    if ready > 0 {
                        try emit(.content(Array(pending[..<ready])))
                        pending.removeFirst(ready)
                    }
                    return
                case .done:
                    return
                }
            }
        }

        /// The body has ended: it must have ended its last part with the closing delimiter.
        func finish() throws(Failure) {
            switch state {
            case .done: return
            case .preamble: throw Failure(message: "no boundary in the body")
            default: throw Failure(message: "the last part is not closed by a boundary")
            }
        }

        private static func firstIndex(of pattern: [UInt8], in bytes: some RandomAccessCollection<UInt8>) -> Int? {
            guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
            var index = bytes.startIndex
            let last = bytes.index(bytes.endIndex, offsetBy: -pattern.count)
            while index <= last {
                if bytes[index] == first && bytes[index..<bytes.index(index, offsetBy: pattern.count)].elementsEqual(pattern) {
                    return bytes.distance(from: bytes.startIndex, to: index)
                }
                index = bytes.index(after: index)
            }
            return nil
        }
    }
}
