public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real server, started on a free port (`uti-server`, or `uti serve` with `command`), until the value goes:
/// what every test of a running server starts, and reads where it listens from its first line.
public final class RunningServer {
    public let process = Process()
    public let port: Int
    /// The first line it printed: where it listens.
    public let firstLine: String
    private let output = Pipe.closingOnExec()

    public static let binary = Tools.builtProduct("uti-server")

    public init(_ arguments: [String] = [], binary: URL = RunningServer.binary, command: [String] = [], environment: [String: String] = [:],
                standardError: FileHandle = .nullDevice) throws {
        process.executableURL = binary
        process.arguments = command + ["--port", "0"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = output
        process.standardError = standardError
        try process.run()
        // The first line says where it listens.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        firstLine = text
        guard let port = text.split(separator: ":").last.flatMap({ Int($0) }) else {
            process.terminate()
            throw POSIXError(.ECONNREFUSED)
        }
        self.port = port
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The status of a `GET` of `path` over a connection of its own (0 if there was no answer).
    public func rawStatus(_ path: String) throws -> Int {
        let connection = try RawConnection(port: port)
        connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let answer = connection.readToEnd()
        guard answer.hasPrefix("HTTP/1.1 ") else { return 0 }
        return Int(answer.dropFirst(9).prefix(3)) ?? 0
    }

    /// A connection whose request (`bytes`, a head and not all of its body) is in the server's hands:
    /// for a server started with `--max-concurrent 1`, asked by no one else. Known to be in flight when a
    /// probe of `/healthz` is turned away; a probe that came first turns the request itself away, which
    /// is then sent again on a new connection. `nil` if that never happened (a bounded number of tries).
    public func requestInFlight(_ bytes: [UInt8]) throws -> RawConnection? {
        for _ in 0..<20 {
            let connection = try RawConnection(port: port)
            connection.send(bytes)
            for _ in 0..<500 {
                if try rawStatus("/healthz") == 503 { return connection }
                if connection.hasAnswered { break }
                usleep(10_000)
            }
        }
        return nil
    }

    /// Connection timers no test outlasts: for tests that hold a request in flight while they ask other
    /// things, so that only what the test does ends it.
    public static let patientTimers = ["--idle-timeout", "3600", "--header-timeout", "3600", "--body-timeout", "3600"]

    public var base: String { "http://127.0.0.1:\(port)" }

    /// `curl` with `arguments`; the body, and the status code on the last line.
    public func curl(_ path: String, _ arguments: [String] = []) throws -> (status: Int, body: String, headers: String) {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/curl")
        let headers = try TemporaryDirectory()
        process.arguments = ["-s", "-D", headers.file("h"), "-w", "\n%{http_code}"] + arguments + [base + path]
        let pipe = Pipe.closingOnExec()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        let status = Int(lines.removeLast()) ?? 0
        return (status, lines.joined(separator: "\n"), (try? String(contentsOfFile: headers.file("h"), encoding: .utf8)) ?? "")
    }
}

/// A raw TCP connection to the server, for clients no HTTP library would be: silent, or stalled mid-request.
public final class RawConnection {
    public let socket: Int32

    public init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(socket) }

    public func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Sends all of `bytes` (or as much as the server takes before it closes).
    public func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }

    /// Whether the server has sent something or closed the connection (without waiting).
    public var hasAnswered: Bool {
        var pending = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&pending, 1, 0) > 0
    }

    /// Waits for what the server sends next (at most 60 seconds, so that a server that never answers fails
    /// the test instead of hanging it); what arrived, empty when nothing did or the connection closed.
    public func readSome() -> String {
        var limit = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    /// Reads until the server closes the connection; what it sent.
    public func readToEnd() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
