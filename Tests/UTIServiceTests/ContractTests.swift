import Foundation
import HTTPTypes
import Hummingbird
import NIOEmbedded
import Synchronization
import Logging
import NIOCore
import Prometheus
import TestSupport
import Testing
import AppContainers
import DocumentRouting
@testable import UTIService
import UTIReports

/// The service's request/response contract, asked in process: the same router `uti-server` serves, its
/// responder called with each request as Hummingbird's server calls it (the body streamed in 32 KiB parts, a
/// context on a channel of SwiftNIO's own testing kind), no socket. What needs a real socket (slow clients,
/// SIGTERM, 1,000 connections, the log a process writes) is asked of the real server in ServerTests,
/// ClientTests and BlockingTests.
struct Contract {
    let service: UTIService

    init(configuration: UTIService.Configuration = .init(version: UTIVersion.string), metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        service = UTIService(configuration: configuration, metricsRegistry: metrics)
    }

    /// Runs `test` with a client of the service's router (its request log quiet: the log line is tested
    /// against the real server, whose standard error a test reads).
    func test<Value>(_ test: @Sendable (RouterClient) async throws -> Value) async throws -> Value {
        var logger = Logger(label: "uti-contract-tests")
        logger.logLevel = .error
        return try await test(RouterClient(responder: service.router().buildResponder(), logger: logger))
    }
}

/// What the router answered: the head and the whole body.
struct ContractResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}

/// Requests handed to the router's responder as the server hands them.
struct RouterClient: Sendable {
    let responder: RouterResponder<BasicRequestContext>
    let logger: Logger

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> ContractResponse {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let (requestBody, source) = RequestBody.makeStream()
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
                              body: requestBody)
        var logger = logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
        return try await withThrowingTaskGroup(of: ContractResponse?.self) { group in
            group.addTask {
                let response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch {
                    response = Response(status: .internalServerError)
                }
                let collected = Collected()
                try await response.body.write(CollectingWriter(collected: collected))
                return ContractResponse(status: response.status, headers: response.headers, body: collected.buffer.withLock { $0 })
            }
            // The body as a client sends it, in parts, while the handler reads (a handler that answers without
            // reading it leaves the rest unread, as a server's would).
            group.addTask {
                if var rest = body {
                    while rest.readableBytes > 0, let part = rest.readSlice(length: min(32 << 10, rest.readableBytes)) {
                        await source.yield(part)
                    }
                }
                source.finish()
                return nil
            }
            var answer: ContractResponse?
            for try await result in group where result != nil {
                answer = result
                group.cancelAll()
            }
            return try #require(answer)
        }
    }

    /// The response's body, gathered.
    final class Collected: Sendable {
        let buffer = Mutex(ByteBuffer())
    }

    struct CollectingWriter: ResponseBodyWriter {
        let collected: Collected

        mutating func write(_ buffer: ByteBuffer) async throws {
            collected.buffer.withLock { _ = $0.writeImmutableBuffer(buffer) }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

extension ContractResponse {
    var text: String { String(buffer: body) }

    var object: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] }

    var array: [[String: Any]]? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] }
}

extension HTTPFields {
    init(_ pairs: [(String, String)]) {
        self.init()
        for (name, value) in pairs { if let field = HTTPField.Name(name) { self[field] = value } }
    }
}

