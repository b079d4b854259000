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

    /// The parts of `body`, in order, each spooled with `budget` (memory) and `fileBudget` (disk).
    static func parts(of body: SpooledBytes, boundary: String, budget: ByteBudget? = nil, fileBudget: ByteBudget? = nil) throws(Failure) -> [Part] {
        guard !boundary.isEmpty, boundary.utf8.count <= 70 else { throw Failure(message: "the boundary is empty or longer than 70 bytes") }
        let source = body.source
        // The delimiter is CRLF "--" boundary; the body's first one may lack the CRLF.
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var position: Int
        if (try? source.bytes(at: 0, length: delimiter.count - 2)) == Array(delimiter.dropFirst(2)) {
            position = delimiter.count - 2
        } else {
            guard let first = try find(delimiter, in: source, from: 0) else { throw Failure(message: "no boundary in the body") }
            position = first + delimiter.count
        }
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" ends the body; else optional whitespace, then CRLF and a part.
            let after = try read(source, at: position, length: 2)
            if after == Array("--".utf8) { return parts }
            var cursor = position
            while let byte = try read(source, at: cursor, length: 1).first, byte == 0x20 || byte == 0x09 { cursor += 1 }
            guard try read(source, at: cursor, length: 2) == [0x0D, 0x0A] else { throw Failure(message: "a boundary not followed by a line break") }
            cursor += 2
            guard parts.count < maximumParts else { throw Failure(message: "more than \(maximumParts) parts") }
            // Headers, up to an empty line.
            let head = try read(source, at: cursor, length: maximumHeaderSize)
            guard let end = firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: head) ?? (head.starts(with: [0x0D, 0x0A]) ? -2 : nil) else {
                throw Failure(message: "a part's headers are not ended by an empty line within \(maximumHeaderSize) bytes")
            }
            var headers: [String: String] = [:]
            if end >= 0 {
                for line in head[..<end].split(separator: 0x0A) {
                    let text = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
                    guard let colon = text.firstIndex(of: ":") else { throw Failure(message: "a part's header line without ':'") }
                    headers[text[..<colon].lowercased().trimmingHeaderWhitespace()] = text[text.index(after: colon)...].trimmingHeaderWhitespace()
                }
            }
            let contentStart = cursor + end + 4
            guard let next = try find(delimiter, in: source, from: contentStart) else { throw Failure(message: "the last part is not closed by a boundary") }
            let content = SpooledBytes(budget: budget, fileBudget: fileBudget)
            var offset = contentStart
            while offset < next {
                let chunk = try read(source, at: offset, length: min(1 << 20, next - offset))
                do {
                    try content.append(chunk)
                } catch {
                    throw Failure(message: "cannot spool a part: \(error)", isOutOfSpace: error == .noSpace)
                }
                offset += chunk.count
            }
            parts.append(Part(headers: headers, content: content))
            position = next + delimiter.count
        }
    }

    private static func read(_ source: SpooledBytes.Source, at offset: Int, length: Int) throws(Failure) -> [UInt8] {
        do {
            return try source.bytes(at: offset, length: length)
        } catch {
            throw Failure(message: "cannot read the body: \(error)")
        }
    }

    /// The offset of `pattern` in `source` from `start`, read a window at a time.
    private static func find(_ pattern: [UInt8], in source: SpooledBytes.Source, from start: Int) throws(Failure) -> Int? {
        var offset = start
        let window = 1 << 20
        while offset < source.count {
            let bytes = try read(source, at: offset, length: window + pattern.count - 1)
            if let index = firstIndex(of: pattern, in: bytes) { return offset + index }
            if bytes.count < window + pattern.count - 1 { return nil }
            offset += window
        }
        return nil
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == first && bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}

