import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// The real server asked by a real HTTP client library (Foundation's URLSession, libcurl's on Linux), as a
/// Swift or any other program would.
extension RunningServer {
    struct NotHTTP: Error {}

    func request(_ path: String, method: String = "GET", body: [UInt8]? = nil, headers: [(String, String)] = [])
        async throws -> (status: Int, body: String, contentType: String?) {
        guard let url = URL(string: base + path) else { throw URLError(.badURL) }
        var request = URLRequest(url: url, timeoutInterval: 60)
        request.httpMethod = method
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let answer = response as? HTTPURLResponse else { throw NotHTTP() }
        return (answer.statusCode, String(decoding: data, as: UTF8.self), answer.value(forHTTPHeaderField: "Content-Type"))
    }

    /// Whether a new connection to the server is refused (it no longer listens).
    var refusesConnections: Bool {
        (try? RawConnection(port: port)) == nil
    }

    /// Waits for the server to exit, at most `limit` seconds; its exit status, or `nil` if it did not.
    func exitStatus(within limit: Int) -> Int32? {
        for _ in 0..<(limit * 20) {
            if !process.isRunning { return process.terminationStatus }
            usleep(50_000)
        }
        return nil
    }
}

@Suite("uti-server, asked by URLSession")
struct ClientTests {
    @Test("every endpoint answers what it documents")
    func everyEndpoint() async throws {
        let server = try RunningServer()
        #expect(try await server.request("/healthz").body == "ok\n")
        #expect(try await server.request("/version").body.hasPrefix("uti "))
        for method in ["PUT", "POST"] {
            let identified = try await server.request("/identify?name=photo.png", method: method, body: png)
            #expect(identified.status == 200 && identified.contentType == "application/json")
            #expect(identified.body.contains("\"identifier\":\"public.png\"") && identified.body.contains("\"path\":\"photo.png\""), "\(identified)")
        }
        let plain = try await server.request("/identify", method: "PUT", body: png, headers: [("Accept", "text/plain")])
        #expect(plain.body == "image/png\n")
        let detected = try await server.request("/detect/stream", method: "PUT", body: Array("a,b\n1,2\n".utf8), headers: [("File-Name", "t.csv")])
        #expect(detected.body == "text/csv" && detected.contentType?.hasPrefix("text/plain") == true)
        let boundary = "----uti-boundary"
        let multipart = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"; filename=\"a.png\"\r\n\r\n".utf8) + png
            + Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"b\"; filename=\"b.txt\"\r\n\r\nwords\n\r\n--\(boundary)--\r\n".utf8)
        let parts = try await server.request("/identify", method: "POST", body: multipart,
                                             headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(parts.body.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["mimeType"] as? String } == ["image/png", "text/plain"])
        #expect(try await server.request("/types/public.jpeg").body.contains("\"preferredMIMEType\":\"image/jpeg\""))
        #expect(try await server.request("/types?mime=application/pdf").body.contains("\"identifier\":\"com.adobe.pdf\""))
        #expect(try await server.request("/conforms?type=public.png&to=public.image").body.contains("\"conforms\":true"))
        let mimeTypes = try await server.request("/mime-types")
        #expect(mimeTypes.status == 200 && mimeTypes.body.contains("\"image/png\""))
        let details = try await server.request("/mime-types/image/png")
        #expect(details.status == 200 && details.body.contains("public.png"), "\(details)")
        let document = try await server.request("/openapi.json")
        #expect(document.status == 200 && document.contentType == "application/json")
        let metrics = try await server.request("/metrics")
        #expect(metrics.body.contains("uti_http_requests_total") && metrics.body.contains("family=\"image\""), "\(metrics.body.prefix(500))")
        // Routing is off: its routes say so.
        #expect(try await server.request("/apps").status == 404)
    }

    @Test("SIGTERM: no new connections, the request in flight is answered, exit status 0")
    func gracefulShutdownWithARequestInFlight() async throws {
        // The server's own timers are far beyond the test: a test process whose threads are all busy with
        // other suites may not get back to this one for a minute, and a server that closed the upload's
        // connection meanwhile would leave nothing in flight to test.
        let files = try TemporaryDirectory()
        let logPath = files.file("server.log")
        #expect(FileManager.default.createFile(atPath: logPath, contents: nil))
        let server = try RunningServer(["--max-concurrent", "1", "--grace-period", "3600"] + RunningServer.patientTimers,
                                       standardError: try FileHandle(forWritingTo: URL(filePath: logPath)))
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        // The upload in flight goes over a socket of its own, written from this thread: half its body now.
        let body = png + [UInt8](repeating: 0, count: 100_000)
        let upload = try #require(try server.requestInFlight(
            Array("PUT /identify?name=late.png HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
                + body[..<50_000]), "the upload never reached its handler; the server's log:\n\(log)")
        #expect(try await server.request("/healthz").status == 503, "turned away while the upload is in flight")
        server.process.terminate()
        var refusing = false
        for _ in 0..<400 where !refusing {
            refusing = server.refusesConnections
            if !refusing { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(refusing, "the server still accepts connections after SIGTERM")
        #expect(server.process.isRunning, "the server waits for the request in flight; its log:\n\(log)")
        upload.send(Array(body[50_000...]))
        let answer = upload.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("\"identifier\":\"public.png\""), "\(answer.prefix(300))")
        #expect(server.exitStatus(within: 60) == 0)
    }

    @Test("a request still in flight when the grace period ends is cancelled; exit status 0")
    func gracePeriodEnds() async throws {
        let server = try RunningServer(["--grace-period", "1", "--max-concurrent", "1"] + RunningServer.patientTimers)
        let stalled = try #require(try server.requestInFlight(Array("PUT /identify HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\nabc".utf8)))
        server.process.terminate()
        #expect(server.exitStatus(within: 60) == 0)
        // Held open to the end: released earlier, it would close and end the request it keeps in flight.
        withExtendedLifetime(stalled) {}
    }

    @Test("1,000 connections at once, each with an upload in flight: every one answered")
    func thousandConnections() throws {
        let server = try RunningServer(["--max-concurrent", "1000"] + RunningServer.patientTimers)
        // All connected before any request is sent, so the server holds 1,000 connections at once.
        let connections = try (0..<1000).map { _ in try RawConnection(port: server.port) }
        let request = Array("PUT /identify?name=x.png HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(png.count)\r\nConnection: close\r\n\r\n".utf8) + png
        for connection in connections { connection.send(request) }
        var answered = 0
        for connection in connections {
            let answer = connection.readToEnd()
            if answer.hasPrefix("HTTP/1.1 200") && answer.contains("\"identifier\":\"public.png\"") { answered += 1 }
        }
        #expect(answered == 1000)
        #expect(try server.rawStatus("/healthz") == 200)
    }
}

