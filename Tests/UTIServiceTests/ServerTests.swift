import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
import AppContainers
import DocumentRouting
import FileIdentification
@testable import UTIService
import UTIReports

let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]

@Suite("uti-server")
struct ServerTests {
    @Test("SIGTERM stops the server, exit status 0")
    func gracefulStop() throws {
        let server = try RunningServer()
        server.process.terminate()
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
    }
}

/// A parser, asked in process: nothing of the machine is needed (no curl, no server).
@Suite("Upload names")
struct UploadNameTests {
    @Test("file names from Content-Disposition (RFC 6266 and 8187)", arguments: [
        ("attachment; filename=plain.txt", "plain.txt"),
        ("attachment; filename=\"quoted \\\"name\\\".txt\"", "quoted \"name\".txt"),
        ("attachment; filename*=UTF-8''%E2%82%AC%20rates.pdf", "€ rates.pdf"),
        ("attachment; filename=\"a.txt\"; filename*=utf-8''b.txt", "b.txt"),
        ("attachment; filename*=iso-8859-1''%E9t%E9.txt", "été.txt"),
        ("attachment; filename*=UTF-8''%ZZ.txt; filename=ok.txt", "ok.txt"),
        ("inline", nil),
        ("attachment; filename=\"\"", nil),
    ] as [(String, String?)])
    func contentDisposition(value: String, name: String?) {
        #expect(UploadName.fromContentDisposition(value) == name)
    }
}

