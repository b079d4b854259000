public import SystemPackage

/// Files as framed records on one stream: what `uti identify --framed -` reads, for programs that hold bytes
/// rather than paths (Spark's `binaryFile` rows, an upload queue). Each record is
///
///     name length    4 bytes, unsigned, big-endian (at most `maximumNameLength`, 4,096)
///     name           that many bytes, any bytes (newlines too), not necessarily UTF-8
///     content length 8 bytes, unsigned, big-endian (at most 2^63 - 1)
///     content        that many bytes (none for an empty file)
///
/// and the stream ends at the end of input after a whole record. The reader is hostile-input safe: every length
/// is checked before anything is allocated for it, a name is at most 4,096 bytes, and content is spooled as an
/// upload is (its first MiB in memory, the rest in a private temporary file without a name), so memory does not
/// grow with a record's size.
///
///     var records = FramedRecords(descriptor: .standardInput)
///     while let record = try records.next() { ... record.name, record.content ... }
public struct FramedRecords {
    /// The longest name a record may have.
    public static let maximumNameLength = 4096

    /// One record: its name's bytes and its content, spooled.
    public struct Record {
        /// The name, as it came.
        public var name: [UInt8]
        /// The content (`content.count` is the record's content length).
        public var content: SpooledBytes
        /// Why the content could not be spooled (a full disk), if it could not; the record was still read to
        /// its end, so the next one can be.
        public var spoolError: Errno?
    }

    /// Input that is not records (cut short, or a length out of bounds), or that could not be read.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The record at fault, counting from 1.
        public var record: Int
        /// Where it starts in the stream.
        public var offset: Int
        /// What is wrong with it.
        public var problem: String
        /// The read that failed, when the stream could not be read.
        public var errno: Errno?

        /// The failure in a sentence: which record, where, and what went wrong.
        public var description: String {
            if let errno { return "record \(record) (at byte \(offset)) could not be read: \(errno)" }
            return "record \(record) (at byte \(offset)) is not a record: \(problem)"
        }
    }

    private let read: (UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    private let memoryLimit: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var records = 0
    /// Bytes read so far.
    public private(set) var consumed = 0

    /// Records read from `descriptor` (which stays open: the caller owns it).
    public init(descriptor: FileDescriptor, memoryLimit: Int = SpooledBytes.defaultMemoryLimit) {
        self.init(memoryLimit: memoryLimit) { (raw: UnsafeMutableRawBufferPointer) throws(Errno) -> Int in
            do {
                return try descriptor.read(into: raw, retryOnInterrupt: true)
            } catch let error as Errno {
                throw error
            } catch {
                throw Errno.ioError
            }
        }
    }

    /// Records read from bytes in memory.
    public init(bytes: [UInt8], memoryLimit: Int = SpooledBytes.defaultMemoryLimit) {
        let source = ByteCursor(bytes: bytes)
        self.init(memoryLimit: memoryLimit) { (raw: UnsafeMutableRawBufferPointer) throws(Errno) -> Int in source.read(into: raw) }
    }

    /// Records read by `read`, which fills the buffer it is given and says how many bytes it put there (0 at the
    /// end of input).
    public init(memoryLimit: Int = SpooledBytes.defaultMemoryLimit, read: @escaping (UnsafeMutableRawBufferPointer) throws(Errno) -> Int) {
        self.read = read
        self.memoryLimit = memoryLimit
    }

    /// Whether the next byte has to be waited for: a writer of results flushes them before asking for the next
    /// record, so that a client may send a record and wait for its answer.
    public var isWaiting: Bool { start == end }

    /// The next record; `nil` at the end of input after a whole record.
    public mutating func next() throws(Failure) -> Record? {
        let recordStart = consumed
        guard try fill(recordStart) else { return nil }
        records += 1
        func cut(_ problem: String) -> Failure { Failure(record: records, offset: recordStart, problem: problem) }
        guard let nameLength = try integer(bytes: 4, recordStart) else { throw cut("it ends within its name length") }
        guard nameLength <= UInt64(Self.maximumNameLength) else {
            throw cut("its name is \(nameLength) bytes long, more than \(Self.maximumNameLength)")
        }
        guard let name = try bytes(Int(nameLength), recordStart) else { throw cut("it ends within its name") }
        guard let contentLength = try integer(bytes: 8, recordStart) else { throw cut("it ends within its content length") }
        guard contentLength <= UInt64(Int64.max) else { throw cut("its content length \(contentLength) is more than 2^63 - 1") }
        let content = SpooledBytes(memoryLimit: memoryLimit)
        content.expectedCount = Int(min(contentLength, UInt64(memoryLimit)))
        var spoolError: Errno?
        let delivered = try stream(Int(contentLength), recordStart) { chunk in
            guard spoolError == nil else { return }
            do throws(Errno) { try content.append(chunk) } catch { spoolError = error }
        }
        guard delivered == Int(contentLength) else { throw cut("it ends within its content (\(delivered) of \(contentLength) bytes)") }
        return Record(name: name, content: content, spoolError: spoolError)
    }

    /// Reads another block once the last is used up; false at the end of input.
    private mutating func fill(_ recordStart: Int) throws(Failure) -> Bool {
        guard start == end else { return true }
        start = 0
        end = 0
        let read = self.read
        var result: Result<Int, Errno> = .success(0)
        buffer.withUnsafeMutableBytes { raw in result = Result { () throws(Errno) -> Int in try read(raw) } }
        let count: Int
        switch result {
        case .success(let read): count = read
        case .failure(let error): throw Failure(record: records, offset: recordStart, problem: "the stream could not be read", errno: error)
        }
        end = count
        return count > 0
    }

    /// A big-endian unsigned integer of `count` bytes; `nil` when input ends first.
    private mutating func integer(bytes count: Int, _ recordStart: Int) throws(Failure) -> UInt64? {
        try bytes(count, recordStart).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }

    /// Exactly `count` bytes; `nil` when input ends first.
    private mutating func bytes(_ count: Int, _ recordStart: Int) throws(Failure) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        let delivered = try stream(count, recordStart) { result.append(contentsOf: $0) }
        return delivered == count ? result : nil
    }

    /// Hands `count` bytes to `body` block by block; how many there were before input ended.
    private mutating func stream(_ count: Int, _ recordStart: Int, _ body: (UnsafeRawBufferPointer) -> Void) throws(Failure) -> Int {
        var delivered = 0
        while delivered < count {
            guard try fill(recordStart) else { break }
            let taken = min(end - start, count - delivered)
            let from = start
            buffer.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[from..<from + taken])) }
            start += taken
            delivered += taken
            consumed += taken
        }
        return delivered
    }
}

/// Bytes in memory read as a stream.
private final class ByteCursor {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(into raw: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(raw.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
        }
        offset += count
        return count
    }
}
