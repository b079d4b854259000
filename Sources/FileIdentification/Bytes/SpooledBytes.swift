public import SystemPackage
internal import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// Bytes that arrive in pieces (an upload, a framed record) and are identified once they are all there,
/// without memory growing with their size: the first `memoryLimit` bytes are kept in memory, the rest go to
/// a private temporary file (0600, without a name from the moment it exists: `O_TMPFILE`, or a name
/// unlinked at once where the file system has no `O_TMPFILE`), which identification reads where it needs to
/// (a ZIP's central directory at the end). The file goes away when the value does.
///
///     let body = SpooledBytes()
///     for try await chunk in request.body { try body.append(chunk) }
///     let identification = try FileIdentifier().identify(body, filename: "upload.docx")
public final class SpooledBytes {
    /// 1 MiB: any signature, and the whole of most uploads.
    public static let defaultMemoryLimit = 1 << 20

    /// The bytes kept in memory before the rest goes to the temporary file.
    public let memoryLimit: Int
    /// Where the temporary file is made.
    public let temporaryDirectory: String
    /// The bytes appended so far.
    public private(set) var count = 0

    /// Shared with other spools: memory is taken from it, and given back when this value goes away.
    public let budget: ByteBudget?
    /// Shared with other spools: the bytes their temporary files hold together; given back when this
    /// value goes away.
    public let fileBudget: ByteBudget?

    private var memory: [UInt8] = []
    private var file: FileDescriptor?
    /// Taken from `budget`.
    private var reserved = 0
    /// Taken from `fileBudget`.
    private var reservedFile = 0

    /// An empty spool.
    ///
    /// - Parameters:
    ///   - memoryLimit: The bytes kept in memory before the rest goes to a file.
    ///   - budget: Memory shared by many spools (a server's uploads): a spool keeps bytes in memory only as
    ///     far as the budget has room, so many bodies at once cost no more than it; the rest go to the file.
    ///   - fileBudget: What the temporary files of many spools may hold together (a server's disk): an
    ///     append that would pass it fails with `ENOSPC`, as on a full disk, and writes nothing.
    ///   - temporaryDirectory: Where that file is made: `$TMPDIR`, else `/tmp`.
    public init(memoryLimit: Int = SpooledBytes.defaultMemoryLimit, budget: ByteBudget? = nil, fileBudget: ByteBudget? = nil,
                temporaryDirectory: String? = nil) {
        self.memoryLimit = max(0, memoryLimit)
        self.budget = budget
        self.fileBudget = fileBudget
        self.temporaryDirectory = temporaryDirectory ?? Self.defaultTemporaryDirectory
    }

    /// Where a spool's file is made unless it is told: `$TMPDIR`, else `/tmp`, read at each call.
    public static var defaultTemporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Bytes already in memory, as they are: nothing copied, nothing sent to a file. What a caller that holds
    /// the whole of a file's bytes passes where spooled bytes are taken (`DocumentRouter.route(contents:...)`).
    public convenience init(contents: [UInt8]) {
        self.init(memoryLimit: contents.count)
        memory = contents
        count = contents.count
    }

    deinit {
        file?.closeQuietly()
        budget?.giveBack(reserved)
        fileBudget?.giveBack(reservedFile)
    }

    /// Whether the bytes went beyond memory into a temporary file.
    public var isSpooledToFile: Bool { file != nil }