@Suite("The OpenAPI document")
struct OpenAPITests {
    /// `openapi.json` at the top of the repository: a link to the one the server compiles in.
    static let repositoryCopy = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "openapi.json")

    static var document: [String: Any] {
        get throws { try #require(try JSONSerialization.jsonObject(with: Data(UTIService.openAPIDocument)) as? [String: Any]) }
    }

    @Test("the document in the repository is the one the server has, and says the one version")
    func sameDocument() throws {
        let file = try Data(contentsOf: Self.repositoryCopy)
        #expect(file == Data(UTIService.openAPIDocument))
        let info = try #require(try Self.document["info"] as? [String: Any])
        #expect(info["version"] as? String == UTIVersion.string)
    }

    @Test("every route the server has is in the document, and every operation of the document is a route")
    func routesMatch() throws {
        let document = try Self.document
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        let documented = Set(paths.flatMap { path, operations in operations.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
        let served = Set(Contract().service.router().routes.map { "\($0.method.rawValue) \($0.path)" })
        #expect(documented == served, "only documented: \(documented.subtracting(served)); only served: \(served.subtracting(documented))")
    }
}

@Suite("The systemd unit", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "needs systemd-analyze"))
struct SystemdUnitTests {
    static let unit = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Integrations/systemd/uti-server.service")

    /// `systemd-analyze` on the unit, its `ExecStart` pointed at the built server.
    func analyze(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let directory = try TemporaryDirectory()
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/uti-server", with: RunningServer.binary.path)
        let copy = try directory.write(text, to: "uti-server.service")
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/systemd-analyze")
        process.arguments = arguments + [copy]
        let pipe = Pipe.closingOnExec()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("systemd-analyze verify accepts the unit without a warning")
    func verifies() throws {
        let result = try analyze(["verify"])
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test("its exposure, by systemd-analyze security, is low (under 2 of 10)")
    func hardened() throws {
        let result = try analyze(["security", "--offline=yes"])
        let level = result.output.split(separator: "\n").last { $0.contains("Overall exposure level") }
            .flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
        #expect((level ?? 10) < 2, "\(result.output.suffix(300))")
    }
}

@Suite("uti-server: logs and metrics", Tools.needsCurl)
struct ServerObservabilityTests {
    @Test("one structured log line per request, without its headers; metrics by route, status and family")
    func logsAndMetrics() throws {
        let files = try TemporaryDirectory()
        let logPath = files.file("server.log")
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        let log = try FileHandle(forWritingTo: URL(filePath: logPath))
        let server = try RunningServer([], standardError: log)
        let image = try files.write(png, to: "a.png")
        #expect(try server.curl("/identify?name=a.png", ["-T", image, "-H", "Authorization: Bearer s3cret-token"]).status == 200)
        #expect(try server.curl("/types/no.such.type").status == 404)
        let metrics = try server.curl("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains(#"uti_http_requests_total{route="/identify",status="200"} 1"#), "\(metrics.body)")
        #expect(metrics.body.contains(#"uti_http_requests_total{route="/types/{identifier}",status="404"} 1"#) ||
                metrics.body.contains(#"uti_http_requests_total{route="/types/:identifier",status="404"} 1"#), "\(metrics.body)")
        #expect(metrics.body.contains(#"uti_identified_total{family="image"} 1"#))
        #expect(metrics.body.contains("uti_http_request_duration_seconds_bucket"))
        server.process.terminate()
        server.process.waitUntilExit()
        try log.close()
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        let identify = lines.filter { $0.contains("request") && $0.contains("route=/identify") }
        #expect(identify.count == 1, "\(lines)")
        for field in ["method=PUT", "status=200", "bytesIn=\(png.count)", "bytesOut=", "durationMs=", "requestID="] {
            #expect(identify.first?.contains(field) == true, "\(field) in \(identify)")
        }
        #expect(!lines.contains { $0.contains("s3cret-token") }, "the token never reaches the log")
    }

    @Test("bytes in are the bytes received, also for a chunked body that declares no length")
    func chunkedBytesIn() throws {
        let files = try TemporaryDirectory()
        let logPath = files.file("server.log")
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        let log = try FileHandle(forWritingTo: URL(filePath: logPath))
        let server = try RunningServer([], standardError: log)
        let body = try files.write(png + [UInt8](repeating: 0x20, count: 70_000), to: "a.png")
        let answer = try server.curl("/identify?name=a.png", ["-X", "PUT", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + body])
        #expect(answer.status == 200, "\(answer)")
        server.process.terminate()
        server.process.waitUntilExit()
        try log.close()
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        let identify = lines.filter { $0.contains("msg=request") && $0.contains("route=/identify") }
        #expect(identify.count == 1 && identify.first?.contains("bytesIn=\(png.count + 70_000) ") == true, "\(identify)")
    }
}

@Suite("uti-server: routing", Tools.needsCurl)
struct ServerRoutingTests {
    /// A registry with one viewer of images, and a token file.
    final class Setup {
        let files: TemporaryDirectory
        let root: String
        let tokenFile: String
        let token = "0123456789abcdef-a-token-for-tests"

        init() throws {
            files = try TemporaryDirectory()
            root = files.file("root")
            tokenFile = try files.write(token + "\n", to: "token")
            chmod(tokenFile, 0o600)
            let plist = """
                <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.viewer</string>
                <key>CFBundleDocumentTypes</key><array><dict><key>LSItemContentTypes</key><array><string>public.image</string></array>
                </dict></array></dict></plist>
                """
            let manifest = try files.write(plist, to: "Viewer.plist")
            try Registry(root: root).register(appAt: manifest)
        }
    }

    @Test("routing is off unless asked for, and asking for it needs a token file")
    func offByDefault() throws {
        let setup = try Setup()
        let server = try RunningServer(["--root", setup.root])
        let answer = try server.curl("/route?name=a.png", ["-X", "POST", "--data-binary", "x"])
        #expect(answer.status == 404 && answer.body.contains("routing is off"), "\(answer)")
        let process = Process()
        process.executableURL = RunningServer.binary
        process.arguments = ["--routing", "--port", "0"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "a usage error")
    }

    @Test("a token file its group or others may read is refused at start, as ssh refuses such a key", arguments: [0o644, 0o640, 0o604, 0o660])
    func tokenFileMustBePrivate(mode: Int) throws {
        let setup = try Setup()
        chmod(setup.tokenFile, mode_t(mode))
        let process = Process()
        process.executableURL = RunningServer.binary
        process.arguments = ["--routing", "--token-file", setup.tokenFile, "--root", setup.root, "--port", "0"]
        let error = Pipe.closingOnExec()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0, "mode \(String(mode, radix: 8))")
        #expect(message.contains(setup.tokenFile) && message.contains("chmod 600"), "\(message)")
    }

    @Test("HEAD is answered wherever GET is, with GET's headers and no body; a wrong method's 405 says HEAD too and is counted under its route",
          Tools.needsCurl)
    func headAndMethodNotAllowed() throws {
        let server = try RunningServer()
        let health = try server.curl("/healthz", ["-I", "-o", "/dev/null"])
        #expect(health.status == 200 && health.body.isEmpty && health.headers.lowercased().contains("content-length: 3"), "\(health)")
        let page = try server.curl("/", ["-I", "-o", "/dev/null"])
        #expect(page.status == 200 && page.headers.lowercased().contains("content-type: text/html"), "\(page.headers)")
        #expect(try server.curl("/types/public.png", ["-I"]).status == 200)
        #expect(try server.curl("/healthz").body == "ok\n", "GET unchanged on the same server")
        let wrong = try server.curl("/healthz", ["-X", "DELETE"])
        #expect(wrong.status == 405 && wrong.headers.contains("Allow: GET, HEAD"), "\(wrong.headers)")
        let metrics = try server.curl("/metrics").body
        #expect(metrics.contains("route=\"/healthz\",status=\"405\"") || metrics.contains("status=\"405\",route=\"/healthz\""), "\(metrics.prefix(2_000))")
    }

    @Test("Expect: 100-continue is answered 100 Continue before the body is sent; a body declared past --max-body gets the 413 first")
    func expectContinue() throws {
        let server = try RunningServer(["--max-body", "1K"])
        let upload = try RawConnection(port: server.port)
        upload.send("PUT /identify?name=a.png HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: \(png.count)\r\n\r\n")
        let interim = upload.readSome()
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim)")
        upload.send(png)
        let answer = upload.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 200 OK") && answer.contains("\"identifier\":\"public.png\""), "\(answer)")
        let tooLarge = try RawConnection(port: server.port)
        tooLarge.send("PUT /identify?name=b.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: 2048\r\n\r\n")
        let refused = tooLarge.readSome()
        #expect(refused.hasPrefix("HTTP/1.1 413"), "no 100 for a body the server will not take: \(refused)")
    }

    @Test("Tika's endpoints uti does not serve answer 501 with a problem that says only detection is offered", Tools.needsCurl)
    func tikaEndpointsNotOffered() throws {
        let server = try RunningServer()
        for path in ["/rmeta/text", "/tika", "/language/stream", "/meta"] {
            let answer = try server.curl(path, ["-X", "PUT", "--data-binary", "hello"])
            #expect(answer.status == 501 && answer.body.contains("uti serves Tika's detection only"), "\(path): \(answer)")
        }
        #expect(try server.curl("/no-such-route").status == 404)
    }

    @Test("sizes take the suffixes every size option of uti takes: --max-body 1K refuses 2 KiB with 413; a size it cannot read is a usage error")
    func sizeSuffixes() throws {
        let setup = try Setup()
        let server = try RunningServer(["--max-body", "1K"])
        let small = try setup.files.write([UInt8](repeating: 0x41, count: 1_000), to: "small.txt")
        let large = try setup.files.write([UInt8](repeating: 0x41, count: 2_048), to: "large.txt")
        #expect(try server.curl("/identify?name=small.txt", ["-T", small]).status == 200)
        #expect(try server.curl("/identify?name=large.txt", ["-T", large]).status == 413)
        let process = Process()
        process.executableURL = RunningServer.binary
        process.arguments = ["--max-body", "10Q", "--port", "0"]
        let error = Pipe.closingOnExec()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64 && message.contains("'10Q' is invalid for '--max-body <size>'"), "\(message)")
    }

    @Test("uploads past the spool budget are answered 503 with Retry-After while others hold it, 413 when they could never fit; the budget comes back")
    func spoolBudget() throws {
        let setup = try Setup()
        // No memory for bodies: every byte goes to the spool, which may hold 3 MiB in all.
        let server = try RunningServer(["--routing", "--token-file", setup.tokenFile, "--root", setup.root,
                                        "--body-memory", "0", "--spool-budget", "3M"] + RunningServer.patientTimers)
        let large = try setup.files.write([UInt8](repeating: 0x41, count: 2 << 20), to: "large.bin")
        let huge = try setup.files.write([UInt8](repeating: 0x41, count: 4 << 20), to: "huge.bin")
        #expect(try server.curl("/identify?name=huge.bin", ["-T", huge]).status == 413, "more than the budget can ever hold")
        // One upload holds 2 MiB of the budget, its last bytes not sent.
        func hold() throws -> RawConnection {
            let holder = try RawConnection(port: server.port)
            holder.send("PUT /identify?name=held.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: \((2 << 20) + 10)\r\n\r\n")
            holder.send([UInt8](repeating: 0x42, count: 2 << 20))
            return holder
        }
        var holder = try hold()
        // Until the server has spooled it, another body may still pass: tried until one is refused, for at least a
        // minute on a loaded machine. The probe is 1.4 MiB: with the held 2 MiB it passes the 3 MiB budget, while
        // two probes alone (the last one's share not yet given back as the next arrives) do not.
        let probe = try setup.files.write([UInt8](repeating: 0x43, count: 1_400 << 10), to: "probe.bin")
        var refused: (status: Int, body: String, headers: String)?
        for _ in 0..<600 {
            let answer = try server.curl("/identify?name=probe.bin", ["-T", probe])
            if answer.status == 503 && !holder.hasAnswered { refused = answer; break }
            #expect(answer.status == 200 || answer.status == 503)
            // A probe that came first took the budget the held upload needed: that upload was refused, rightly
            // (503). It is made again, so that it is the one holding the budget.
            if holder.hasAnswered {
                #expect(holder.readToEnd().hasPrefix("HTTP/1.1 503"), "the held upload is answered only when refused")
                holder = try hold()
            }
            usleep(100_000)
        }
        let answer = try #require(refused, "a second body while the first holds 2 of 3 MiB")
        #expect(answer.headers.lowercased().contains("retry-after:"), "\(answer.headers)")
        let routed = try server.curl("/route?name=large.bin", ["-X", "POST", "--data-binary", "@" + large, "-H", "Authorization: Bearer \(setup.token)"])
        #expect(routed.status == 503, "\(routed)")
        let parts = try server.curl("/identify", ["-F", "a=@\(large)"])
        #expect(parts.status == 503 || parts.status == 413, "\(parts)")
        // The held upload ends: its share comes back, and a body within the budget passes again.
        holder.send([UInt8](repeating: 0x42, count: 10))
        _ = holder.readToEnd()
        var passed = false
        for _ in 0..<600 where !passed {
            passed = try server.curl("/identify?name=large.bin", ["-T", large]).status == 200
            if !passed { usleep(100_000) }
        }
        #expect(passed)
    }
}

