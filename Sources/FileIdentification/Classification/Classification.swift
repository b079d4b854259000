internal import CArchive
internal import Synchronization
package import SystemCalls
public import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// What to walk and how, for `FileIdentifier.classify`.
public struct ClassificationOptions: Sendable {
    /// What the walk itself takes (SystemCalls' `FileTreeWalk`): the properties below but `workers` are its,
    /// read and written through, so that each is defined once and handed to the walk as it is.
    package var walk: FileTreeWalk.Options

    /// Walk into entries whose names start with a dot, and report them.
    public var includeHidden: Bool {
        get { walk.includeHidden }
        set { walk.includeHidden = newValue }
    }
    /// How deep to go below each root (0: the roots alone); `nil` for no limit.
    public var maxDepth: Int? {
        get { walk.maxDepth }
        set { walk.maxDepth = newValue }
    }
    /// Stay on the file system of each root.
    public var oneFileSystem: Bool {
        get { walk.oneFileSystem }
        set { walk.oneFileSystem = newValue }
    }
    /// `fnmatch` patterns on entry names; a matching entry, and all below it, is left out.
    public var exclude: [String] {
        get { walk.exclude }
        set { walk.exclude = newValue }
    }
    /// Report entries in a stable order (names sorted byte-wise within each directory, depth first)
    /// instead of as they are done.
    public var sorted: Bool {
        get { walk.sorted }
        set { walk.sorted = newValue }
    }
    /// How many entries are identified at once; by default, one worker per processor.
    public var workers: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Read the members of archives (`FileIdentifier.holdsMembers`) within these limits, each member an entry
    /// after its archive's (`ClassifiedEntry.members`); `nil` (the default) to leave archives closed.
    public var archives: ArchiveLimits?
    /// A digest of each regular file's whole contents (`ClassifiedEntry.digest`), as DROID and Siegfried give
    /// one (the ContentDigests module's `ContentDigest`: MD5, SHA-1, SHA-256); `nil`: none (the default: a
    /// digest reads every byte of every file).
    public var digest: (any FileDigester)?

    /// Creates options for a walk; each argument sets the property of the same name, and
    /// ``workers`` keeps its default.
    public init(includeHidden: Bool = false, maxDepth: Int? = nil, oneFileSystem: Bool = false,
                exclude: [String] = [], sorted: Bool = false) {
        walk = FileTreeWalk.Options(includeHidden: includeHidden, maxDepth: maxDepth, oneFileSystem: oneFileSystem, exclude: exclude, sorted: sorted)
    }
}

/// One classified entry: its path and what it is, or why it could not be read.
public struct ClassifiedEntry: Sendable {
    /// The entry's path, as the walk or the list gave it.
    public var path: RawFilePath
    /// The size in bytes of a regular file (after following a link with `followSymlinks`).
    public var size: Int?
    /// What the entry was identified as, or the error that stopped it.
    public var result: Result<Identification, IdentificationError>
    /// The entry's place in the walk, from 0.
    public var sequence: Int
    /// With `ClassificationOptions.archives`, for an archive whose members were read: how the reading ended.
    public var archive: ArchiveReading?
    /// With `ClassificationOptions.archives`: the archive's members (and those of archives in it, each after
    /// its own), in the archive's order, each an entry whose `path` is `ArchiveMember.path(in:)`.
    public var members: [ClassifiedEntry] = []
    /// For an entry that is an archive's member: where it is and what its archive says of it.
    public var member: ArchiveMember?
    /// With `ClassificationOptions.digest`: the regular file's digest in lower-case hex; `nil` for anything
    /// else, or when the file could not be read again.
    public var digest: String?