@Suite("The service's contract, in process")
struct ContractTests {
    @Test("GET /healthz, /version and /openapi.json")
    func operations() async throws {
        try await Contract().test { client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok && health.text == "ok\n")
            let version = try await client.execute(uri: "/version", method: .get)
            #expect(version.text == "uti \(UTIVersion.string)\n")
            let document = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(document.headers[.contentType] == "application/json" && Array(buffer: document.body) == UTIService.openAPIDocument)
        }
    }

    @Test("PUT and POST /identify answer uti identify --json's object, named by ?name=, Content-Disposition or Tika's headers")
    func identify() async throws {
        try await Contract().test { client in
            for (method, uri, headers, name) in [
                (HTTPRequest.Method.put, "/identify?name=photo.png", [(String, String)](), "photo.png"),
                (.post, "/identify", [("Content-Disposition", "attachment; filename=\"pic ture.png\"")], "pic ture.png"),
                (.put, "/identify", [("Content-Disposition", "attachment; filename=\"fallback.png\"; filename*=UTF-8''%C3%A9t%C3%A9.png")], "été.png"),
                (.put, "/identify", [("File-Name", "tika.png")], "tika.png"),
                (.put, "/identify", [("resourceName", "resource.png")], "resource.png"),
                (.put, "/identify", [], "-"),
            ] {
                let answer = try await client.execute(uri: uri, method: method, headers: HTTPFields(headers), body: ByteBuffer(bytes: png))
                #expect(answer.status == .ok, "\(answer.text)")
                #expect(answer.object?["identifier"] as? String == "public.png" && answer.object?["mimeType"] as? String == "image/png")
                #expect(answer.object?["path"] as? String == name)
            }
            let plain = try await client.execute(uri: "/identify", method: .put, headers: [.accept: "text/plain"], body: ByteBuffer(bytes: png))
            #expect(plain.text == "image/png\n")
            // A PNG named as text: the content decides, and the answer says the name lies.
            let lying = try await client.execute(uri: "/identify?name=photo.txt", method: .put, body: ByteBuffer(bytes: png))
            #expect(lying.object?["identifier"] as? String == "public.png" && lying.object?["mismatch"] as? Bool == true)
        }
    }

    @Test("several files as multipart/form-data: one object each, in order; a malformed body is a 400")
    func multipart() async throws {
        let boundary = "uti-contract-boundary"
        var body: [UInt8] = []
        for (name, content) in [("photo.png", png), ("report.pdf", Array("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n".utf8)),
                                ("notes.txt", Array("plain words\n".utf8))] {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\(name)\"\r\n\r\n".utf8) + content + [0x0D, 0x0A]
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let form = ByteBuffer(bytes: body)
        try await Contract().test { client in
            let headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
            let answer = try await client.execute(uri: "/identify", method: .post, headers: headers, body: form)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.array?.map { $0["path"] as? String } == ["photo.png", "report.pdf", "notes.txt"])
            #expect(answer.array?.map { $0["mimeType"] as? String } == ["image/png", "application/pdf", "text/plain"])
            var plainHeaders = headers
            plainHeaders[.accept] = "text/plain"
            let plain = try await client.execute(uri: "/identify", method: .post, headers: plainHeaders, body: form)
            #expect(plain.text == "image/png\napplication/pdf\ntext/plain\n")
            let malformed = try await client.execute(uri: "/identify", method: .post, headers: [.contentType: "multipart/form-data; boundary=xyz"],
                                                     body: ByteBuffer(string: "no boundary here"))
            #expect(malformed.status == .badRequest && malformed.text.contains("malformed multipart"), "\(malformed.text)")
        }
    }

    @Test("Tika's PUT /detect/stream and media-type listing")
    func tika() async throws {
        try await Contract().test { client in
            let detected = try await client.execute(uri: "/detect/stream", method: .put, headers: [.contentDisposition: "attachment; filename=notes.csv"],
                                                    body: ByteBuffer(string: "just words\n"))
            #expect(detected.status == .ok && detected.text == "text/csv" && detected.headers[.contentType]?.hasPrefix("text/plain") == true)
            let list = try await client.execute(uri: "/mime-types", method: .get)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [String: [String: Any]])
            #expect(object["application/pdf"] != nil && (object["image/jpeg"]?["alias"] as? [String])?.contains("image/pjpeg") == true)
            #expect(object["application/vnd.openxmlformats-officedocument.wordprocessingml.document"]?["supertype"] as? String == "application/zip")
            let plain = try await client.execute(uri: "/mime-types", method: .get, headers: [.accept: "text/plain"])
            #expect(plain.text.contains("image/jpeg\n  alias:     image/pjpeg\n") || plain.text.contains("image/jpeg\n  alias:     image/jpg\n"))
            let details = try await client.execute(uri: "/mime-types/image/png", method: .get)
            #expect(details.object?["uniformTypeIdentifier"] as? String == "public.png" && details.object?["defaultExtension"] as? String == ".png")
            #expect(try await client.execute(uri: "/mime-types/application/x-no-such-type", method: .get).status == .notFound)
        }
    }

    @Test("?mime-names= answers in another tool's names, the type unchanged; an unknown vocabulary is a 400")
    func mimeNames() async throws {
        try await Contract().test { client in
            let batch = ByteBuffer(string: "@echo off\r\necho hello\r\n")
            let standard = try await client.execute(uri: "/identify?name=run.bat", method: .put, body: batch)
            let magika = try await client.execute(uri: "/identify?name=run.bat&mime-names=magika", method: .put, body: batch)
            #expect(standard.object?["mimeType"] as? String == "application/x-bat")
            #expect(magika.object?["mimeType"] as? String == "text/x-msdos-batch")
            #expect(magika.object?["identifier"] as? String == standard.object?["identifier"] as? String)
            let tika = try await client.execute(uri: "/detect/stream?mime-names=libmagic", method: .put,
                                                headers: [.contentDisposition: "attachment; filename=run.bat"], body: batch)
            #expect(tika.text == "text/x-msdos-batch")
            let unknown = try await client.execute(uri: "/identify?mime-names=iana", method: .put, body: batch)
            #expect(unknown.status == .badRequest && unknown.text.contains("expected one of standard"), "\(unknown.text)")
        }
    }

    @Test("GET /types/{identifier}, /types and /conforms")
    func types() async throws {
        try await Contract().test { client in
            let info = try await client.execute(uri: "/types/public.jpeg", method: .get)
            #expect(info.object?["identifier"] as? String == "public.jpeg" && info.object?["preferredMIMEType"] as? String == "image/jpeg")
            let byExtension = try await client.execute(uri: "/types?extension=plist", method: .get)
            #expect(byExtension.array?.first?["identifier"] as? String == "com.apple.property-list")
            let conforming = try await client.execute(uri: "/types?conformingTo=public.image&q=png", method: .get)
            #expect(conforming.array?.contains { $0["identifier"] as? String == "public.png" } == true)
            let conforms = try await client.execute(uri: "/conforms?type=public.python-script&to=public.text", method: .get)
            #expect(conforms.object?["conforms"] as? Bool == true)
        }
    }

    @Test("GET /types?q= is bounded before any work: 16 words of 64 characters pass (spaces or + between them), one more word, one more character or a 75 KB query is a 400 naming the bound")
    func boundedQuery() async throws {
        try await Contract().test { client in
            let sixteen = Array(repeating: "a", count: 16).joined(separator: "%20")
            #expect(try await client.execute(uri: "/types?q=\(sixteen)", method: .get).status == .ok)
            let longest = String(repeating: "x", count: 64)
            #expect(try await client.execute(uri: "/types?q=\(longest)", method: .get).status == .ok)
            for query in [sixteen + "%20a", longest + "x", String(repeating: "ab", count: 38_000), Array(repeating: "ab", count: 25_000).joined(separator: "%20")] {
                let refused = try await client.execute(uri: "/types?q=\(query)", method: .get)
                #expect(refused.status == .badRequest && refused.text.contains("at most"), "\(query.prefix(20)): \(refused.text)")
            }
            // 16 words of 64 characters, two bytes each, between +: what the document allows, accepted.
            let wide = Array(repeating: String(repeating: "%C3%A9", count: 64), count: 16).joined(separator: "+")
            #expect(try await client.execute(uri: "/types?q=\(wide)", method: .get).status == .ok)
            // Words match as before: every word, in identifiers and descriptions, case folded.
            for query in ["PYTHON%20Script", "python+script"] {
                let found = try await client.execute(uri: "/types?q=\(query)", method: .get)
                #expect(found.array?.contains { $0["identifier"] as? String == "public.python-script" } == true, "\(query)")
            }
        }
    }

    @Test("unknown types, bad queries, unknown routes, wrong methods and bodies past --max-body: the right 4xx, as problem documents", arguments: [
        ("/types/com.example.nobody-declares-this", HTTPRequest.Method.get, 404),
        ("/types?conformingTo=no.such.type", .get, 404),
        ("/types?extension=", .get, 400),
        ("/conforms?type=public.text", .get, 400),
        ("/conforms?type=public.text&to=no.such.type", .get, 404),
        ("/no/such/route", .get, 404),
        ("/identify", .delete, 405),
        ("/", .post, 405),
        ("/types?q=%zz", .get, 400),
        ("/conforms?to=public.text", .get, 400),
        ("/mime-types/no/such", .get, 404),
        ("/detect/stream", .get, 405),
        ("/identify?name=caf%E9.png", .put, 400),
        ("/types/public.png%", .get, 400),
        ("/identify?name=%C3", .put, 400),
        ("/identify?name=large.bin", .post, 413),
        ("/route?name=a.png", .post, 404),
    ])
    func problems(uri: String, method: HTTPRequest.Method, status: Int) async throws {
        try await Contract(configuration: .init(maximumBodySize: 1_000, version: UTIVersion.string)).test { client in
            let answer = try await client.execute(uri: uri, method: method, body: ByteBuffer(repeating: 0x41, count: 2_000))
            #expect(answer.status.code == status, "\(uri): \(answer.text)")
            #expect(answer.headers[.contentType] == "application/problem+json", "\(uri)")
            #expect(answer.object?["status"] as? Int == status && answer.object?["title"] is String && answer.object?["detail"] is String, "\(answer.text)")
            if status == 405 { #expect(answer.headers[.allow] != nil) }
        }
    }

    @Test("the metrics land in the registry the service was given, by route, status and family")
    func injectedMetrics() async throws {
        let registry = PrometheusCollectorRegistry()
        try await Contract(metrics: registry).test { client in
            _ = try await client.execute(uri: "/identify?name=a.png", method: .put, body: ByteBuffer(bytes: png))
            _ = try await client.execute(uri: "/types/no.such.type", method: .get)
            let shown = try await client.execute(uri: "/metrics", method: .get).text
            for text in [shown, String(decoding: registry.emitToBuffer(), as: UTF8.self)] {
                #expect(text.contains(#"uti_http_requests_total{route="/identify",status="200"} 1"#), "\(text)")
                #expect(text.contains(#"uti_http_requests_total{route="/types/{identifier}",status="404"} 1"#), "\(text)")
                #expect(text.contains(#"uti_identified_total{family="image"} 1"#) && text.contains("uti_http_request_duration_seconds_bucket"))
                #expect(text.contains("# HELP uti_http_requests_total "))
            }
        }
        // A second service counts apart.
        try await Contract().test { client in
            let shown = try await client.execute(uri: "/metrics", method: .get).text
            #expect(!shown.contains("uti_identified_total"), "\(shown)")
        }
    }

    @Test("GET / is the page, with its script and style sheet, all from this server and under a policy that allows nothing else")
    func page() async throws {
        try await Contract().test { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("<script src=\"/page/uti.js\"") && page.text.contains("href=\"/page/uti.css\""))
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'") && policy.contains("connect-src 'self'") && !policy.contains("unsafe"))
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            // Nothing from elsewhere: no address with a scheme in any of the three files, but the one place a link
            // leads a reader (never loaded by the page): a PRONOM format's record at The National Archives.
            for uri in ["/", "/page/uti.js", "/page/uti.css"] {
                let asset = try await client.execute(uri: uri, method: .get)
                #expect(asset.status == .ok)
                let text = asset.text.replacingOccurrences(of: "href: `https://www.nationalarchives.gov.uk/PRONOM/${match.puid}`", with: "")
                #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(uri)")
            }
            let script = try await client.execute(uri: "/page/uti.js", method: .get)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8" && !script.text.contains("innerHTML"))
            #expect(try await client.execute(uri: "/page/uti.css", method: .get).headers[.contentType] == "text/css; charset=utf-8")
        }
    }
}