@Suite("uti-server: extra declarations", Tools.needsCurl)
struct ServerDeclarationTests {
    @Test("--types adds declarations as the command line does; a refused file stops the server, exit 2")
    func types() throws {
        let files = try TemporaryDirectory()
        let declarations = try files.write("""
            <plist version="1.0"><dict><key>UTExportedTypeDeclarations</key><array><dict>
            <key>UTTypeIdentifier</key><string>com.example.served-notebook</string>
            <key>UTTypeConformsTo</key><array><string>public.json</string></array>
            <key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><array><string>snb</string></array></dict>
            </dict></array></dict></plist>
            """, to: "types.plist")
        let server = try RunningServer(["--types", declarations])
        let notebook = try files.write("{\"cells\": []}\n", to: "a.snb")
        let answer = try server.curl("/identify?name=a.snb", ["-T", notebook])
        #expect(answer.body.contains("\"identifier\":\"com.example.served-notebook\""), "\(answer)")
        #expect(try server.curl("/types/com.example.served-notebook").status == 200)
        let bad = try files.write("<plist><dict><key>UTExportedTypeDeclarations</key><string>no</string></dict></plist>", to: "bad.plist")
        let process = Process()
        process.executableURL = RunningServer.binary
        process.arguments = ["--port", "0", "--types", bad]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
    }
}

