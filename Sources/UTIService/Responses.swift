import FileIdentification
import Hummingbird
import HummingbirdCore
import HTTPTypes
import UTIReports
import UniformTypeIdentifiers

/// What every controller answers with, and reads from a request the same way.
enum Responses {
    /// A JSON value, with a final line break.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        json(value.renderedUTF8, status: status)
    }

    /// A JSON document rendered already, with a final line break.
    static func json(_ rendered: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        rendered.withUnsafeBufferPointer { json($0, status: status) }
    }

    /// A JSON document rendered already (`IdentificationReport.withRenderedUTF8`), copied into the answer, with
    /// a final line break.
    static func json(_ rendered: UnsafeBufferPointer<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(rendered.count + 1)
        buffer.writeBytes(rendered)
        buffer.writeInteger(UInt8(0x0A))
        return Response(status: status, headers: jsonHeaders, body: .init(byteBuffer: buffer))
    }

    /// The answers' headers, made once (a field list made from a literal checks its names and values anew).
    private static let jsonHeaders: HTTPFields = [.contentType: "application/json"]
    private static let textHeaders: HTTPFields = [.contentType: "text/plain; charset=utf-8"]

    static func text(_ body: String) -> Response {
        Response(status: .ok, headers: textHeaders, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// Whether the client asked for `text/plain`.
    static func acceptsPlainText(_ request: Request) -> Bool {
        acceptsPlainText(accept: request.headers.value(.accept))
    }

    /// Whether an `Accept` value (RFC 9110 12.5.1) names `text/plain` among its media ranges, compared without
    /// regard to case as media types are, with a weight above zero (`text/plain;q=0` says it is not
    /// acceptable); commas and semicolons inside a parameter's quoted string separate nothing. Read by bytes in
    /// place: curl sends `Accept: */*` with every request, and a split by `Character` walked it grapheme by grapheme.
    static func acceptsPlainText(accept: String?) -> Bool {
        guard var accept else { return false }
        return accept.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                // One member, up to a comma outside a quoted string: its media range, then its parameters, each
                // part ended by a `;` outside a quoted string, looked at as it ends.
                var partStart = start, end = start, quoted = false, escaped = false
                var isPlainText: Bool?, refused = false
                func part(_ range: Range<Int>) {
                    let range = HeaderText.trimmed(bytes, range)
                    if let isPlainText {
                        if isPlainText, isZeroWeight(bytes, range) { refused = true }
                    } else {
                        isPlainText = equalsIgnoringCase(bytes, range, "text/plain")
                    }
                }
                while end < bytes.count {
                    let byte = bytes[end]
                    if quoted {
                        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { quoted = false }
                    } else if byte == UInt8(ascii: "\"") {
                        quoted = true
                    } else if byte == UInt8(ascii: ",") {
                        break
                    } else if byte == UInt8(ascii: ";") {
                        part(partStart..<end)
                        partStart = end + 1
                    }
                    end += 1
                }
                part(partStart..<end)
                if isPlainText == true, !refused { return true }
                start = end + 1
            }
            return false
        }
    }

    /// Whether `bytes[range]` is `text`, ASCII letters compared without regard to case.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let wanted = text.utf8Start
        return (0..<range.count).allSatisfy { CompiledTypeDatabase.folded(bytes[range.lowerBound + $0]) == wanted[$0] }
    }

    /// Whether a parameter is the weight zero: `q=0`, `q=0.`, `q=0.0` to `q=0.000` (the name in any case).
    private static func isZeroWeight(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count >= 3, CompiledTypeDatabase.folded(bytes[range.lowerBound]) == UInt8(ascii: "q"),
              bytes[range.lowerBound + 1] == UInt8(ascii: "="), bytes[range.lowerBound + 2] == UInt8(ascii: "0") else { return false }
        let rest = (range.lowerBound + 3)..<range.upperBound
        guard !rest.isEmpty else { return true }
        return bytes[rest.lowerBound] == UInt8(ascii: ".") && rest.count <= 4 && rest.dropFirst().allSatisfy { bytes[$0] == UInt8(ascii: "0") }
    }

    /// A request's query parameters, parsed once by the handler and given to the functions below: the
    /// `name=value` pairs between `&`s, values percent-decoded (one with a `%` not followed by two hex
    /// digits kept as it came; bytes that are not UTF-8 decoded as U+FFFD), keys as they came, split on the byte `&` as Hummingbird's `URI.queryParameters` splits them (empty pieces left out). Looked up by a walk
    /// over the pairs (a query holds a handful), where Hummingbird's dictionary hashes every key it is given
    /// and every key asked for (a fiftieth of a small request's work), and compares only the hashes.
    struct Query {
        private(set) var pairs: [(key: String, value: String)] = []

        init(_ uri: URI) {
            self.init(uri.query ?? "")
        }

        init(_ query: String) {
            guard !query.isEmpty else { return }
            // Split on the bytes `&` and `=`, in the query's UTF-8 in place: a split by `Character` walked its
            // grapheme clusters, a few hundred instructions each, and a combining mark after `&` hid the `&`.
            var text = query
            text.withUTF8 { bytes in
                var start = 0
                while start < bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
                    if end > start { add(UnsafeBufferPointer(rebasing: bytes[start..<end])) }
                    start = end + 1
                }
            }
        }

        private mutating func add(_ pair: UnsafeBufferPointer<UInt8>) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                pairs.append((String(decoding: pair, as: UTF8.self), ""))
                return
            }
            let value = UnsafeBufferPointer(rebasing: pair[(equals + 1)...])
            pairs.append((String(decoding: UnsafeBufferPointer(rebasing: pair[..<equals]), as: UTF8.self),
                          Self.percentDecoded(value) ?? String(decoding: value, as: UTF8.self)))
        }

        /// The value of the first pair named `name`, `nil` when none is.
        func get(_ name: String) -> String? {
            pairs.first { $0.key == name }?.value
        }

        /// `bytes` with every `%XX` made the byte it stands for, as UTF-8 (bytes that are not UTF-8 become
        /// U+FFFD); `nil` when a `%` is not followed by two hex digits.
        static func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
            return PercentEncoding.decoded(bytes).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A query parameter that is `true`/`1` or `false`/`0` (absent: false); anything else is a 400 naming it.
    static func booleanQuery(_ query: Query, _ name: String) throws -> Bool {
        guard let value = query.get(name) else { return false }
        switch value {
        case "true", "1": return true
        case "false", "0": return false
        default: throw HTTPError(.badRequest, message: "\(name): expected true or false")
        }
    }

    /// The vocabulary `?mime-names=` asks the MIME type in (`uti identify --mime-names`); `nil` when the
    /// request names none.
    ///
    /// - Throws: 400 for a name that is not one of `MIMENames`.
    static func mimeNames(_ query: Query) throws -> MIMENames? {
        guard let text = query.get("mime-names") else { return nil }
        guard let names = MIMENames(rawValue: text) else {
            throw HTTPError(.badRequest, message: "mime-names: expected one of \(MIMENames.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return names
    }

    /// The name of the uploaded file, as the client gave it: `?name=`, `Content-Disposition`, or Tika's
    /// `File-Name` / `resourceName`.
    static func uploadName(_ request: Request, query: Query) -> String? {
        if let name = query.get("name"), !name.isEmpty { return name }
        if let disposition = request.headers.value(.contentDisposition), let name = UploadName.fromContentDisposition(disposition) { return name }
        for field in tikaNameFields {
            if let value = request.headers.value(field), !value.isEmpty { return value }
        }
        return nil
    }

    /// Tika's headers naming the upload, `File-Name` and `resourceName`, made once.
    private static let tikaNameFields: [HTTPField.Name] = ["File-Name", "resourceName"].compactMap { HTTPField.Name($0) }
}

