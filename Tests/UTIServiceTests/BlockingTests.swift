import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// Nothing blocks the event loops: with another process holding the registry lock, or a client
/// stalling its body, the server still answers everything else. The assertions are about order, not time:
/// the health check and an identification must be answered while the lock is still held (it is released
/// only after they are), so a server whose event loops wait on the lock can never pass. Each request has a
/// generous ceiling (`--max-time 60`) so that a failing server fails the test rather than hanging it.
@Suite("uti-server: nothing blocks the event loops",
       Tools.needsCurl, .enabled(if: Tools.has("flock"), "needs flock(1)"))
struct BlockingTests {
    /// `flock(1)` holding the registry lock exclusively until stopped; returns once it holds it.
    final class HeldLock {
        let process = Process()

        init(_ path: String) throws {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            process.executableURL = URL(filePath: "/usr/bin/flock")
            // --no-fork: flock(1) becomes the sleep, so that stopping it releases the lock.
            process.arguments = ["--exclusive", "--no-fork", path, "sleep", "600"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Held once a non-blocking attempt from here fails (within a minute, or flock(1) failed).
            var tries = 0
            while process.isRunning, tries < 12_000, try Self.isFree(path) {
                tries += 1
                usleep(5_000)
            }
            try #require(try process.isRunning && !Self.isFree(path), "flock(1) holds \(path)")
        }

        /// Whether nobody holds `path` exclusively: a shared lock of it can be taken at once (and is let go).
        /// Asked in this process with flock(2), so that a probe that cannot run never reads as "held".
        static func isFree(_ path: String) throws -> Bool {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else {
                guard errno == EWOULDBLOCK else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                return false
            }
            flock(descriptor, LOCK_UN)
            return true
        }

        func release() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        deinit { release() }
    }

    /// A curl started in the background; `finish()` waits for it and gives the status and body.
    final class PendingRequest {
        let process = Process()
        private let output = Pipe.closingOnExec()

        init(_ url: String, _ arguments: [String]) throws {
            process.executableURL = URL(filePath: "/usr/bin/curl")
            process.arguments = ["-s", "--max-time", "120", "-w", "\n%{http_code}"] + arguments + [url]
            process.standardOutput = output
            try process.run()
        }

        func finish() -> (status: Int, body: String) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
            let status = Int(lines.removeLast()) ?? 0
            return (status, lines.joined(separator: "\n"))
        }
    }

    @Test("routes waiting on a registry lock another process holds leave /healthz, /detect/stream and /types answering")
    func heldRegistryLock() throws {
        let setup = try ServerRoutingTests.Setup()
        let server = try RunningServer(["--routing", "--token-file", setup.tokenFile, "--root", setup.root, "--lock-timeout", "600"])
        let image = try setup.files.write(png, to: "photo.png")
        let lock = try HeldLock(setup.root + "/registry.lock")
        // More routes than the machine has event loops (one per core) and than the registry's pool has threads.
        let routes = try (0..<6).map { index in
            try PendingRequest(server.base + "/route?name=photo\(index).png",
                               ["-X", "POST", "--data-binary", "@" + image, "-H", "Authorization: Bearer \(setup.token)"])
        }
        // The routes have reached the lock: the server is waiting on it (a registry read answers without it).
        var apps = try server.curl("/apps", ["--max-time", "60", "-H", "Authorization: Bearer \(setup.token)"])
        #expect(apps.status == 200, "\(apps)")
        let health = try server.curl("/healthz", ["--max-time", "60"])
        #expect(health.status == 200 && health.body == "ok\n", "\(health)")
        let detected = try server.curl("/detect/stream", ["--max-time", "60", "-X", "PUT", "--data-binary", "@" + image])
        #expect(detected.status == 200 && detected.body == "image/png", "\(detected)")
        let types = try server.curl("/types/public.png", ["--max-time", "60"])
        #expect(types.status == 200, "\(types)")
        // All of that while the lock was held and the routes were still waiting on it.
        #expect(try !HeldLock.isFree(setup.root + "/registry.lock"))
        #expect(routes.allSatisfy { $0.process.isRunning }, "the routes wait for the lock")
        lock.release()
        for route in routes {
            let answer = route.finish()
            #expect(answer.status == 201, "\(answer)")
        }
        apps = try server.curl("/apps/com.example.viewer/inbox", ["-H", "Authorization: Bearer \(setup.token)"])
        #expect((0..<6).allSatisfy { apps.body.contains("photo\($0).png") }, "\(apps)")
    }

