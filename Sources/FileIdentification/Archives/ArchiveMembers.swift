public import UniformTypeIdentifiers
internal import CArchive
internal import SystemCalls
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// How far the reading of an archive's members may go: what a hostile archive (a zip bomb, a quine, a deep
/// nest, millions of empty members) is stopped by. Each limit has a default a real archive does not reach.
public struct ArchiveLimits: Sendable, Hashable {
    /// Bytes decompressed in all, over the archive and everything nested in it (what is read of members and
    /// what is decompressed to pass over them).
    public var maxExpandedBytes: Int = 8 << 30
    /// Bytes decompressed for each byte of the archive, once more than `ratioGrace` bytes were decompressed
    /// (Apache POI refuses a ZIP entry past 100 the same way).
    public var maxRatio: Int = 100
    /// How many members in all (directories are not counted, nor reported).
    public var maxMembers: Int = 100_000
    /// How many archives deep a member may be: 1 reads the archive's own members and opens none of them.
    public var maxDepth: Int = 8
    /// The longest member path, in bytes, from the archive's first member name down (longer ones are cut).
    public var maxPathLength: Int = 4096
    /// How long the reading of one archive, with everything nested in it, may take.
    public var timeLimit: Duration = .seconds(60)
    /// What the members held whole to be opened by offset (a ZIP, a `.docx`, an archive in an archive) may
    /// keep in memory together; beyond it their bytes are spooled.
    public var memoryBudget: Int = 32 << 20
    /// What those members may spool to disk together (each spool file has no name, and goes when its member
    /// is done); a member that needs more is identified from its head and not opened (`.spool`).
    public var spoolBudget: Int = 1 << 30
    /// Where members too large for memory are spooled; `TMPDIR`, or `/tmp`, when `nil`.
    public var spoolDirectory: String?

    /// Below this many decompressed bytes the ratio is not checked: a small archive of a few compressible
    /// files may expand past any ratio without being a bomb.
    public static let ratioGrace = 1 << 20

    /// Creates the default limits.
    public init() {}
}

/// Why the reading of an archive's members stopped before its end.
public struct ArchiveTruncation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The word records carry (`truncated: "ratio"`).
    public let rawValue: String
    /// The truncation a record's word names.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The word.
    public var description: String { rawValue }

    /// `ArchiveLimits.maxExpandedBytes` was reached.
    public static let bytes = Self(rawValue: "bytes")
    /// `ArchiveLimits.maxRatio` was reached.
    public static let ratio = Self(rawValue: "ratio")
    /// `ArchiveLimits.maxMembers` was reached.
    public static let members = Self(rawValue: "members")
    /// The member is an archive nested deeper than `ArchiveLimits.maxDepth`: reported, not opened.
    public static let depth = Self(rawValue: "depth")
    /// The member's path passed `ArchiveLimits.maxPathLength` and was cut.
    public static let path = Self(rawValue: "path")
    /// `ArchiveLimits.timeLimit` passed.
    public static let time = Self(rawValue: "time")
    /// The member would have to be spooled past `ArchiveLimits.spoolBudget` (or the spool could not be
    /// written) to be opened: identified from its head, not opened.
    public static let spool = Self(rawValue: "spool")
    /// The archive's list of members is encrypted.
    public static let encrypted = Self(rawValue: "encrypted")
    /// libarchive reads no format of the archive's (a type uti calls an archive that libarchive does not read).
    public static let unsupported = Self(rawValue: "unsupported")
    /// The archive is damaged or cut short where the reading stopped (`problem` says what libarchive found).
    public static let unreadable = Self(rawValue: "unreadable")
}

/// One member of an archive (or of an archive nested in it), identified from its bytes as they stream out
/// of the archive, never extracted.
public struct ArchiveMember: Sendable {
    /// The member's names, one per archive level from the outermost archive's member down to this one, as
    /// the archives store them (data: never used as paths).
    public var names: [RawFilePath]
    /// The member's size as its archive gives it, or as read.
    public var size: Int?
    /// The member's modification time, in seconds since 1970 (UTC), when its archive gives one.
    public var modified: Int64?
    /// Whether the member is encrypted: reported as such, its bytes not read, its type not guessed.
    public var isEncrypted: Bool
    /// What the member is, or why it could not be identified.
    public var result: Result<Identification, IdentificationError>
    /// Why the reading of this member (an archive in the archive) stopped early, or what cut its path.
    public var truncated: ArchiveTruncation?
    /// What libarchive said, with `truncated` `.unreadable`.
    public var problem: String?
    /// How many members of its own were read, when the member is an archive that was opened.
    public var memberCount: Int?

    /// How many archives deep the member is: 1 for a member of the archive itself.
    public var depth: Int { names.count }
    /// The identification, or `nil` if the member failed.
    public var identification: Identification? { try? result.get() }

