import SystemPackage
package import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The server's log: one line per event on standard error, in logfmt (`time=… level=info msg=request
/// method=PUT route=/identify status=200 …`), which log shippers parse without configuration. Values are
/// quoted when they hold a space, `=` or `"`, and control characters are escaped, so that nothing a client
/// sends can start a line of its own. Cheaper per line than swift-log's `StreamLogHandler`: the server
/// writes one for every request.
package struct LogfmtLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let label: String

    package init(label: String) {
        self.label = label
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        Self.append("time", Self.timestamp(), to: &line)
        Self.append("level", event.level.rawValue, to: &line)
        Self.append("logger", label, to: &line)
        Self.append("msg", event.message.description, to: &line)
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        for key in merged.keys.sorted() {
            if let value = merged[key] { Self.append(key, value.description, to: &line) }
        }
        line.append(0x0A)
        // One write of the whole line (retried on EINTR and short writes), under the lock: lines never interleave.
        Self.output.withLock { _ in _ = try? FileDescriptor.standardError.writeAll(line) }
    }

    /// Serializes writers, so that lines never interleave.
    private static let output = Mutex<Void>(())

    static func append(_ key: String, _ value: String, to line: inout [UInt8]) {
        if !line.isEmpty { line.append(0x20) }
        line.append(contentsOf: key.utf8)
        line.append(UInt8(ascii: "="))
        let needsQuotes = value.isEmpty || value.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") || $0 == 0x7F }
        if !needsQuotes {
            line.append(contentsOf: value.utf8)
            return
        }
        line.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }

    /// Now in UTC, to the millisecond: `2026-11-23T07:41:57.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(now.tv_nsec / 1_000_000)
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