    @Test("a route that cannot take the registry lock within --lock-timeout is answered 503 with Retry-After, and delivers nothing")
    func lockTimeout() throws {
        let setup = try ServerRoutingTests.Setup()
        let server = try RunningServer(["--routing", "--token-file", setup.tokenFile, "--root", setup.root, "--lock-timeout", "1"])
        let image = try setup.files.write(png, to: "photo.png")
        let lock = try HeldLock(setup.root + "/registry.lock")
        let answer = try server.curl("/route?name=photo.png", ["--max-time", "60", "-X", "POST", "--data-binary", "@" + image,
                                                                "-H", "Authorization: Bearer \(setup.token)"])
        #expect(answer.status == 503, "\(answer)")
        #expect(answer.headers.lowercased().contains("retry-after: 5"), "\(answer.headers)")
        #expect(answer.body.contains("registry lock"), "\(answer.body)")
        #expect(try !HeldLock.isFree(setup.root + "/registry.lock"), "answered while the lock was still held")
        lock.release()
        let inbox = try server.curl("/apps/com.example.viewer/inbox", ["-H", "Authorization: Bearer \(setup.token)"])
        #expect(inbox.status == 200 && !inbox.body.contains("photo.png"), "\(inbox)")
        let again = try server.curl("/route?name=photo.png", ["-X", "POST", "--data-binary", "@" + image, "-H", "Authorization: Bearer \(setup.token)"])
        #expect(again.status == 201, "\(again)")
    }

    @Test("clients stalling their bodies (past the memory share, mid-file) leave the server answering others")
    func stalledBodies() throws {
        let server = try RunningServer(RunningServer.patientTimers)
        let files = try TemporaryDirectory()
        let image = try files.write(png, to: "photo.png")
        // Each sends a head promising 8 MiB and 2 MiB of it (past the 1 MiB kept in memory: the rest goes to
        // a temporary file), then stops sending.
        let stalled = try (0..<6).map { _ in
            let connection = try RawConnection(port: server.port)
            connection.send(Self.stalledRequest())
            return connection
        }
        let health = try server.curl("/healthz", ["--max-time", "60"])
        #expect(health.status == 200 && health.body == "ok\n", "\(health)")
        let detected = try server.curl("/detect/stream", ["--max-time", "60", "-X", "PUT", "--data-binary", "@" + image])
        #expect(detected.status == 200 && detected.body == "image/png", "\(detected)")
        #expect(stalled.allSatisfy { !$0.hasAnswered }, "the stalled requests are still waiting for their bodies")
    }