    /// The member's path below `archive`: `archive#name#name...`, one `#` per archive level; a `#` in any of
    /// the names is written `%23`, and a `%` `%25`, so that each `#` separates levels.
    public func path(in archive: RawFilePath) -> RawFilePath {
        var bytes = Self.escaped(archive.bytes)
        for name in names {
            bytes.append(UInt8(ascii: "#"))
            bytes += Self.escaped(name.bytes)
        }
        return RawFilePath(bytes: bytes)
    }

    /// The member's path as Apache Tika writes it (`X-TIKA:embedded_resource_path`): `/` before each level's
    /// name, the last component of each.
    public var tikaResourcePath: String {
        names.map { "/" + String(decoding: $0.lastComponent, as: UTF8.self) }.joined()
    }

    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%") }) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 4)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "#"): result += Array("%23".utf8)
            case UInt8(ascii: "%"): result += Array("%25".utf8)
            default: result.append(byte)
            }
        }
        return result
    }
}

/// How the reading of one archive's members ended.
public struct ArchiveReading: Sendable {
    /// How many members were reported (nested ones included).
    public var memberCount = 0
    /// Why the reading stopped before the end, if it did.
    public var truncated: ArchiveTruncation?
    /// What libarchive said, with `truncated` `.unreadable` or `.unsupported`.
    public var problem: String?
    /// libarchive's name for the archive's format (`GNU tar format`, `ZIP 2.0 (deflation)`).
    public var format: String?

    /// A reading that has read nothing yet.
    public init() {}
}

extension ErrorKind where Domain == IdentificationErrorDomain {
    /// libarchive could not be loaded (`detail` says why): archives' members cannot be read.
    public static let archiveLibrary = Self("archive-library") { "libarchive: \($0.detail ?? "")" }
}

extension ErrorReason where Domain == IdentificationErrorDomain {
    /// libarchive could not be loaded; `message` says why.
    public static func archiveLibrary(_ message: String) -> Self { Self(.archiveLibrary, detail: message) }
}

extension FileIdentifier {
    /// Whether an identification names a format whose members `readMembers` reads: archives (tar, ZIP, 7-Zip,
    /// RAR, cpio, ar and the packages built on them), compressed streams (gzip, bzip2, xz, zstd...), ISO
    /// 9660 images and web archives (WARC). Documents built on ZIP (`.docx`, `.odt`, `.epub`) are documents, not archives.
    public static func holdsMembers(_ identification: Identification) -> Bool {
        holdsMembers(identification.type)
    }

    static func holdsMembers(_ type: UTType) -> Bool {
        type.conforms(to: .archive) || otherArchives.contains { type.conforms(to: $0) }
    }

    /// Formats libarchive reads members of that do not conform to `public.archive`: ISO 9660 images, and web
    /// archives (WARC), whose members are the resources they hold.
    private static let otherArchives = [UTType(declaredIdentifier: "public.iso-image"), UTType(declaredIdentifier: "uti.mime.application.warc")]

    /// Reads the members of the archive at `path` (and of archives in it, to `limits.maxDepth`), handing each
    /// to `body` with its identification, in the archive's order; an archive's own record comes before its
    /// members. `body` returns `false` to stop. Nothing is extracted: each member is identified from its
    /// first `options.sampleSize` bytes as they stream out, and only a member that is itself opened by offset
    /// (a ZIP, an archive in the archive) is held whole, in memory or in a spool file that has no name.
    /// - Returns: how the reading ended: which limit stopped it, if one did.
    /// - Throws: `IdentificationError` naming `path`: it cannot be opened, or libarchive cannot be loaded.
    public func readMembers(ofFileAt path: RawFilePath, limits: ArchiveLimits = ArchiveLimits(),
                            _ body: (ArchiveMember) -> Bool) throws(IdentificationError) -> ArchiveReading {
        try readMembers(ofFileAt: path, in: nil, followingLinks: true, limits: limits, body)
    }