    /// Adds bytes at the end.
    /// - Throws: `Errno` when the temporary file cannot be made or written (`ENOSPC` on a full disk).
    public func append(_ bytes: some Collection<UInt8>) throws(Errno) {
        let appended: Result<Void, Errno>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Errno) in try append(UnsafeRawBufferPointer(buffer)) }
        }
        if let appended { return try appended.get() }
        try ContiguousArray(bytes).withUnsafeBytes { raw in Result { () throws(Errno) in try append(raw) } }.get()
    }

    /// Adds the bytes of `raw` at the end, copied once (a server's receive buffers).
    /// - Throws: `Errno` when the temporary file cannot be made or written (`ENOSPC` on a full disk, or
    ///   past `fileBudget`).
    public func append(_ raw: UnsafeRawBufferPointer) throws(Errno) {
        var rest = raw[...]
        // Memory holds a prefix of the bytes: once any went to the file, every later one does.
        var room = 0
        if file == nil, memory.count < memoryLimit {
            room = min(memoryLimit - memory.count, rest.count)
            if let budget { room = budget.take(upTo: room) }
        }
        // The rest needs room in the file budget, all of it, before anything is kept.
        if rest.count > room, let fileBudget {
            guard fileBudget.take(all: rest.count - room) else {
                budget?.giveBack(room)
                throw .noSpace
            }
            reservedFile += rest.count - room
        }
        if budget != nil { reserved += room }
        if room > 0 {
            if memory.isEmpty { memory.reserveCapacity(min(memoryLimit, max(room, expectedCount))) }
            memory.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest.prefix(room)).assumingMemoryBound(to: UInt8.self))
            rest = rest.dropFirst(room)
        }
        if !rest.isEmpty {
            let file: FileDescriptor
            if let existing = self.file {
                file = existing
            } else {
                file = try makeFile()
                self.file = file
            }
            try file.writeAll(UnsafeRawBufferPointer(rebasing: rest))
        }
        count += raw.count
    }

    /// How many bytes are expected in all (a request's `Content-Length`), so that memory is reserved once;
    /// 0 when unknown.
    public var expectedCount = 0

    private func makeFile() throws(Errno) -> FileDescriptor {
        let directory = try FileDescriptor.open(temporaryDirectory, .readOnly, options: [.directory])
        defer { directory.closeQuietly() }
        // O_TMPFILE (Linux's generic value, which Glibc's module does not export): a file without a name,
        // never visible to anyone.
        let anonymous = FileDescriptor.OpenOptions(rawValue: 0o20000000 | O_DIRECTORY)
        do throws(Errno) {
            return try FileDescriptor.open(".", relativeTo: directory, .readWrite, options: anonymous, permissions: .ownerReadWrite)
        } catch .notSupported, .invalidArgument, .isDirectory {
            // A file system without O_TMPFILE: a fresh name, unlinked as soon as it is open.
        }
        for _ in 0..<16 {
            let name = ".uti-spool-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            do throws(Errno) {
                let file = try FileDescriptor.open(name, relativeTo: directory, .readWrite,
                                                   options: [.create, .exclusiveCreate, .noFollow], permissions: .ownerReadWrite)
                try? directory.remove(name)
                return file
            } catch .fileExists {
                continue
            }
        }
        throw .fileExists
    }

    /// Writes every byte, in order, to `descriptor`: those in memory, then the file's from its start.
    public func write(to descriptor: FileDescriptor) throws(Errno) {
        try descriptor.writeAll(memory)
        guard let file else { return }
        var offset = 0
        while offset < count - memory.count {
            let chunk = try file.read(at: offset, count: min(1 << 20, count - memory.count - offset))
            if chunk.isEmpty { break }
            try descriptor.writeAll(chunk)
            offset += chunk.count
        }
    }

    /// A reader of the bytes: memory first, then the file, by `pread`.
    package struct Source: ByteSource {
        let memory: [UInt8]
        let file: FileDescriptor?
        package let count: Int

        package func bytes(at offset: Int, length: Int) throws(IdentificationError.Reason) -> [UInt8] {
            guard offset >= 0, offset < count, length > 0 else { return [] }
            let wanted = length >= count - offset ? count - offset : length
            // The whole of memory is the array itself: no copy (an upload's head, most often its whole body).
            if offset == 0, wanted == memory.count { return memory }
            var result: [UInt8] = []
            if offset < memory.count {
                result = Array(memory[offset..<min(memory.count, offset + wanted)])
            }
            let remaining = wanted - result.count
            guard remaining > 0, let file else { return result }
            let fileOffset = offset + result.count - memory.count
            do {
                return result + (try file.read(at: fileOffset, count: remaining))
            } catch {
                throw .system(error)
            }
        }
    }

    package var source: Source { Source(memory: memory, file: file, count: count) }
}

extension FileIdentifier {
    /// Identifies bytes gathered in a `SpooledBytes`; `filename` (optional) lets its name count as
    /// evidence. The same answer as `identify(data:filename:)` for the same bytes.
    public func identify(_ spooled: SpooledBytes, filename: String? = nil) throws(IdentificationError) -> Identification {
        try identify(source: spooled.source, filename: filename)
    }
}
