import Foundation
import TestSupport
import Testing

/// The browser Chromium finds on this machine, if any (`.ci/run` installs Debian's `chromium`).
enum Chromium {
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let driver = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "Browser/page.py").path
}

@Suite("The page at /, in a real browser", .enabled(if: Chromium.path != nil, "needs Debian's chromium (.ci/run installs it)"))
struct PageTests {
    @Test("headless Chromium chooses three files (a PNG named .txt among them) and browses the types; the page shows what the API says")
    func inChromium() throws {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", Chromium.driver, "--server", RunningServer.binary.path, "--chromium", Chromium.path ?? "chromium"]
        let output = Pipe.closingOnExec()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("the page works in Chromium") && !text.contains("FAIL"), "\(text)")
    }
}
