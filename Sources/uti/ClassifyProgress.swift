import FileIdentification
#if canImport(Glibc)
import Glibc
#endif

/// One progress line on standard error while classifying: entries done, entries per second, the
/// current directory; redrawn at most ten times a second, erased at the end, and never drawn when
/// standard error is not a terminal.
struct Progress {
    private let enabled = isatty(STDERR_FILENO) == 1
    private let started = Progress.now()
    private var lastDrawn = 0.0
    private var done = 0
    private var current = ""
    private var drawn = false

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    mutating func count(_ entry: ClassifiedEntry) {
        done += 1
        if enabled && done % 64 == 0 {
            let component = entry.path.escaped
            current = component.split(separator: "/").dropLast().joined(separator: "/")
        }
    }

    var isDue: Bool { enabled && Progress.now() - lastDrawn >= 0.1 }

    mutating func draw() {
        let now = Progress.now()
        lastDrawn = now
        let rate = Double(done) / max(now - started, 0.001)
        var line = "\(done) entries, \(Int(rate)) entries/s, \(current.isEmpty ? "." : "/" + current)"
        if line.count > 100 { line = String(line.prefix(97)) + "..." }
        Terminal.standardError("\r\u{1B}[K" + line)
        drawn = true
    }

    mutating func erase() {
        if drawn { Terminal.standardError("\r\u{1B}[K") }
        drawn = false
    }
}