    /// The identification, or `nil` if the entry failed.
    public var identification: Identification? { try? result.get() }
    /// The error, or `nil` if the entry was identified.
    public var error: IdentificationError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// The entries of a classification as they are identified, in parallel; an `AsyncSequence` for
/// Swift concurrency, or `forEachBatch` for a thread that may block.
///
/// The walk, the workers and the consumer are joined by bounded queues, so memory stays flat however
/// large the tree. Cancelling the consuming task, or dropping the iterator, stops the walk and the
/// workers within a batch.
public struct Classification: AsyncSequence, Sendable {
    /// Each element is one classified entry.
    public typealias Element = ClassifiedEntry

    enum Source: Sendable {
        case trees([RawFilePath], TreeWalker.Options)
        /// Paths from a file descriptor, one per line or NUL-separated.
        case list(FileDescriptor, separator: UInt8)
    }

    let identifier: FileIdentifier
    let source: Source
    let workers: Int
    let sorted: Bool
    var archives: ArchiveLimits?
    var digest: (any FileDigester)?

    /// How many entries the walk hands the workers at once: `firstBatchSize` at first, so that a small tree
    /// (or a list that comes slowly) is shared between the workers at once, then twice as many each time up to
    /// `batchSize`, so that a large tree costs few hand-overs (each can wake a thread: with 64 at a time, a
    /// twentieth of /usr/share's classification was spent in the kernel's futex calls and the switches they
    /// make).
    static let firstBatchSize = 16
    static let batchSize = 256

    /// Runs the classification, handing `body` each batch of entries on this thread; stops early when
    /// `body` returns `false`.
    public func forEachBatch(_ body: ([ClassifiedEntry]) -> Bool) {
        let run = start()
        defer { run.cancel() }
        var reorder = Reorder(enabled: sorted)
        while let batch = run.results.pop() {
            let ready = reorder.add(batch)
            if !ready.isEmpty, !body(ready) { return }
        }
    }

    func start() -> Run {
        let run = Run(capacity: workers * 4)
        let identifier = identifier
        let source = source
        let archives = archives
        let digest = digest
        Threads.spawn {
            run.walk(source)
        }
        let remaining = Atomic<Int>(workers)
        for _ in 0..<workers {
            Threads.spawn {
                run.work(identifier, archives: archives, digest: digest)
                if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { run.results.close() }
            }
        }
        return run
    }

    /// One running classification: the queues between walker, workers and consumer.
    final class Run: Sendable {
        let paths: BoundedQueue<[WalkEntry]>
        let results: BoundedQueue<[ClassifiedEntry]>
        private let cancelled = Atomic<Bool>(false)
        private let sequence = Atomic<Int>(0)

        init(capacity: Int) {
            paths = BoundedQueue(capacity: capacity)
            results = BoundedQueue(capacity: capacity)
        }

        var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

        func cancel() {
            cancelled.store(true, ordering: .relaxed)
            paths.close()
            results.close()
        }

        func walk(_ source: Source) {
            var batch: [WalkEntry] = []
            var limit = firstBatchSize
            batch.reserveCapacity(batchSize)
            func emit(_ entry: WalkEntry) -> Bool {
                batch.append(entry)
                if batch.count >= limit {
                    guard !isCancelled, paths.push(batch) else { return false }
                    batch.removeAll(keepingCapacity: true)
                    limit = Swift.min(limit * 2, batchSize)
                }
                return true
            }
            switch source {
            case .trees(let roots, let options):
                TreeWalker.walk(roots, options: options, emit: emit)
            case .list(let file, let separator):
                PathList.read(file, separator: separator, emit: emit)
            }
            if !batch.isEmpty, !isCancelled { _ = paths.push(batch) }
            paths.close()
        }

