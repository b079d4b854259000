import SystemPackage
import UTIReports
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
        var fields = metadata.map { (key: $0.key, value: $0.value.description) }
        for (key, value) in event.metadata ?? [:] {
            fields.removeAll { $0.key == key }
            fields.append((key, value.description))
        }
        write(level: event.level, message: event.message.description, fields: fields)
    }

    /// A line of `level` with `message` and `fields` (this handler's metadata among them, or not), the fields in
    /// the order of their keys: what `log(event:)` writes, for a caller that has its fields at hand and need not
    /// build swift-log's metadata dictionaries.
    package func write(level: Logger.Level, message: String, fields: consuming [(key: String, value: String)]) {
        guard level >= logLevel else { return }
        var line = ByteWriter(capacity: 512)
        render(level: level, message: message, fields: fields, into: &line)
        line.withBytes { LogOutput.shared.append($0) }
    }

    /// `write`'s line, into `line`.
    func render(level: Logger.Level, message: String, fields: consuming [(key: String, value: String)], into line: inout ByteWriter) {
        renderHead(level: level, message: message, into: &line)
        fields.sort { $0.key < $1.key }  // in place: the caller hands its fields over
        for field in fields { Self.append(field.key, field.value, to: &line) }
        line.append(0x0A)
    }

    /// Every line's start: `time=… level=… logger=… msg=…`.
    private func renderHead(level: Logger.Level, message: String, into line: inout ByteWriter) {
        line.append(utf8: "time=")
        Self.appendTimestamp(to: &line)
        Self.append("level", level.rawValue, to: &line)
        Self.append("logger", label, to: &line)
        Self.append("msg", message, to: &line)
    }

    /// A value of the request log's line: text, or a number written digit by digit into the line.
    package enum RequestValue {
        case text(String)
        case number(Int)
    }

    /// The request log's line (a line per request, at `info`): `fields` in the order of their keys already,
    /// and `metadata` (this handler's, as text: Hummingbird's request id) merged in where its keys fall,
    /// numbers written in place; the line `write` makes of the same fields, without a list of strings made and
    /// sorted per request.
    package func writeRequest(_ fields: [(key: String, value: RequestValue)], metadata: consuming [(key: String, value: String)]) {
        guard Logger.Level.info >= logLevel else { return }
        var line = ByteWriter(capacity: 512)
        renderRequest(fields, metadata: metadata, into: &line)
        line.withBytes { LogOutput.shared.append($0) }
    }

    /// `writeRequest`'s line, into `line`.
    func renderRequest(_ fields: [(key: String, value: RequestValue)], metadata extra: consuming [(key: String, value: String)],
                       into line: inout ByteWriter) {
        renderHead(level: .info, message: "request", into: &line)
        if extra.count > 1 { extra.sort { $0.key < $1.key } }
        var next = 0
        for (key, value) in fields {
            while next < extra.count, extra[next].key <= key {  // an equal key: the metadata's first, as a stable sort of both puts it
                Self.append(extra[next].key, extra[next].value, to: &line)
                next += 1
            }
            switch value {
            case .text(let text): Self.append(key, text, to: &line)
            case .number(let number):
                Self.appendKey(key, to: &line)
                line.append(decimal: number)
            }
        }
        for field in extra[next...] { Self.append(field.key, field.value, to: &line) }
        line.append(0x0A)
    }

    /// Writes out the lines not yet written, from the calling thread, before it returns: at exit.
    package static func flush() {
        LogOutput.shared.flush()
    }

    /// ` key=value` (after the line's timestamp, every field has a space before it), quoted where logfmt needs it.
    static func append(_ key: String, _ value: String, to line: inout ByteWriter) {
        appendKey(key, to: &line)
        let needsQuotes = value.isEmpty || (value.utf8.withContiguousStorageIfAvailable(needsQuoting) ?? needsQuoting(value.utf8))
        if !needsQuotes {
            line.append(utf8: value)
            return
        }
        line.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): line.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: line.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: line.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: line.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                line.append(bytes: [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }

    /// ` key=`: a field's start.
    private static func appendKey(_ key: String, to line: inout ByteWriter) {
        line.append(0x20)
        line.append(utf8: key)
        line.append(UInt8(ascii: "="))
    }

    /// Whether a value holds a byte that logfmt must quote: a space or control byte, `=`, `"`, DEL.
    static func needsQuoting(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes where byte <= 0x20 || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "\"") || byte == 0x7F { return true }
        return false
    }

    /// Now in UTC, to the millisecond: `2026-11-23T07:41:57.123Z`.
    static func timestamp() -> String {
        var bytes = ByteWriter(capacity: 32)
        appendTimestamp(to: &bytes)
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends now in UTC, to the millisecond, digit by digit.
    static func appendTimestamp(to line: inout ByteWriter) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // `2026-11-29T02:05:12.374Z`, written in place and appended at once (a line per request).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            func put(_ value: Int, _ count: Int, at offset: Int, then separator: UInt8) {
                var rest = value
                for place in stride(from: offset + count - 1, through: offset, by: -1) {
                    text[place] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                text[offset + count] = separator
            }
            put(Int(parts.tm_year) + 1900, 4, at: 0, then: UInt8(ascii: "-"))
            put(Int(parts.tm_mon) + 1, 2, at: 5, then: UInt8(ascii: "-"))
            put(Int(parts.tm_mday), 2, at: 8, then: UInt8(ascii: "T"))
            put(Int(parts.tm_hour), 2, at: 11, then: UInt8(ascii: ":"))
            put(Int(parts.tm_min), 2, at: 14, then: UInt8(ascii: ":"))
            put(Int(parts.tm_sec), 2, at: 17, then: UInt8(ascii: "."))
            put(Int(now.tv_nsec / 1_000_000), 3, at: 20, then: UInt8(ascii: "Z"))
            line.append(bytes: UnsafeBufferPointer(text))
        }
    }
}