@Suite("uti-server: limits", Tools.needsCurl)
struct ServerLimitTests {
    @Test("a connection that stays silent is closed (--idle-timeout)")
    func idleConnectionsAreClosed() throws {
        let server = try RunningServer(["--idle-timeout", "1"])
        let connection = try RawConnection(port: server.port)
        #expect(connection.readToEnd().isEmpty, "closed by the server, nothing sent")
        #expect(try server.curl("/healthz").status == 200)
    }

    @Test("beyond --max-concurrent requests in flight, 503 with Retry-After at once")
    func concurrencyLimit() throws {
        let server = try RunningServer(["--max-concurrent", "1"] + RunningServer.patientTimers)
        // A request whose body never comes: in flight until its connection closes.
        let stalled = try #require(try server.requestInFlight(Array("PUT /identify HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\nabc".utf8)))
        let refused = try server.curl("/healthz")
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.headers.lowercased().contains("retry-after: 1"))
        _ = shutdown(stalled.socket, Int32(SHUT_RDWR))
    }
}

@Suite("uti-server: multipart uploads")
struct MultipartTests {
    @Test("parts larger than a chunk, holding line breaks and near-boundaries across chunks, come back byte for byte")
    func largeParts() throws {
        var generator = SystemRandomNumberGenerator()
        let boundary = "----uti-test-boundary-42"
        var first = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        first.replaceSubrange(1_048_570..<1_048_600, with: Array("\r\n------uti-test-boundary-4\r\n".utf8) + [0x0D])
        let second = Array("short\r\n--\r\n".utf8)
        var body: [UInt8] = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"; filename=\"big.bin\"\r\n\r\n".utf8) + first
        body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"b\"; filename*=UTF-8''%C3%A9.txt\r\nContent-Type: text/plain\r\n\r\n".utf8) + second
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        // In receive-buffer-sized chunks, as `BodySpooler.parts` takes them.
        let parts = try Self.split(body, boundary: boundary, chunks: 16 << 10).map { Multipart.Part(headers: $0.headers, content: SpooledBytes(contents: $0.content)) }
        #expect(parts.count == 2)
        #expect(parts.first?.filename == "big.bin" && parts.last?.filename == "é.txt")
        #expect(try parts.first?.content.source.bytes(at: 0, length: Int.max) == first)
        #expect(try parts.last?.content.source.bytes(at: 0, length: Int.max) == second)
        #expect(parts.last?.headers["content-type"] == "text/plain")
        #expect(Multipart.boundary(of: "multipart/form-data; boundary=\"quoted\"") == "quoted")
        #expect(Multipart.boundary(of: "application/json") == nil)
    }

    /// The parts `Multipart.Splitter` makes of `body` fed in chunks of `size` bytes (0: random sizes).
    static func split(_ body: [UInt8], boundary: String, chunks size: Int) throws -> [(headers: [String: String], content: [UInt8])] {
        var splitter = try Multipart.Splitter(boundary: boundary)
        var parts: [(headers: [String: String], content: [UInt8])] = []
        var generator = SystemRandomNumberGenerator()
        var offset = 0
        while offset < body.count {
            let length = min(body.count - offset, size > 0 ? size : Int.random(in: 1...300, using: &generator))
            try splitter.feed(body[offset..<(offset + length)]) { event in
                switch event {
                case .part(let headers): parts.append((headers, []))
                case .content(let bytes): parts[parts.count - 1].content += bytes
                }
            }
            offset += length
        }
        try splitter.finish()
        return parts
    }

    @Test("parts split wherever the chunks of a body end, one byte at a time included, the same")
    func anyChunks() throws {
        let boundary = "b0und"
        let body = Array("preamble\r\n--b0und  \r\nContent-Disposition: form-data; name=\"a\"; filename=\"a.txt\"\r\n\r\nhello\r\n--b0un\r\nd".utf8)
            + Array("\r\n--b0und\r\n\r\n\r\n--b0und--\r\nepilogue".utf8)
        for size in [1, 2, 7, 13, 64, 0, 0, 0, body.count] {
            let parts = try Self.split(body, boundary: boundary, chunks: size)
            #expect(parts.count == 2, "chunks of \(size)")
            #expect(parts.first?.headers["content-disposition"] == "form-data; name=\"a\"; filename=\"a.txt\"")
            #expect(parts.first?.content == Array("hello\r\n--b0un\r\nd".utf8), "chunks of \(size)")
            #expect(parts.last?.headers.isEmpty == true && parts.last?.content.isEmpty == true)
        }
    }

    @Test("a body past the parser's limits, or cut short, is refused saying why", arguments: [
        ("no boundary at all", "no boundary in the body"),
        ("--b\r\nA: 1\r\n\r\nx", "not closed by a boundary"),
        ("--b\r\n" + String(repeating: "H", count: 17 << 10), "not ended by an empty line"),
        ("--b\r\nno colon\r\n\r\nx\r\n--b--", "header line without"),
        ("--c\r\n\r\nx\r\n--c--", "no boundary"),
        ("--b junk\r\n\r\n", "not followed by a line break"),
        (String(repeating: "--b\r\n\r\nx\r\n", count: 1_001) + "--b--", "more than 1000 parts"),
    ])
    func limits(body: String, reason: String) {
        #expect {
            _ = try Self.split(Array(body.utf8), boundary: "b", chunks: 0)
        } throws: { error in
            String(describing: error).contains(reason)
        }
    }
}