@Suite("The routing endpoints' contract, in process")
struct RoutingContractTests {
    func contract(_ setup: ServerRoutingTests.Setup) -> Contract {
        Contract(configuration: .init(version: UTIVersion.string,
                                      routing: .init(registry: Registry(root: setup.root), token: Array(setup.token.utf8))))
    }

    @Test("POST /route needs the bearer token: 401 without (before the body is read), 403 with a wrong one, 201 and a delivery with it")
    func route() async throws {
        let setup = try ServerRoutingTests.Setup()
        let token = setup.token
        try await contract(setup).test { client in
            let without = try await client.execute(uri: "/route?name=photo.png", method: .post, body: ByteBuffer(bytes: png))
            #expect(without.status == .unauthorized && without.headers[.wwwAuthenticate] == "Bearer")
            #expect(without.headers[.contentType] == "application/problem+json")
            let notBearer = try await client.execute(uri: "/route?name=photo.png", method: .post, headers: [.authorization: "Basic \(token)"], body: ByteBuffer(bytes: png))
            #expect(notBearer.status == .unauthorized)
            let wrong = try await client.execute(uri: "/route?name=photo.png", method: .post,
                                                 headers: [.authorization: "Bearer 0123456789abcdef-a-token-for-tesTS"], body: ByteBuffer(bytes: png))
            #expect(wrong.status == .forbidden)
            let authorized: HTTPFields = [.authorization: "Bearer \(token)"]
            let right = try await client.execute(uri: "/route?name=photo.png", method: .post, headers: authorized, body: ByteBuffer(bytes: png))
            #expect(right.status == .created, "\(right.text)")
            #expect(right.object?["handler"] as? String == "com.example.viewer" && right.object?["identifier"] as? String == "public.png")
            let delivered = try #require(right.object?["delivered"] as? String)
            #expect(try Data(contentsOf: URL(filePath: delivered)) == Data(png))
            let unhandled = try await client.execute(uri: "/route?name=notes.txt", method: .post, headers: authorized, body: ByteBuffer(string: "words\n"))
            #expect(unhandled.status == .unprocessableContent, "no app opens text: \(unhandled.text)")
            let elsewhere = try await client.execute(uri: "/route?name=photo.png&to=com.example.nobody", method: .post, headers: authorized, body: ByteBuffer(bytes: png))
            #expect(elsewhere.status == .notFound, "\(elsewhere.text)")
            let badName = try await client.execute(uri: "/route?name=..%2Fescape.png", method: .post, headers: authorized, body: ByteBuffer(bytes: png))
            #expect(badName.status == .badRequest, "\(badName.text)")
            let noName = try await client.execute(uri: "/route", method: .post, headers: authorized, body: ByteBuffer(bytes: png))
            #expect(noName.status == .badRequest)
            let inbox = try await client.execute(uri: "/apps/com.example.viewer/inbox", method: .get, headers: authorized)
            #expect(inbox.status == .ok && inbox.array?.map { $0["name"] as? String } == ["photo.png"], "\(inbox.text)")
        }
    }