/// Where the log's lines go: standard error, written by a thread of its own. No event loop waits for whoever
/// reads standard error (a full pipe, a slow terminal), and the lines of many requests go out in one write
/// (the writer gathers them for `gathering` after the first).
/// Whole lines only, in the order they were made; at most `capacity` bytes wait, and past that lines are
/// dropped and counted, and a line says how many once there is room again (a log that cannot keep up must
/// not take the memory or the event loops).
final class LogOutput: Sendable {
    static let shared = LogOutput()
    static let capacity = 1 << 20
    /// How long the writer gathers lines after the first one wakes it, in microseconds: a line reaches
    /// standard error within about this long.
    static let gathering: UInt32 = 2_000

    private struct State {
        var pending: [UInt8] = []
        var dropped = 0
        var started = false
    }

    private let state = Mutex(State())
    /// Held while a batch is taken and written, so that batches go out in order (the writer's and `flush`'s).
    private let writing = Mutex(())
    /// Posted when lines wait; the writer thread sleeps on it.
    private nonisolated(unsafe) let ready: UnsafeMutablePointer<sem_t>

    private init() {
        ready = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(ready, 0, 0)
    }

    func append(_ line: UnsafeBufferPointer<UInt8>) {
        let (wake, start) = state.withLock { state -> (Bool, Bool) in
            guard state.pending.count + line.count <= Self.capacity else {
                state.dropped += 1
                return (false, false)
            }
            let wasEmpty = state.pending.isEmpty
            if state.dropped > 0 {
                state.pending += Array("time=".utf8)
                state.pending += Array(LogfmtLogHandler.timestamp().utf8)
                state.pending += Array(" level=warning msg=\"\(state.dropped) log lines dropped: standard error did not keep up\"\n".utf8)
                state.dropped = 0
            }
            state.pending.append(contentsOf: line)
            let start = !state.started
            state.started = true
            return (wasEmpty, start)
        }
        if start { startWriter() }
        if wake { sem_post(ready) }
    }

    func flush() {
        writing.withLock { _ in writeOut() }
    }

    /// Takes what waits and writes it (retried on EINTR and short writes); with `writing` held.
    private func writeOut() {
        let batch = state.withLock { state -> [UInt8] in
            let batch = state.pending
            state.pending.removeAll(keepingCapacity: true)
            return batch
        }
        if !batch.isEmpty { _ = try? FileDescriptor.standardError.writeAll(batch) }
    }

    private func startWriter() {
        final class Box: Sendable {
            let output: LogOutput
            init(_ output: LogOutput) { self.output = output }
        }
        let context = Unmanaged.passRetained(Box(self)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let output = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().output
            while true {
                while sem_wait(output.ready) != 0 {}  // EINTR: wait again
                // Lines made meanwhile join the batch without waking anyone: a busy service's requests
                // cost one wake-up and one write per interval, not one each (a wake-up per line cost more
                // than identifying a PNG).
                usleep(LogOutput.gathering)
                output.writing.withLock { _ in output.writeOut() }
            }
        }, context)
        if created == 0 {
            pthread_detach(thread)
            // Lines still waiting when the process exits (an error after start-up) go out first.
            atexit { LogOutput.shared.flush() }
        } else {
            // No thread: write from the caller, as a log must not lose its lines for want of one.
            Unmanaged<Box>.fromOpaque(context).release()
            state.withLock { $0.started = false }
            flush()
        }
    }
}

