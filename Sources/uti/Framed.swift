import UTIReports
import FileIdentification
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// `uti identify --framed -`: many files through one process, for programs that hold the bytes rather
/// than a path (Spark's `binaryFile` rows, an upload queue). Standard input is a sequence of records:
///
///     name length    4 bytes, unsigned, big-endian (at most 4,096)
///     name           that many bytes, any bytes (newlines too), not necessarily UTF-8
///     content length 8 bytes, unsigned, big-endian (at most 2^63 - 1)
///     content        that many bytes (none for an empty file)
///
/// and ends at the end of input after a whole record. For each record one line goes to standard output, in
/// order: `uti identify --json`'s object with the name as `path` (escaped as `\xNN` with `"pathEscaped":
/// true` where it is not UTF-8), or `{"path": ..., "error": ...}`. Output is flushed whenever uti is about to
/// wait for input, so a client may send a record and wait for its line. Content is spooled as an upload is:
/// its first MiB in memory, the rest in a private temporary file without a name.
///
/// Exit status 0; 1 when a record could not be identified (its line says why); 2 when the input is not
/// records (cut short, or a length out of bounds), after the lines of the records before it.
struct FramedIdentifyJob: Equatable {
    var typeFiles: [String] = []

    static let maximumNameLength = 4096

    func run() -> Int32 {
        guard TypeOptions.loadDeclarations(typeFiles: typeFiles) else { return 2 }
        let identifier = FileIdentifier()
        var output = StandardOutput()
        var input = FramedInput(descriptor: .standardInput)
        var failed = false
        var record = 0
        do {
            while true {
                if input.isEmpty { output.flush() }
                let recordStart = input.consumed
                guard try input.hasMore() else { break }
                record += 1
                func cut(_ what: String) -> FramingError { FramingError(record: record, offset: recordStart, problem: what) }
                guard let nameLength = try input.integer(bytes: 4) else { throw cut("it ends within its name length") }
                guard nameLength <= UInt64(Self.maximumNameLength) else {
                    throw cut("its name is \(nameLength) bytes long, more than \(Self.maximumNameLength)")
                }
                guard let name = try input.bytes(Int(nameLength)) else { throw cut("it ends within its name") }
                guard let contentLength = try input.integer(bytes: 8) else { throw cut("it ends within its content length") }
                guard contentLength <= UInt64(Int64.max) else { throw cut("its content length \(contentLength) is more than 2^63 - 1") }
                let spool = SpooledBytes()
                spool.expectedCount = Int(min(contentLength, UInt64(SpooledBytes.defaultMemoryLimit)))
                var spoolError: Errno?
                let delivered = try input.stream(Int(contentLength)) { chunk in
                    guard spoolError == nil else { return }
                    do throws(Errno) { try spool.append(chunk) } catch { spoolError = error }
                }
                guard delivered == Int(contentLength) else {
                    throw cut("it ends within its content (\(delivered) of \(contentLength) bytes)")
                }
                let path = RawFilePath(bytes: name)
                let shown = path.dataText
                let result: Result<Identification, IdentificationError>
                if let spoolError {
                    result = .failure(IdentificationError(path: shown, reason: .system(spoolError)))
                } else {
                    result = Result { () throws(IdentificationError) in
                        try identifier.identify(spool, filename: String(decoding: name, as: UTF8.self))
                    }
                }
                switch result {
                case .success(let identification):
                    output.line(IdentificationReport(identification, path: shown, pathEscaped: !path.isValidUTF8).json.rendered)
                case .failure(let error):
                    failed = true
                    var members: [(String, JSONValue)] = [("path", .string(shown))]
                    if !path.isValidUTF8 { members.append(("pathEscaped", true)) }
                    members.append(("error", .string(error.message)))
                    output.line(JSONValue.object(members).rendered)
                }
            }
        } catch let error as FramingError {
            output.flush()
            Terminal.error(error.description)
            return 2
        } catch {
            output.flush()
            Terminal.error("standard input: \(error)")
            return 2
        }
        output.flush()
        return failed ? 1 : 0
    }
}

/// Input that is not records.
struct FramingError: Error, CustomStringConvertible {
    var record: Int
    var offset: Int
    var problem: String

    var description: String { "standard input: record \(record) (at byte \(offset)) is not a record: \(problem)" }
}

/// Standard input read in blocks, handed out by exact counts.
struct FramedInput {
    let descriptor: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    /// Bytes handed out so far.
    private(set) var consumed = 0

    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    /// Whether the next byte has to be waited for.
    var isEmpty: Bool { start == end }

    /// Reads another block once the last is used up; false at the end of input.
    private mutating func fill() throws -> Bool {
        guard start == end else { return true }
        start = 0
        end = 0
        let count = try buffer.withUnsafeMutableBytes { raw in try descriptor.read(into: raw) }
        end = count
        return count > 0
    }

    /// Whether another byte comes (waiting for it if need be).
    mutating func hasMore() throws -> Bool {
        try fill()
    }

    /// A big-endian unsigned integer of `bytes` bytes; `nil` when input ends first.
    mutating func integer(bytes count: Int) throws -> UInt64? {
        try bytes(count).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }

    /// Exactly `count` bytes; `nil` when input ends first.
    mutating func bytes(_ count: Int) throws -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        let delivered = try stream(count) { result.append(contentsOf: $0) }
        return delivered == count ? result : nil
    }

    /// Hands `count` bytes to `body` block by block; how many there were before input ended.
    mutating func stream(_ count: Int, _ body: (UnsafeRawBufferPointer) -> Void) throws -> Int {
        var delivered = 0
        while delivered < count {
            guard try fill() else { break }
            let taken = min(end - start, count - delivered)
            buffer.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[start..<start + taken])) }
            start += taken
            delivered += taken
            consumed += taken
        }
        return delivered
    }
}