    @Test("GET /apps/{bundleID}/inbox lists document names only with the token, and changes nothing")
    func inbox() async throws {
        let setup = try ServerRoutingTests.Setup()
        try setup.files.write("secret plans", to: "root/Containers/com.example.viewer/Documents/Inbox/merger.pdf")
        // What a crash left: a delivery temporary no one holds locked.
        let abandoned = try setup.files.write("half", to: "root/Containers/com.example.viewer/tmp/1.2.3.uti-delivery")
        let token = setup.token
        try await contract(setup).test { client in
            let without = try await client.execute(uri: "/apps/com.example.viewer/inbox", method: .get)
            #expect(without.status == .unauthorized && !without.text.contains("merger.pdf"))
            let wrong = try await client.execute(uri: "/apps/com.example.viewer/inbox", method: .get,
                                                 headers: [.authorization: "Bearer 0123456789abcdef-a-token-for-tesTS"])
            #expect(wrong.status == .forbidden && !wrong.text.contains("merger.pdf"))
            let right = try await client.execute(uri: "/apps/com.example.viewer/inbox", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(right.status == .ok && right.text.contains("merger.pdf"), "\(right.text)")
            let nobody = try await client.execute(uri: "/apps/com.example.nobody/inbox", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(nobody.status == .notFound)
        }
        #expect(FileManager.default.fileExists(atPath: abandoned), "a GET removed nothing")
    }

    @Test("GET /apps and /apps/{bundleID}: the registry, bundle identifiers checked; only with the token (they hold containers' paths)")
    func apps() async throws {
        let setup = try ServerRoutingTests.Setup()
        let authorized: HTTPFields = [.authorization: "Bearer \(setup.token)"]
        let root = setup.root
        try await contract(setup).test { client in
            for uri in ["/apps", "/apps/com.example.viewer"] {
                let without = try await client.execute(uri: uri, method: .get)
                #expect(without.status == .unauthorized && !without.text.contains(root), "\(uri): \(without.text)")
                let wrong = try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer 0123456789abcdef-a-token-for-tesTS"])
                #expect(wrong.status == .forbidden && !wrong.text.contains(root), "\(uri): \(wrong.text)")
            }
            let list = try await client.execute(uri: "/apps", method: .get, headers: authorized)
            #expect(list.status == .ok && list.array?.first?["bundleIdentifier"] as? String == "com.example.viewer", "\(list.text)")
            #expect(try await client.execute(uri: "/apps/COM.example.VIEWER", method: .get, headers: authorized).status == .ok, "compared without case")
            #expect(try await client.execute(uri: "/apps/com.example.nobody", method: .get, headers: authorized).status == .notFound)
            #expect(try await client.execute(uri: "/apps/bad..identifier", method: .get, headers: authorized).status == .badRequest)
        }
    }
}