@Suite("uti-server: slow clients")
struct SlowClientTests {
    /// Sends `bytes` one a tenth of a second until the server closes the connection, at most `limit` bytes;
    /// whether it closed it.
    func dribble(_ connection: RawConnection, limit: Int) -> Bool {
        var pending = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
        for _ in 0..<limit {
            connection.send("x")
            if poll(&pending, 1, 100) > 0 {
                var byte: UInt8 = 0
                if recv(connection.socket, &byte, 1, 0) <= 0 { return true }
            }
        }
        return false
    }

    @Test("a client dribbling its request head is cut off by --header-timeout, however long the idle timeout")
    func dribbledHead() throws {
        let server = try RunningServer(["--header-timeout", "1", "--idle-timeout", "3600"])
        let connection = try RawConnection(port: server.port)
        connection.send("PUT /identify HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        #expect(dribble(connection, limit: 600), "still open after a minute of dribbling")
        #expect(try server.rawStatus("/healthz") == 200)
    }

    @Test("a body slower than --min-body-rate is cut off after --body-timeout")
    func dribbledBody() throws {
        let server = try RunningServer(["--body-timeout", "1", "--min-body-rate", "100", "--idle-timeout", "3600"])
        let connection = try RawConnection(port: server.port)
        connection.send("PUT /identify HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n")
        #expect(dribble(connection, limit: 600), "still open after a minute of dribbling")
        #expect(try server.rawStatus("/healthz") == 200)
    }

    @Test("an idle kept-alive connection is closed after --header-timeout; a prompt one is served")
    func keptAlive() throws {
        let server = try RunningServer(["--header-timeout", "1", "--idle-timeout", "3600"])
        let connection = try RawConnection(port: server.port)
        connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let answer = connection.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("ok\n"), "\(answer)")
    }
}

@Suite("uti-server: requests that are not HTTP")
struct MalformedRequestTests {
    @Test("bytes that are not an HTTP request get a 400 problem document and a closed connection", arguments: [
        "GET /healthz HTTP/1.1\r\nA header line without a colon\r\n\r\n",
        "PUT /identify HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\nxyz",
        "PUT /identify HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nxyz",
        "NOT HTTP AT ALL\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nX-Long: " + String(repeating: "a", count: 100_000) + "\r\n\r\n",
    ])
    func notHTTP(request: String) throws {
        let server = try RunningServer()
        let connection = try RawConnection(port: server.port)
        connection.send(request)
        let answer = connection.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
        #expect(answer.lowercased().contains("content-type: application/problem+json"), "\(answer.prefix(300))")
        #expect(answer.contains("\"status\":400") && answer.contains("\"detail\":\"the request is not HTTP/1.1"), "\(answer.prefix(400))")
        #expect(try server.rawStatus("/healthz") == 200, "the server goes on")
    }

    @Test("a chunked body whose framing breaks gets a 400 problem document")
    func brokenChunks() throws {
        let server = try RunningServer()
        let connection = try RawConnection(port: server.port)
        connection.send("PUT /identify HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")
        let answer = connection.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("application/problem+json"), "\(answer.prefix(300))")
    }
}