/// Apache Tika's own Python client (`tika` from PyPI, in client-only mode), from the virtual environment
/// `.ci/run` makes in `.build-python`.
enum TikaClient {
    static let python = Tools.buildPython ?? "/nonexistent/.build-python/bin/python"

    static let isAvailable = Tools.buildPython(hasModule: "tika")
}

@Suite("A Tika client pointed at uti", .enabled(if: TikaClient.isAvailable, "needs .build-python with PyPI's tika (.ci/run makes it)"))
struct TikaClientTests {
    @Test("tika.detector.from_buffer and from_file, unchanged, get uti's answers")
    func detector() throws {
        let server = try RunningServer()
        let files = try TemporaryDirectory()
        let pdf = try files.write("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", to: "report")
        let image = try files.write(png, to: "picture.png")
        let script = """
            import os, sys
            os.environ["TIKA_SERVER_ENDPOINT"] = sys.argv[1]
            os.environ["TIKA_CLIENT_ONLY"] = "True"
            from tika import detector
            for path in sys.argv[2:]:
                print(detector.from_buffer(open(path, "rb").read()))
                print(detector.from_file(path))
            """
        let process = Process()
        process.executableURL = URL(filePath: TikaClient.python)
        process.arguments = ["-c", script, server.base, pdf, image]
        let output = Pipe.closingOnExec()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.split(separator: "\n") == ["application/pdf", "application/pdf", "image/png", "image/png"], "\(text)")
    }
}