        /// Identifies batches of paths until there are no more. Each batch's entries take consecutive
        /// sequence numbers in walk order, so that a sorted consumer can restore it.
        func work(_ identifier: FileIdentifier, archives: ArchiveLimits?, digest: (any FileDigester)?) {
            while let batch = nextBatch() {
                var entries: [ClassifiedEntry] = []
                entries.reserveCapacity(batch.entries.count)
                for (offset, entry) in batch.entries.enumerated() {
                    if isCancelled { return }
                    // Made in its place in the batch and completed there: a copy on its way in retained each of its
                    // strings and arrays.
                    entries.append(Self.classify(entry, identifier, sequence: batch.first + offset))
                    let last = entries.count - 1
                    if let digest, entries[last].size != nil, entries[last].identification.map({ !$0.type.conforms(to: .symbolicLink) }) == true {
                        entries[last].digest = try? digest.hex(ofFileAt: entry.path, in: entry.directory?.descriptor, followingLinks: identifier.options.followSymlinks)
                    }
                    if let archives, let identification = entries[last].identification, FileIdentifier.holdsMembers(identification) {
                        Self.readMembers(of: &entries[last], entry, identifier, limits: archives)
                    }
                }
                guard results.push(entries) else { return }
            }
        }

        private let numbering = Mutex(())

        /// The next batch of paths with the sequence number of its first entry, taken and numbered as one step.
        private func nextBatch() -> (entries: [WalkEntry], first: Int)? {
            // Numbering must follow the order batches leave the queue: take and number under one lock.
            numbering.withLock { _ -> (entries: [WalkEntry], first: Int)? in
                guard let entries = paths.pop() else { return nil }
                let first = sequence.add(entries.count, ordering: .relaxed).oldValue
                return (entries, first)
            }
        }

        /// The members of the archive `entry` is, as entries of `classified`; a failure to open it again is the
        /// archive's `problem`.
        static func readMembers(of classified: inout ClassifiedEntry, _ entry: WalkEntry, _ identifier: FileIdentifier, limits: ArchiveLimits) {
            var members: [ClassifiedEntry] = []
            let archivePath = entry.path
            let sequence = classified.sequence
            do throws(IdentificationError) {
                classified.archive = try identifier.readMembers(ofFileAt: entry.path, in: entry.directory?.descriptor, limits: limits) { member in
                    members.append(ClassifiedEntry(path: member.path(in: archivePath), size: member.size, result: member.result,
                                                   sequence: sequence, member: member))
                    return true
                }
            } catch {
                var reading = ArchiveReading()
                reading.truncated = .unreadable
                reading.problem = error.message
                classified.archive = reading
            }
            classified.members = members
            // A large archive's reading leaves freed memory behind (its heads, libarchive's buffers and
            // decoders): given back now, so that the next archive, on this worker or another, starts low. Not
            // after each small one (a tree of 24,000 gzipped manual pages): the trim walks the heap each time.
            if (classified.size ?? 0) >= 1 << 20 || members.count >= 1_000 { uti_give_back_freed_memory() }
        }

        static func classify(_ entry: WalkEntry, _ identifier: FileIdentifier, sequence: Int) -> ClassifiedEntry {
            if let failure = entry.failure {
                return ClassifiedEntry(path: entry.path, size: nil,
                                       result: .failure(IdentificationError(path: entry.path.escaped, reason: .system(failure))),
                                       sequence: sequence)
            }
            do {
                let identification = try identifier.identify(fileAt: entry.path, seenRegular: entry.isRegularFile,
                                                             in: entry.directory?.descriptor)
                return ClassifiedEntry(path: entry.path, size: identification.fileSize, result: .success(identification), sequence: sequence)
            } catch {
                return ClassifiedEntry(path: entry.path, size: nil, result: .failure(error), sequence: sequence)
            }
        }
    }

    /// Restores walk order from batches that arrive in any order, holding only what arrived early.
    struct Reorder {
        let enabled: Bool
        private var next = 0
        private var waiting: [Int: ClassifiedEntry] = [:]

        init(enabled: Bool) { self.enabled = enabled }

        mutating func add(_ batch: [ClassifiedEntry]) -> [ClassifiedEntry] {
            guard enabled else { return batch }
            for entry in batch { waiting[entry.sequence] = entry }
            var ready: [ClassifiedEntry] = []
            while let entry = waiting.removeValue(forKey: next) {
                ready.append(entry)
                next += 1
            }
            return ready
        }
    }

