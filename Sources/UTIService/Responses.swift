import FileIdentification
import Hummingbird
import HTTPTypes
import UTIReports

/// What every controller answers with, and reads from a request the same way.
enum Responses {
    /// A JSON value, with a final line break.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        var bytes = value.renderedUTF8
        bytes.append(0x0A)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// Whether the client asked for `text/plain`.
    static func acceptsPlainText(_ request: Request) -> Bool {
        guard let accept = request.headers[.accept] else { return false }
        return accept.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingHeaderWhitespace() == "text/plain" }
    }

    /// A query parameter that is `true`/`1` or `false`/`0` (absent: false); anything else is a 400 naming it.
    static func booleanQuery(_ request: Request, _ name: String) throws -> Bool {
        guard let value = request.uri.queryParameters.get(name) else { return false }
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
    static func mimeNames(_ request: Request) throws -> MIMENames? {
        guard let text = request.uri.queryParameters.get("mime-names") else { return nil }
        guard let names = MIMENames(rawValue: text) else {
            throw HTTPError(.badRequest, message: "mime-names: expected one of \(MIMENames.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return names
    }

    /// The name of the uploaded file, as the client gave it: `?name=`, `Content-Disposition`, or Tika's
    /// `File-Name` / `resourceName`.
    static func uploadName(_ request: Request) -> String? {
        if let name = request.uri.queryParameters.get("name"), !name.isEmpty { return name }
        if let disposition = request.headers[.contentDisposition], let name = UploadName.fromContentDisposition(disposition) { return name }
        for header in ["File-Name", "resourceName"] {
            if let field = HTTPField.Name(header), let value = request.headers[field], !value.isEmpty { return value }
        }
        return nil
    }
}