    @Test("with Magika's model, nameless text waits for its inference off the event loops, at most one per core: /healthz, a PNG and /types answer meanwhile; the model and libmagic were loaded before the server listened",
          .enabled(if: Tools.magikaPackages != nil, Tools.needsMagika))
    func modelOffTheLoops() throws {
        let files = try TemporaryDirectory()
        let gate = try files.write("", to: "gate")
        let server = try RunningServer(["--model"], environment: ["PYTHONPATH": try #require(Tools.magikaPackages), "UTI_MAGIKA": "",
                                                                  "UTI_FAULT_INJECTION_MODEL_GATE": gate])
        // Loaded before it said it listens, no request asked yet: libmagic's database and ONNX Runtime are mapped.
        let maps = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/maps", encoding: .utf8)
        #expect(maps.contains("magic.mgc") && maps.contains("libonnxruntime"), "the lazy parts were not loaded before listening")
        let lock = try HeldLock(gate)
        let script = try files.write(Self.nameless, to: "tool")
        let image = try files.write(png, to: "photo.png")
        // More requests than the machine has event loops (one per core) and than the model's pool has threads.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pending = try (0..<(2 * cores + 2)).map { _ in
            try PendingRequest(server.base + "/detect/stream", ["-X", "PUT", "--data-binary", "@" + script])
        }
        // Inferences wait at the gate: as many as the model's pool runs at once, no more.
        #expect(Self.waitForWaiters(on: gate, count: cores), "the inferences never reached the gate")
        let health = try server.curl("/healthz", ["--max-time", "60"])
        #expect(health.status == 200 && health.body == "ok\n", "\(health)")
        let detected = try server.curl("/detect/stream", ["--max-time", "60", "-X", "PUT", "--data-binary", "@" + image])
        #expect(detected.status == 200 && detected.body == "image/png", "\(detected)")
        let types = try server.curl("/types?q=python%20script", ["--max-time", "60"])
        #expect(types.status == 200 && types.body.contains("public.python-script"), "\(types.status)")
        #expect(Self.waiters(on: gate) == cores, "inferences at once: \(Self.waiters(on: gate)), not one per core")
        #expect(pending.allSatisfy { $0.process.isRunning }, "the nameless texts wait for the model")
        lock.release()
        for request in pending {
            let answer = request.finish()
            #expect(answer.status == 200 && answer.body == "text/x-python", "the model's answer: \(answer)")
        }
    }

    @Test("without --model the service neither loads nor asks the model, installed or not: the same answer as on any machine",
          .enabled(if: Tools.magikaPackages != nil, Tools.needsMagika))
    func modelOnlyWhenAsked() throws {
        let files = try TemporaryDirectory()
        let server = try RunningServer([], environment: ["PYTHONPATH": try #require(Tools.magikaPackages), "UTI_MAGIKA": ""])
        let script = try files.write(Self.nameless, to: "tool")
        let detected = try server.curl("/detect/stream", ["--max-time", "60", "-X", "PUT", "--data-binary", "@" + script])
        #expect(detected.status == 200 && detected.body == "text/plain", "\(detected)")
        let maps = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/maps", encoding: .utf8)
        #expect(!maps.contains("libonnxruntime"), "ONNX Runtime was loaded by a service not asked to use the model")
    }

    @Test("a log nobody reads (standard error a full pipe) holds no event loop: a thousand requests, each logged, are all answered")
    func unreadLog() throws {
        let files = try TemporaryDirectory()
        let stderr = Pipe.closingOnExec()  // never read: it fills after some 64 KiB of lines
        let server = try RunningServer([], standardError: stderr.fileHandleForWriting)
        // One curl, one connection, a thousand requests: some 230 KiB of request lines.
        let urls = (0..<1000).map { _ in "url = \"\(server.base)/healthz\"\noutput = \"/dev/null\"\n" }.joined()
        let config = try files.write(urls, to: "curl.conf")
        let curl = Process()
        curl.executableURL = URL(filePath: "/usr/bin/curl")
        curl.arguments = ["-s", "--max-time", "60", "-w", "%{http_code}\n", "-K", config]
        let output = Pipe.closingOnExec()
        curl.standardOutput = output
        try curl.run()
        // --max-time bounds each transfer; the whole run is bounded here (a server waiting for its log never answers).
        let deadline = ContinuousClock.now + .seconds(120)
        while curl.isRunning && ContinuousClock.now < deadline { usleep(100_000) }
        // SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM among them.
        if curl.isRunning { kill(curl.processIdentifier, SIGKILL) }
        curl.waitUntilExit()
        let answers = output.fileHandleForReading.readDataToEndOfFile()
        let statuses = String(decoding: answers, as: UTF8.self).split(separator: "\n")
        #expect(curl.terminationStatus == 0 && statuses.count == 1000 && statuses.allSatisfy { $0 == "200" },
                "\(statuses.count) answers, curl exit \(curl.terminationStatus): the event loops waited for the log")
        #expect(try server.curl("/healthz", ["--max-time", "30"]).status == 200)
        // Read the log at last, so that a server that did wait for it can be stopped.
        let reader = stderr.fileHandleForReading
        Thread.detachNewThread { _ = reader.readDataToEndOfFile() }
    }

    /// A Python program without `#!` or name: what only the model names.
    static let nameless = """
        import os
        import sys


        def main(arguments):
            for argument in arguments:
                print(os.path.basename(argument))
            return 0


        if __name__ == "__main__":
            sys.exit(main(sys.argv[1:]))

        """

    /// How many processes wait for a lock of `path` (`/proc/locks`' blocked entries, `->`, on its inode).
    static func waiters(on path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return 0 }
        return locks.split(separator: "\n").filter { $0.contains("->") && $0.contains(":\(status.st_ino) ") }.count
    }

    /// Whether `count` processes or threads come to wait for a lock of `path` (polled for at most a minute:
    /// the test waits for an event, it does not time one).
    static func waitForWaiters(on path: String, count: Int) -> Bool {
        for _ in 0..<6_000 {
            if waiters(on: path) >= count { return true }
            usleep(10_000)
        }
        return false
    }

    static func stalledRequest() -> [UInt8] {
        let head = "PUT /detect/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(8 << 20)\r\n\r\n"
        return Array(head.utf8) + png + Array(repeating: 0, count: (2 << 20) - png.count)
    }
}