    /// `readMembers(ofFileAt:)` for `path`, opened relative to `directory` (a walk's, holding `path`'s last
    /// component) when one is given; a symbolic link is followed only with `followingLinks`, and only a
    /// regular file is read.
    func readMembers(ofFileAt path: RawFilePath, in directory: FileDescriptor?, followingLinks: Bool = false, limits: ArchiveLimits,
                     _ body: (ArchiveMember) -> Bool) throws(IdentificationError) -> ArchiveReading {
        do throws(IdentificationError.Reason) {
            let file: FileDescriptor
            do {
                var options: FileDescriptor.OpenOptions = [.nonBlocking, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)]
                if !followingLinks { options.insert(.noFollow) }
                if let directory {
                    file = try FileDescriptor.open(PathBytes(path.lastComponent), relativeTo: directory, .readOnly, options: options)
                } else {
                    file = try FileDescriptor.open(path, .readOnly, options: options)
                }
            } catch {
                throw .system(error)
            }
            defer { file.closeQuietly() }
            return try readMembers(ofOpenFile: file, name: path, limits: limits, body)
        } catch {
            throw IdentificationError(path: path.escaped, reason: error)
        }
    }

    /// `readMembers(ofFileAt:)` for the regular file open on `file`, known by `name`.
    func readMembers(ofOpenFile file: FileDescriptor, name: RawFilePath, limits: ArchiveLimits,
                     _ body: (ArchiveMember) -> Bool) throws(IdentificationError.Reason) -> ArchiveReading {
        let status: Stat
        do {
            status = try file.status()
        } catch {
            throw .system(error)
        }
        guard status.type == .regular else { return ArchiveReading() }
        let library = try Self.libArchive()
        var reader = ArchiveReader(library: library, identifier: self, limits: limits, archiveSize: Int(status.size))
        return reader.read(FileBytes(file: file, count: Int(status.size)), name: name.lastComponent, body)
    }

    /// Reads the members of an archive in memory (an upload); see `readMembers(ofFileAt:)`. `filename` names
    /// a compressed stream's one member (`notes.txt.gz` holds `notes.txt`).
    /// - Throws: `IdentificationError` when libarchive cannot be loaded.
    public func readMembers(of data: [UInt8], filename: String? = nil, limits: ArchiveLimits = ArchiveLimits(),
                            _ body: (ArchiveMember) -> Bool) throws(IdentificationError) -> ArchiveReading {
        try readMembers(of: MemoryBytes(storage: data), filename: filename, limits: limits, budgets: nil, body)
    }

    /// Reads the members of an archive gathered in a `SpooledBytes` (an upload); see `readMembers(of:)`.
    public func readMembers(of spooled: SpooledBytes, filename: String? = nil, limits: ArchiveLimits = ArchiveLimits(),
                            _ body: (ArchiveMember) -> Bool) throws(IdentificationError) -> ArchiveReading {
        try readMembers(of: spooled.source, filename: filename, limits: limits, budgets: nil, body)
    }

    /// `readMembers(of:filename:limits:_:)` whose held members take their memory and spool from `budgets`
    /// (a server's, which its uploads share) rather than from budgets of this reading's own.
    package func readMembers(of spooled: SpooledBytes, filename: String?, limits: ArchiveLimits, sharing budgets: (memory: ByteBudget, disk: ByteBudget)?,
                             _ body: (ArchiveMember) -> Bool) throws(IdentificationError) -> ArchiveReading {
        try readMembers(of: spooled.source, filename: filename, limits: limits, budgets: budgets, body)
    }

    /// The members of the archive `source` holds (bytes in memory, a spool), known by `filename`.
    private func readMembers(of source: some ByteSource, filename: String?, limits: ArchiveLimits, budgets: (memory: ByteBudget, disk: ByteBudget)?,
                             _ body: (ArchiveMember) -> Bool) throws(IdentificationError) -> ArchiveReading {
        let library: LibArchive
        do {
            library = try Self.libArchive()
        } catch {
            throw IdentificationError(path: filename ?? "-", reason: error)
        }
        var reader = ArchiveReader(library: library, identifier: self, limits: limits, archiveSize: source.count, budgets: budgets)
        return reader.read(source, name: RawFilePath(filename ?? "").lastComponent, body)
    }

    /// `readMembers(ofFileAt:)` as an asynchronous sequence, read on a thread of its own: for an importer that
    /// vets an upload as it arrives (refuses a `.zip` that holds an executable) from Swift concurrency.
    /// Dropping the iteration stops the reading at the next member. What the consumer has not taken yet is
    /// buffered, no more than `limits.maxMembers` members.
    public func members(ofFileAt path: RawFilePath, limits: ArchiveLimits = ArchiveLimits()) -> AsyncThrowingStream<ArchiveMember, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ArchiveMember, any Error>.makeStream()
        let identifier = self
        Threads.spawn {
            do throws(IdentificationError) {
                _ = try identifier.readMembers(ofFileAt: path, limits: limits) { member in
                    if case .terminated = continuation.yield(member) { return false }
                    return true
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    static func libArchive() throws(IdentificationError.Reason) -> LibArchive {
        switch LibArchive.shared {
        case .success(let library): return library
        case .failure(let failure): throw .archiveLibrary(failure.description)
        }
    }
}

/// A member's bytes as far as they were read: its head, or all of it; `count` is its whole size.
struct MemberBytes: ByteSource {
    let storage: [UInt8]
    let count: Int

    func bytes(at offset: Int, length: Int) -> [UInt8] {
        MemoryBytes(storage: storage).bytes(at: offset, length: length)
    }
}

/// libarchive's input, through its callbacks: any `ByteSource` (an open file by `pread`, its position untouched;
/// bytes in memory; a spool), read and seeked at will, or the stream of a member of the archive around it (an
/// archive in a tar or a Debian package, read as it is decompressed, never held). libarchive holds it as its
/// callback data.
final class ArchiveInput {
    enum Source {
        case random(read: (Int, Int) throws(IdentificationError.Reason) -> [UInt8], count: Int)
        /// The member's first bytes, already read, then the rest of its stream.
        case stream(head: [UInt8], rest: MemberStream)
    }

    let source: Source
    var position = 0
    /// The block handed to libarchive last, kept alive until the next read.
    var block: [UInt8] = []
    /// How much the next read asks for: a large block where libarchive reads on (a stream: fewer calls, and
    /// libarchive 3.6's WARC reader wants a record within one), a small one after a seek (a ZIP's or a 7-Zip's
    /// reader seeks to each member's header and reads a few bytes there), doubling as reading goes on.
    var nextRead = ArchiveInput.largestRead
    /// Why a read failed, for the record.
    var failure: String?

    init(_ source: some ByteSource) {
        self.source = .random(read: { (offset, length) throws(IdentificationError.Reason) in try source.bytes(at: offset, length: length) },
                              count: source.count)
    }

    init(head: [UInt8], rest: MemberStream) {
        source = .stream(head: head, rest: rest)
    }

    static let blockSize = 64 * 1024
    static let largestRead = 1 << 20
    static let readAfterSeek = 16 * 1024

    /// The next bytes for libarchive: their address (valid until the next call) and count; 0 at the end, -1
    /// on a failure.
    func next(_ buffer: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        switch source {
        case .random(let read, let count):
            do throws(IdentificationError.Reason) {
                block = try read(position, min(nextRead, max(0, count - position)))
            } catch {
                failure = "\(error)"
                return -1
            }
            position += block.count
            nextRead = min(nextRead * 2, Self.largestRead)
        case .stream(let head, let rest):
            if position == 0 && !head.isEmpty {
                block = head
                position = head.count
            } else {
                switch rest.next(upTo: Int.max) {
                case .bytes(let bytes):
                    // libarchive's own block, valid until the stream is asked again: handed on as it is.
                    position += bytes.count
                    buffer.pointee = bytes.baseAddress
                    return bytes.count
                case .zeros(let count):
                    block = [UInt8](repeating: 0, count: count)
                    position += count
                case .end:
                    return 0
                case .failed(let problem):
                    failure = problem
                    return -1
                }
            }
        }
        buffer.pointee = block.withUnsafeBytes { $0.baseAddress }
        return block.count
    }

    /// Opens `archive` on this input, which must outlive it.
    func open(_ archive: LibArchive.Archive, _ library: LibArchive) -> Int32 {
        _ = library.setReadCallback(archive) { _, data, buffer in
            guard let data, let buffer else { return -1 }
            return Unmanaged<ArchiveInput>.fromOpaque(data).takeUnretainedValue().next(buffer)
        }
        if case .random = source {
            _ = library.setSeekCallback(archive) { _, data, offset, whence in
                guard let data else { return -1 }
                let input = Unmanaged<ArchiveInput>.fromOpaque(data).takeUnretainedValue()
                guard case .random(_, let count) = input.source else { return -1 }
                let base: Int
                switch whence {
                case SEEK_SET: base = 0
                case SEEK_CUR: base = input.position
                case SEEK_END: base = count
                default: return -1
                }
                let (target, overflow) = base.addingReportingOverflow(Int(clamping: offset))
                guard !overflow, target >= 0 else { return -1 }
                input.position = min(target, count)
                input.nextRead = ArchiveInput.readAfterSeek
                return Int64(input.position)
            }
            _ = library.setSkipCallback(archive) { _, data, request in
                guard let data, request > 0 else { return 0 }
                let input = Unmanaged<ArchiveInput>.fromOpaque(data).takeUnretainedValue()
                guard case .random(_, let count) = input.source else { return 0 }
                let skipped = min(Int(clamping: request), count - input.position)
                input.position += skipped
                return Int64(skipped)
            }
        }
        _ = library.setCallbackData(archive, Unmanaged.passUnretained(self).toOpaque())
        return library.open(archive)
    }
}

/// What one reading has done so far, shared by its levels and by the inputs that stream one level's member
/// into the next: the bytes decompressed, the members counted, and the limit that ended it.
final class ReadingState {
    let limits: ArchiveLimits
    /// The outermost archive's size: the ratio's denominator.
    let archiveSize: Int
    let deadline: ContinuousClock.Instant
    var expanded = 0
    var members = 0
    /// A limit that ends the whole reading (bytes, ratio, members, time), once reached.
    var stopped: ArchiveTruncation?
    /// Whether the consumer asked to stop.
    var abandoned = false

    init(limits: ArchiveLimits, archiveSize: Int) {
        self.limits = limits
        self.archiveSize = max(archiveSize, 1)
        deadline = ContinuousClock.now.advanced(by: limits.timeLimit)
    }

    /// Counts decompressed bytes against the limits; `false` once one is reached.
    func expand(_ count: Int) -> Bool {
        expanded += count
        if expanded > limits.maxExpandedBytes {
            stopped = stopped ?? .bytes
        } else if expanded > ArchiveLimits.ratioGrace, expanded / archiveSize > limits.maxRatio {
            stopped = stopped ?? .ratio
        } else if ContinuousClock.now >= deadline {
            stopped = stopped ?? .time
        }
        return stopped == nil
    }
}

/// The bytes of the current member of an archive, as libarchive's blocks give them (`archive_read_data_block`,
/// each at its offset; a hole between blocks as zeros), counted against the reading's limits. Not
/// `archive_read_data`: libarchive 3.6's copy of blocks gives a xar or WARC member's bytes wrong.
final class MemberStream {
    let archive: LibArchive.Archive
    let library: LibArchive
    let state: ReadingState
    private var block = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The member's offset of the block's first byte.
    private var blockOffset = 0
    /// The block's bytes delivered.
    private var used = 0
    /// The member's bytes delivered.
    private(set) var position = 0
    private(set) var ended = false

    init(_ archive: LibArchive.Archive, _ library: LibArchive, _ state: ReadingState) {
        self.archive = archive
        self.library = library
        self.state = state
    }

    enum Chunk {
        /// Bytes of libarchive's, valid until the stream is asked again.
        case bytes(UnsafeRawBufferPointer)
        /// So many zeros (a sparse member's hole).
        case zeros(Int)
        case end
        /// libarchive failed, or a limit was reached (the state says which).
        case failed(String)
    }

    /// The next bytes, at most `limit` of them.
    func next(upTo limit: Int) -> Chunk {
        while used >= block.count {
            if ended { return .end }
            var pointer: UnsafeRawPointer?
            var size = 0
            var offset: Int64 = 0
            let status = library.readDataBlock(archive, &pointer, &size, &offset)
            if status == LibArchive.eof {
                ended = true
                return .end
            }
            guard status >= LibArchive.warn else { return .failed(library.error(archive, or: "unreadable")) }
            guard state.expand(size) else { return .failed("the reading stopped (\(state.stopped?.rawValue ?? "limit"))") }
            block = UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : size)
            blockOffset = Int(clamping: offset)
            // Bytes already delivered (a block that overlaps the last) are not delivered twice.
            used = blockOffset < position ? min(block.count, position - blockOffset) : 0
        }
        let start = blockOffset + used
        if start > position {
            let count = min(start - position, limit, ArchiveInput.blockSize)
            position += count
            return .zeros(count)
        }
        let count = min(block.count - used, limit)
        defer {
            used += count
            position += count
        }
        return .bytes(UnsafeRawBufferPointer(rebasing: block[used..<(used + count)]))
    }

    /// Passes over the rest of the member, counting what libarchive decompresses to do so.
    func drain() -> String? {
        used = block.count
        while !ended {
            var pointer: UnsafeRawPointer?
            var size = 0
            var offset: Int64 = 0
            let status = library.readDataBlock(archive, &pointer, &size, &offset)
            if status == LibArchive.eof { ended = true; break }
            guard status >= LibArchive.warn else { return library.error(archive, or: "unreadable") }
            guard state.expand(size) else { return nil }
        }
        return nil
    }
}

/// One reading of an archive and everything nested in it, under one set of limits.
struct ArchiveReader {
    let library: LibArchive
    let identifier: FileIdentifier
    let limits: ArchiveLimits
    /// What the spools of held members may hold in memory, and on disk, together.
    let memoryBudget: ByteBudget
    let spoolBudget: ByteBudget
    let state: ReadingState
    private var stopped: ArchiveTruncation? {
        get { state.stopped }
        nonmutating set { state.stopped = newValue }
    }
    private var abandoned: Bool {
        get { state.abandoned }
        nonmutating set { state.abandoned = newValue }
    }

    init(library: LibArchive, identifier: FileIdentifier, limits: ArchiveLimits, archiveSize: Int, budgets: (memory: ByteBudget, disk: ByteBudget)? = nil) {
        self.library = library
        self.identifier = identifier
        self.limits = limits
        state = ReadingState(limits: limits, archiveSize: archiveSize)
        memoryBudget = budgets?.memory ?? ByteBudget(capacity: max(0, limits.memoryBudget))
        spoolBudget = budgets?.disk ?? ByteBudget(capacity: max(0, limits.spoolBudget))
    }

    /// Reads the outermost archive.
    mutating func read(_ source: some ByteSource, name: [UInt8], _ body: (ArchiveMember) -> Bool) -> ArchiveReading {
        var reading = ArchiveReading()
        let outcome = level(source, names: [], ownName: name) { member in
            reading.memberCount += 1
            return body(member)
        }
        reading.truncated = stopped ?? outcome.truncated
        reading.problem = outcome.problem
        reading.format = outcome.format
        return reading
    }

    struct LevelOutcome {
        var truncated: ArchiveTruncation?
        var problem: String?
        var format: String?
    }

    /// Opens one archive level on `source` and reads its members; `names` are the levels' names above it.
    private mutating func level(_ source: some ByteSource, names: [RawFilePath], ownName: [UInt8], _ emit: (ArchiveMember) -> Bool) -> LevelOutcome {
        level(ArchiveInput(source), names: names, ownName: ownName, emit)
    }

    /// Opens one archive level on `input` and reads its members.
    private mutating func level(_ input: ArchiveInput, names: [RawFilePath], ownName: [UInt8], _ emit: (ArchiveMember) -> Bool) -> LevelOutcome {
        guard let archive = library.readNew() else { return LevelOutcome(truncated: .unreadable, problem: "archive_read_new failed") }
        defer {
            _ = library.readFree(archive)
            withExtendedLifetime(input) {}
        }
        _ = library.supportFilterAll(archive)
        for support in library.supportFormats { _ = support(archive) }
        // A compressed stream of one file (notes.txt.gz): libarchive's raw format, the lowest bidder.
        _ = library.supportFormatRaw(archive)
        guard input.open(archive, library) == LibArchive.ok else {
            if let stopped { return LevelOutcome(truncated: stopped) }
            let problem = input.failure ?? library.error(archive, or: "cannot be opened")
            return LevelOutcome(truncated: .unreadable, problem: problem)
        }
        var outcome = members(of: archive, names: names, ownName: ownName, emit)
        if let failure = input.failure, outcome.truncated != nil, stopped == nil { outcome.problem = failure }
        return outcome
    }

    private mutating func members(of archive: LibArchive.Archive, names: [RawFilePath], ownName: [UInt8],
                                  _ emit: (ArchiveMember) -> Bool) -> LevelOutcome {
        var outcome = LevelOutcome()
        var first = true
        /// The regular members seen at this level by name, for the hard links to them that follow.
        var seen: [[UInt8]: Identification] = [:]
        while true {
            if abandoned { return outcome }
            if let stopped {
                outcome.truncated = stopped
                return outcome
            }
            if ContinuousClock.now >= state.deadline {
                stopped = .time
                continue
            }
            var entry: LibArchive.Entry?
            let status = library.nextHeader(archive, &entry)
            if status == LibArchive.eof { return outcome }
            guard status >= LibArchive.warn, let entry else {
                let message = library.error(archive, or: "unreadable")
                if library.hasEncryptedEntries(archive) > 0 || message.lowercased().contains("encrypt") {
                    outcome.truncated = .encrypted
                } else if first && library.errorNumber(archive) == LibArchive.unrecognizedFormat {
                    outcome.truncated = .unsupported
                } else {
                    outcome.truncated = .unreadable
                }
                outcome.problem = message
                return outcome
            }
            let isRaw = library.formatCode(archive) == LibArchive.rawFormat
            if first {
                outcome.format = library.formatName(archive).map { String(cString: $0) }
                // The raw format reads any bytes: without a compression filter they are no archive.
                if isRaw && library.filterCount(archive) <= 1 {
                    outcome.truncated = .unsupported
                    outcome.problem = "not an archive libarchive reads"
                    return outcome
                }
            }
            first = false
            let kind = library.entryFileType(entry)
            if kind == LibArchive.directory { continue }
            state.members += 1
            if state.members > limits.maxMembers {
                stopped = .members
                continue
            }
            var member = describe(entry, names: names, ownName: ownName, isRaw: isRaw)
            let filename = String(decoding: member.names.last?.lastComponent ?? [], as: UTF8.self)
            let escapedName = member.names.last?.escaped ?? "-"
            if let target = library.entryHardlink(entry) {
                let targetName = Array(UnsafeRawBufferPointer(start: target, count: strlen(target)))
                var identification = seen[targetName] ?? reported(Resolution.fileSystem(.item, detail: "hard link", name: nil))
                identification.evidence.content?.detail = "hard link to \(RawFilePath(bytes: targetName).escaped)"
                member.result = .success(identification)
            } else if kind == LibArchive.regularFile || kind == 0 {
                if member.isEncrypted {
                    var identification = reported(Resolution.fileSystem(.data, detail: "encrypted member: its bytes cannot be read", name: nil))
                    identification.confidence = .low
                    member.result = .success(identification)
                } else {
                    readContent(archive, into: &member, filename: filename, escapedName: escapedName, emit)
                    if abandoned { return outcome }
                    if let identification = member.identification, let name = member.names.last {
                        seen[name.bytes] = identification
                    }
                    continue
                }
            } else {
                member.result = .success(reported(special(kind, entry)))
            }
            guard emit(member) else {
                abandoned = true
                return outcome
            }
        }
    }

    /// The identification with its MIME type, as `FileIdentifier` reports every one.
    private func reported(_ identification: Identification) -> Identification {
        var identification = identification
        identification.mimeType = identifier.mimeType(of: identification, in: identifier.options.mimeNames)
        return identification
    }

    /// A member's names, size and time from its header, its result still to be found.
    private func describe(_ entry: LibArchive.Entry, names: [RawFilePath], ownName: [UInt8], isRaw: Bool) -> ArchiveMember {
        var name: [UInt8]
        if isRaw {
            // A compressed stream's one member is the stream's name without its directory and last extension.
            let base = RawFilePath(bytes: ownName).lastComponent
            let dot = base.lastIndex(of: UInt8(ascii: "."))
            name = dot.map { Array(base[..<$0]) } ?? base
            if name.isEmpty { name = Array("data".utf8) }
        } else if let path = library.entryPathnameUTF8(entry) ?? library.entryPathname(entry) {
            name = Array(UnsafeRawBufferPointer(start: path, count: strlen(path)))
        } else {
            name = []
        }
        var truncated: ArchiveTruncation?
        let above = names.reduce(0) { $0 + $1.bytes.count + 1 }
        if above + name.count > limits.maxPathLength {
            name = Array(name.prefix(max(0, limits.maxPathLength - above)))
            truncated = .path
        }
        let size = library.entrySizeIsSet(entry) != 0 ? Int(clamping: max(0, library.entrySize(entry))) : nil
        let modified = library.entryModificationTimeIsSet(entry) != 0 ? Int64(library.entryModificationTime(entry)) : nil
        var member = ArchiveMember(names: names + [RawFilePath(bytes: name)], size: size, modified: modified,
                                   isEncrypted: library.entryIsEncrypted(entry) != 0,
                                   result: .failure(IdentificationError(path: RawFilePath(bytes: name).escaped, reason: .system(.ioError))))
        member.truncated = truncated
        return member
    }

    /// A member that is not a regular file: a link or a special file, typed by its kind.
    private func special(_ kind: mode_t, _ entry: LibArchive.Entry) -> Identification {
        switch kind {
        case LibArchive.symbolicLink:
            let target = library.entrySymlink(entry).map { RawFilePath(bytes: UnsafeRawBufferPointer(start: $0, count: strlen($0))).escaped } ?? "?"
            return Resolution.fileSystem(.symbolicLink, detail: "symbolic link to \(target)", name: nil)
        case LibArchive.fifo: return Resolution.fileSystem(KnownTypes.namedPipe, detail: "FIFO (named pipe)", name: nil)
        case LibArchive.socket: return Resolution.fileSystem(KnownTypes.socket, detail: "socket", name: nil)
        case LibArchive.characterDevice: return Resolution.fileSystem(KnownTypes.characterDevice, detail: "character device", name: nil)
        case LibArchive.blockDevice: return Resolution.fileSystem(KnownTypes.blockDevice, detail: "block device", name: nil)
        default: return Resolution.fileSystem(.item, detail: "unknown member kind", name: nil)
        }
    }

    /// How reading a member's bytes ended.
    enum Fill {
        /// Its end was reached.
        case complete
        /// The bytes asked for were read; there are more.
        case more
        /// The bytes could not be kept (a spool's budget or file).
        case refused
        /// libarchive failed (`problem` says why), or a limit was reached (`stopped` says which).
        case stopped
    }

    /// Zeros for a sparse member's holes.
    private static let zeros = [UInt8](repeating: 0, count: ArchiveInput.blockSize)

    /// Hands the next bytes of the member `stream` reads, up to `limit` of them, to `sink`.
    private func pull(_ stream: MemberStream, upTo limit: Int, problem: inout String?, _ sink: (UnsafeRawBufferPointer) -> Bool) -> Fill {
        var delivered = 0
        while delivered < limit {
            switch stream.next(upTo: limit - delivered) {
            case .bytes(let bytes):
                guard sink(bytes) else { return .refused }
                delivered += bytes.count
            case .zeros(let count):
                guard Self.zeros.withUnsafeBytes({ sink(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else { return .refused }
                delivered += count
            case .end:
                return .complete
            case .failed(let message):
                if stopped == nil { problem = message }
                return .stopped
            }
        }
        return .more
    }

    /// Identifies a regular member from its bytes, opening it when it is an archive itself, and hands it (and
    /// its own members after it) to `emit`.
    private mutating func readContent(_ archive: LibArchive.Archive, into member: inout ArchiveMember, filename: String, escapedName: String,
                                      _ emit: (ArchiveMember) -> Bool) {
        var head: [UInt8] = []
        var problem: String?
        let stream = MemberStream(archive, library, state)
        let sampleSize = identifier.options.sampleSize
        let headFill = pull(stream, upTo: sampleSize, problem: &problem) { bytes in
            head.append(contentsOf: bytes)
            return true
        }
        if headFill == .complete { member.size = head.count }
        let declared = headFill == .complete ? head.count : max(member.size ?? head.count, head.count)
        member.result = identify(MemberBytes(storage: head, count: declared), filename: filename, escapedName: escapedName)
        if headFill == .stopped {
            member.truncated = member.truncated ?? (stopped ?? .unreadable)
            member.problem = problem
            if !emit(member) { abandoned = true }
            return
        }
        guard let identification = member.identification, Self.opensByOffset(head) || FileIdentifier.holdsMembers(identification) else {
            finish(archive, stream, &member)
            if !emit(member) { abandoned = true }
            return
        }
        if !Self.opensByOffset(head), Self.streams(identification.type) {
            // An archive read from its start to its end (a tar, a compressed stream, a Debian package): opened
            // on the member's stream as it is decompressed, never held.
            guard member.depth < limits.maxDepth else {
                member.truncated = member.truncated ?? .depth
                finish(archive, stream, &member)
                if !emit(member) { abandoned = true }
                return
            }
            var nested: [ArchiveMember] = []
            let outcome = level(ArchiveInput(head: head, rest: stream), names: member.names, ownName: member.names.last?.bytes ?? []) { inner in
                nested.append(inner)
                return true
            }
            finish(archive, stream, &member)
            if stream.ended { member.size = stream.position }
            emitOpened(&member, outcome, nested, emit)
            return
        }
        // Held whole: in memory within the budget, the rest spooled within the other.
        let whole = SpooledBytes(memoryLimit: limits.memoryBudget, budget: memoryBudget, fileBudget: spoolBudget, temporaryDirectory: limits.spoolDirectory)
        var held = headFill == .complete
        do {
            try whole.append(head)
        } catch {
            problem = "spool in \(whole.temporaryDirectory): \(error)"
        }
        if !held && problem == nil {
            var spoolProblem: String?
            let filled = pull(stream, upTo: Int.max, problem: &problem) { bytes in
                do throws(Errno) {
                    try whole.append(bytes)
                    return true
                } catch {
                    spoolProblem = "spool in \(whole.temporaryDirectory): \(error)"
                    return false
                }
            }
            problem = problem ?? spoolProblem
            switch filled {
            case .complete:
                held = true
            case .more, .refused:
                member.truncated = member.truncated ?? .spool
                member.problem = problem
            case .stopped:
                member.truncated = member.truncated ?? (stopped ?? .unreadable)
                member.problem = problem
            }
        }
        guard held else {
            finish(archive, stream, &member)
            if !emit(member) { abandoned = true }
            return
        }
        // The whole member, as a file of it would be read (a ZIP's central directory, a `.docx` in a `.zip`).
        member.size = whole.count
        member.result = identify(whole.source, filename: filename, escapedName: escapedName)
        guard let opened = member.identification, FileIdentifier.holdsMembers(opened) else {
            if !emit(member) { abandoned = true }
            return
        }
        guard member.depth < limits.maxDepth else {
            member.truncated = member.truncated ?? .depth
            if !emit(member) { abandoned = true }
            return
        }
        // Its members after it: collected, so that its own record (first) says how its reading ended.
        var nested: [ArchiveMember] = []
        let outcome = level(whole.source, names: member.names, ownName: member.names.last?.bytes ?? []) { inner in
            nested.append(inner)
            return true
        }
        emitOpened(&member, outcome, nested, emit)
    }

    /// An archive in the archive, with how its reading ended, then its members.
    private func emitOpened(_ member: inout ArchiveMember, _ outcome: LevelOutcome, _ nested: [ArchiveMember], _ emit: (ArchiveMember) -> Bool) {
        member.truncated = member.truncated ?? outcome.truncated
        member.problem = member.problem ?? outcome.problem
        member.memberCount = nested.count
        guard emit(member) else {
            abandoned = true
            return
        }
        for inner in nested {
            guard emit(inner) else {
                abandoned = true
                return
            }
        }
    }

    /// Formats libarchive reads from start to end without seeking: compressed streams, tar, cpio, ar and the
    /// packages built on them. An archive of one in an archive is read as its member streams out.
    static func streams(_ type: UTType) -> Bool {
        streamedFormats.contains { type.conforms(to: $0) }
    }

    private static let streamedFormats = streamedFormatIdentifiers.map { UTType(declaredIdentifier: $0) }

    static let streamedFormatIdentifiers = [
        "org.gnu.gnu-zip-archive", "public.bzip2-archive", "org.tukaani.xz-archive", "org.tukaani.tar-xz-archive", "uti.mime.application.zstd",
        "uti.mime.application.x-lz4", "uti.mime.application.x-lzip", "uti.mime.application.x-lzma", "public.z-archive", "public.tar-archive",
        "public.cpio-archive", "uti.mime.application.x-archive", "uti.mime.application.vnd.debian.binary-package", "uti.mime.application.x-rpm",
    ]

    /// Passes over the rest of the current member: decompressed and counted where the archive is one
    /// compressed stream (what a bomb expands to), skipped where the format allows (a ZIP's next entry).
    /// (libarchive 3.6's WARC reader skips wrongly after part of a record was read: read to its end too.)
    private func finish(_ archive: LibArchive.Archive, _ stream: MemberStream, _ member: inout ArchiveMember) {
        guard stopped == nil, !stream.ended else { return }
        if library.filterCount(archive) > 1 || library.formatCode(archive) == LibArchive.warcFormat {
            if let problem = stream.drain() {
                member.truncated = member.truncated ?? .unreadable
                member.problem = member.problem ?? problem
            }
        } else if library.skipData(archive) < LibArchive.warn {
            member.truncated = member.truncated ?? .unreadable
            member.problem = member.problem ?? library.error(archive, or: "unreadable")
        }
    }

    /// Whether a member with this head is read by offset to be identified (a ZIP's central directory at its
    /// end, an OLE2 compound file's sectors), so that it is held whole.
    static func opensByOffset(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
            || head.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
    }

    private func identify(_ source: some ByteSource, filename: String, escapedName: String) -> Result<Identification, IdentificationError> {
        do throws(IdentificationError) {
            return .success(try identifier.identify(source: source, filename: filename))
        } catch {
            return .failure(IdentificationError(path: escapedName, reason: error.reason))
        }
    }
}