    // MARK: AsyncSequence

    /// Starts the classification and returns an iterator over its entries.
    public func makeAsyncIterator() -> Iterator {
        Iterator(classification: self)
    }

    /// Hands out the entries of one running classification; dropping it stops the run.
    public final class Iterator: AsyncIteratorProtocol {
        private let run: Run
        private var reorder: Reorder
        private var pending: [ClassifiedEntry] = []
        private var index = 0

        init(classification: Classification) {
            run = classification.start()
            reorder = Reorder(enabled: classification.sorted)
        }

        deinit { run.cancel() }

        /// Returns the next entry, or `nil` when the classification is done or the task is cancelled.
        public func next() async -> ClassifiedEntry? {
            while index >= pending.count {
                let run = run
                // The queue blocks; wait for it on a thread of its own, never on a task's thread.
                let batch: [ClassifiedEntry]? = await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        Threads.spawn { continuation.resume(returning: run.results.pop()) }
                    }
                } onCancel: {
                    run.cancel()
                }
                guard let batch, !Task.isCancelled else {
                    run.cancel()
                    return nil
                }
                pending = reorder.add(batch)
                index = 0
            }
            defer { index += 1 }
            return pending[index]
        }
    }
}

extension FileIdentifier {
    /// Classifies every entry of the trees under `directories` (the roots included), in parallel, with
    /// the same rules as `identify(fileAt:)`.
    public func classify(directories: [RawFilePath], options: ClassificationOptions = ClassificationOptions()) -> Classification {
        Classification(identifier: self, source: .trees(directories, options.walk), workers: options.workers, sorted: options.sorted,
                       archives: options.archives, digest: options.digest)
    }

    /// Classifies every entry of the tree under `directory`; see `classify(directories:options:)`.
    public func classify(directory: RawFilePath, options: ClassificationOptions = ClassificationOptions()) -> Classification {
        classify(directories: [directory], options: options)
    }

    /// Classifies the paths read from an open file (one per line, or NUL-separated when `nulSeparated`),
    /// each as one entry, not walked: what `find`, `xargs` and cluster jobs feed. The file is read as the
    /// classification runs and is not closed.
    public func classify(pathsFrom file: FileDescriptor, nulSeparated: Bool, options: ClassificationOptions = ClassificationOptions()) -> Classification {
        Classification(identifier: self, source: .list(file, separator: nulSeparated ? 0 : UInt8(ascii: "\n")),
                       workers: options.workers, sorted: options.sorted, archives: options.archives, digest: options.digest)
    }
}

/// Paths read from a descriptor as they come, without holding the whole list.
enum PathList {
    static func read(_ file: FileDescriptor, separator: UInt8, emit: (WalkEntry) -> Bool) {
        var pending: [UInt8] = []
        while true {
            // A read error ends the list as its end would: what was read is classified.
            guard let chunk = try? file.readSome(), !chunk.isEmpty else { break }
            let count = chunk.count
            var start = 0
            for index in 0..<count where chunk[index] == separator {
                pending += chunk[start..<index]
                start = index + 1
                if !pending.isEmpty {
                    guard emit(WalkEntry(path: RawFilePath(bytes: strippingCarriageReturn(pending, separator)), failure: nil)) else { return }
                }
                pending.removeAll(keepingCapacity: true)
            }
            pending += chunk[start..<count]
        }
        if !pending.isEmpty {
            _ = emit(WalkEntry(path: RawFilePath(bytes: strippingCarriageReturn(pending, separator)), failure: nil))
        }
    }

    private static func strippingCarriageReturn(_ bytes: [UInt8], _ separator: UInt8) -> [UInt8] {
        separator == UInt8(ascii: "\n") && bytes.last == UInt8(ascii: "\r") ? Array(bytes.dropLast()) : bytes
    }
}
