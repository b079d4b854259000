internal import AppContainers
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import FileIdentification
internal import SystemCalls
internal import SystemPackage
internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// A remote as the user named it, in one spelling: an rclone remote and path, or a local directory.
struct Remote {
    /// The remote, normalized (`normalized(_:)`): what names its sync state and lock, and what rclone is given.
    let text: String
    /// As the user wrote it.
    let given: String

    /// Checks `text`: no control characters; a local directory is absolute and reached through no symbolic
    /// link (a link in its path could lead the sync out of where the user meant).
    init(_ text: String) throws(SyncError) {
        guard !text.isEmpty, text.utf8.count <= 4_096, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw SyncError(path: "-", reason: .remoteRefused("empty, longer than 4,096 bytes, or holding control characters"))
        }
        given = text
        self.text = Self.normalized(text)
        guard Self.isLocal(text) else { return }
        guard text.hasPrefix("/") else {
            throw SyncError(path: text, reason: .remoteRefused("a local remote is an absolute path"))
        }
        // Each component that exists must be a directory reached without following a link.
        var current: FileDescriptor
        do {
            current = try FileDescriptor.open("/", .readOnly, options: [.directory])
        } catch {
            throw SyncError(path: "/", reason: .system(error, while: "opening the file system's root"))
        }
        defer { current.closeQuietly() }
        for component in text.split(separator: "/") where component != "." {
            guard component != ".." else { throw SyncError(path: text, reason: .remoteRefused("'..' in a local remote's path")) }
            do throws(Errno) {
                let next = try current.openDirectory(String(component))
                current.closeQuietly()
                current = next
            } catch .noSuchFileOrDirectory {
                return  // made by the first sync, below what was checked
            } catch .tooManySymbolicLinkLevels, .notDirectory {
                throw SyncError(path: text, reason: .remoteRefused("'\(component)' on the way is a symbolic link or not a directory: the remote would be elsewhere"))
            } catch {
                throw SyncError(path: text, reason: .system(error, while: "checking the remote's path"))
            }
        }
    }

    /// One spelling for one place, so that two spellings never get two sync states and two locks: in a
    /// local directory's path, or the path after an rclone remote's last colon, empty and `.` components
    /// and a trailing slash go (`/r/./a//` and `/r/a` are one; `backup:uti/` is `backup:uti`). A leading
    /// slash stays (on some remotes `b:/x` and `b:x` differ), as does `..`, which a local remote refuses.
    static func normalized(_ text: String) -> String {
        func path(_ path: Substring) -> String {
            let absolute = path.hasPrefix("/")
            let components = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
            return (absolute ? "/" : "") + components.joined(separator: "/")
        }
        guard !isLocal(text), let colon = text.lastIndex(of: ":") else { return path(text[...]) }
        return String(text[...colon]) + path(text[text.index(after: colon)...])
    }

    /// Whether rclone reads `text` as a local path: a colon before any slash names a remote.
    static func isLocal(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return true }
        if let slash = text.firstIndex(of: "/"), slash < colon { return true }
        return false
    }

    /// The remote's path `components` below it.
    func appending(_ components: [String]) -> String {
        let joined = components.joined(separator: "/")
        return text.hasSuffix(":") || text.hasSuffix("/") ? text + joined : text + "/" + joined
    }

    /// A stable short name for the remote, for the directory that keeps its sync state (FNV-1a, 64 bits).
    var stateKey: String { Self.stateKey(of: text) }

    static func stateKey(of text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// One rclone log line (`--use-json-log`), the fields uti reads.
private struct LogLine: Decodable {
    var level: String?
    var msg: String?
    var object: String?
    var stats: Stats?

    struct Stats: Decodable {
        var bytes: Int?
        var totalBytes: Int?
        var transfers: Int?
        var totalTransfers: Int?
    }
}

/// One sync: its lock, its journal, and the state rclone and uti keep for the remote (`<root>/Sync/<key>/`).
struct Session {
    let registry: Registry
    let remote: Remote
    let options: UbiquitySync.Options
    private let state: FileDescriptor
    private let statePath: String
    private let lock: FileDescriptor
    /// Whether the journal says the last sync with this remote did not finish.
    private let interrupted: Bool

    init(registry: Registry, remote: Remote, options: UbiquitySync.Options) throws(SyncError) {
        self.registry = registry
        self.remote = remote
        self.options = options
        statePath = registry.root + "/Sync/" + remote.stateKey
        do {
            let root = try FileDescriptor.openDirectory(atPath: registry.root, making: [.ownerReadWriteExecute])
            defer { root.closeQuietly() }
            // A remote synced under another spelling before spellings were one keeps its state.
            let givenKey = Remote.stateKey(of: remote.given)
            if givenKey != remote.stateKey, let sync = try? root.openDirectory("Sync") {
                defer { sync.closeQuietly() }
                if (try? sync.status(of: remote.stateKey)) == nil, (try? sync.status(of: givenKey))?.type == .directory {
                    try? sync.rename(givenKey, to: sync, as: remote.stateKey)
                }
            }
            state = try registry.openDirectory(["Sync", remote.stateKey], in: root)
        } catch let error as Errno {
            throw SyncError(path: registry.root, reason: .system(error, while: "opening the registry"))
        } catch let error as RegistryError {
            throw SyncError(path: error.path, reason: .registry(error))
        } catch {
            throw SyncError(path: statePath, reason: .engine(String(describing: error)))
        }
        do {
            // The lock stays held while an rclone this sync started runs, even should uti die: rclone
            // inherits it (no close-on-exec), and the next sync waits for it to end.
            lock = try FileDescriptor.open("lock", relativeTo: state, .readWrite, options: [.create, .noFollow], permissions: [.ownerReadWrite])
            try lock.setCloseOnExec(false)
            try lock.lockExclusively()
        } catch {
            state.closeQuietly()
            throw SyncError(path: statePath + "/lock", reason: .system(error, while: "locking the sync state"))
        }
        let journal = (try? RegularFile.read("journal", relativeTo: state, limit: 4_096)) ?? []
        interrupted = journal.starts(with: Array("running".utf8))
        do {
            try AtomicFile.replace("journal", in: state, with: Array("running\n\(remote.text)\n".utf8), permissions: [.ownerReadWrite])
        } catch {
            throw SyncError(path: statePath + "/journal", reason: .system(error, while: "writing the sync journal"))
        }
    }

    func succeeded() {
        try? AtomicFile.replace("journal", in: state, with: Array("done\n\(remote.text)\n".utf8), permissions: [.ownerReadWrite])
    }

    func finish() {
        lock.unlock()
        lock.closeQuietly()
        state.closeQuietly()
    }

    // MARK: rclone

    /// What one rclone run said and did.
    struct Run {
        var status: Int32
        var output: [UInt8]
        /// Whether rclone wrote more than the run's output limit, and was stopped there.
        var outputExceeded = false
        /// Its last error lines (`keptErrorLines` at most).
        var errors: [String] = []
        var copiedUp = 0, copiedDown = 0, deletedUp = 0, deletedDown = 0, bytes = 0
        /// rclone's "New or changed in both paths": the conflict pairs it made.
        var changedOnBothSides = 0
    }

    /// The most error lines of one rclone run kept for a message (the last ones).
    static let keptErrorLines = 16

    /// Runs rclone with `arguments` (after the program and the configuration), reading its JSON log; at most
    /// `outputLimit` bytes of its standard output are kept (past them it is stopped: `Run.outputExceeded`).
    func rclone(_ arguments: [String], container: String = "", standardInput: [UInt8]? = nil,
                outputLimit: Int = 64 << 20) throws(SyncError) -> Run {
        var argv = [options.rclone]
        if let configuration = options.rcloneConfiguration { argv += ["--config", configuration] }
        argv += arguments + ["--use-json-log", "-v", "--stats", "1s", "--stats-log-level", "NOTICE"]
        var run = Run(status: 0, output: [])
        enum Direction { case up, down, none }
        var copying = Direction.none
        var deleting = Direction.none
        var lastStats: LogLine.Stats?
        let decoder = JSONDecoder()
        let progress = options.progress
        let outcome: Processes.Outcome
        do {
            outcome = try Processes.run(options.rclone, arguments: argv, standardInput: standardInput, standardOutputLimit: outputLimit) { line in
                // A line per file copied or deleted (tens of thousands): counted by its message alone; the JSON is
                // decoded only for the few lines that say more.
                if line.contains("\"msg\":\"Copied (") {
                    if case .up = copying { run.copiedUp += 1 } else { run.copiedDown += 1 }
                    return
                }
                if line.contains("\"msg\":\"Deleted\"") {
                    if case .up = deleting { run.deletedUp += 1 } else { run.deletedDown += 1 }
                    return
                }
                if line.contains("New or changed in both paths") { run.changedOnBothSides += 1 }
                if line.hasPrefix("{"), line.contains("\"level\":\"info\""), !line.contains("\"stats\""),
                   !line.contains("queued copies to"), !line.contains("queued deletes on"), !line.contains("Resynching") {
                    return
                }
                func keep(_ error: String) {
                    if run.errors.count == Self.keptErrorLines { run.errors.removeFirst() }
                    run.errors.append(error)
                }
                guard let parsed = try? decoder.decode(LogLine.self, from: Data(line.utf8)) else {
                    if !line.isEmpty { keep(line) }
                    return
                }
                let message = parsed.msg ?? ""
                if let stats = parsed.stats {
                    lastStats = stats
                    progress?(UbiquitySync.Progress(container: container, bytes: stats.bytes ?? 0, totalBytes: stats.totalBytes ?? 0,
                                                     transfers: stats.transfers ?? 0, totalTransfers: stats.totalTransfers ?? 0))
                }
                if message.contains("doing queued copies to") || message.contains("Do queued copies to") {
                    copying = message.hasSuffix("Path1") ? .down : .up
                    deleting = .none
                } else if message.hasPrefix("Resynching Path1 to Path2") {
                    copying = .up
                } else if message.contains("Do queued deletes on") {
                    deleting = message.hasSuffix("Path1") ? .down : .up
                    copying = .none
                }
                if parsed.level == "error" || parsed.level == "critical" { keep(message) }
            }
        } catch .noSuchFileOrDirectory, .permissionDenied {
            throw SyncError(path: options.rclone, reason: .engineMissing(options.rclone))
        } catch {
            throw SyncError(path: options.rclone, reason: .system(error, while: "running rclone"))
        }
        run.status = outcome.status
        run.output = outcome.standardOutput
        run.outputExceeded = outcome.exceededStandardOutputLimit
        run.bytes = lastStats?.bytes ?? 0
        return run
    }

    /// Runs rclone and throws its errors when it fails; `what` says what it was doing.
    @discardableResult
    func rcloneChecked(_ arguments: [String], what: String, container: String = "", standardInput: [UInt8]? = nil,
                       accepting accepted: Set<Int32> = [0]) throws(SyncError) -> Run {
        let run = try rclone(arguments, container: container, standardInput: standardInput)
        guard accepted.contains(run.status) else {
            let said = run.errors.suffix(3).joined(separator: "; ")
            throw SyncError(path: remote.text, reason: .engine("\(what): exit status \(run.status)" + (said.isEmpty ? "" : ": " + said)))
        }
        return run
    }

    /// The flags every transfer takes: no links followed or copied, no per-file hashing over SFTP.
    static let transferFlags = ["--skip-links", "--sftp-skip-links", "--sftp-disable-hashcheck"]

    /// The bytes of a remote file, `nil` when there is none; a file of more than `limit` bytes is refused
    /// while it is read (rclone is stopped there), never gathered whole first.
    func remoteFile(_ components: [String], limit: Int) throws(SyncError) -> [UInt8]? {
        // rclone's exit statuses 3 and 4: the directory or the file is not there.
        let what = components.joined(separator: "/")
        let read = try rclone(["cat", remote.appending(components)] + Self.transferFlags, outputLimit: limit)
        if read.outputExceeded {
            throw SyncError(path: remote.appending(components), reason: .remoteRefused(
                "larger than \(limit >> 20) MiB, the most uti reads of \(what); nothing synced of it"))
        }
        guard [0, 3, 4].contains(read.status) else {
            let said = read.errors.suffix(3).joined(separator: "; ")
            throw SyncError(path: remote.text, reason: .engine("reading \(what): exit status \(read.status)" + (said.isEmpty ? "" : ": " + said)))
        }
        return read.status == 0 ? read.output : nil
    }

    /// Replaces a remote file with `bytes`: written under a temporary name beside it, then renamed over it.
    func replaceRemoteFile(_ components: [String], with bytes: [UInt8]) throws(SyncError) {
        guard let name = components.last else { return }
        let temporary = Array(components.dropLast()) + [".\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"]
        try rcloneChecked(["rcat", remote.appending(temporary)] + Self.transferFlags, what: "writing \(components.joined(separator: "/"))",
                          standardInput: bytes)
        try rcloneChecked(["moveto", remote.appending(temporary), remote.appending(components)] + Self.transferFlags,
                          what: "replacing \(components.joined(separator: "/"))")
    }

    // MARK: A container

    mutating func sync(container: String, into summary: inout UbiquitySync.Summary) throws(SyncError) {
        let kind = SharedSpace.ubiquityContainer
        let directoryName = kind.directoryName(container)
        let local = registry.sharedSpacePath(kind, container)
        let remotePath = remote.appending(kind.parent + [directoryName])
        let workdir = try stateDirectory(["bisync", directoryName])
        try makeSentinel(in: local, synced: hasListings(workdir) || interrupted)
        let excluded = ExcludedItems.find(under: local)
        let excludedPaths = Set(excluded.map(\.path))
        let excludes = try writeExcludes(excluded, name: directoryName)
        let common = Self.transferFlags + ["--exclude-from", excludes]
        if !hasListings(workdir) { try rcloneChecked(["mkdir", remotePath] + Self.transferFlags, what: "making \(remotePath)") }
        // Deletions are the user's, as iCloud takes them: rclone's check that refuses to delete more than half of
        // a side (which a container of three files trips over) is off; what it guards against, a container
        // wiped or replaced, the sentinel's absence catches (`makeSentinel`).
        let bisync = ["bisync", local, remotePath, "--workdir", workdir, "--ignore-checksum", "--force"] + common
        var pairs = 0
        func account(_ run: Run) {
            pairs += run.changedOnBothSides
            summary.filesUp += run.copiedUp
            summary.filesDown += run.copiedDown
            summary.deletedUp += run.deletedUp
            summary.deletedDown += run.deletedDown
            summary.bytes += run.bytes
        }
        _ = try recoverListings(in: workdir)
        if !hasListings(workdir) {
            // The first sync: a file both sides hold differently keeps the remote's version as a conflict version
            // (compared by their bytes: a size and a time prove nothing), then rclone's resync brings the remote's
            // files this side lacks and starts its listings from the two sides alike.
            let own = Self.files(under: local)
            let report = workdir + "/first-check.txt"
            var lines: [UInt8] = []
            if !own.isEmpty {
                let list = workdir + "/first-files.txt"
                do {
                    try AtomicFile.replace(atPath: list, with: Array(own.map { $0 + "\n" }.joined().utf8), permissions: [.ownerReadWrite])
                } catch {
                    throw SyncError(path: list, reason: .system(error, while: "listing the container's files"))
                }
                try rcloneChecked(["check", local, remotePath, "--download", "--combined", report, "--files-from-raw", list] + common,
                                  what: "comparing \(container) with the remote", container: container, accepting: [0, 1])
                lines = (try? RegularFile.read(report, limit: 64 << 20)) ?? []
                try? FileDescriptor.workingDirectory.remove(list)
            }
            for line in lines.split(separator: UInt8(ascii: "\n")) where line.first == UInt8(ascii: "*") && line.count > 2 {
                let path = String(decoding: line.dropFirst(2), as: UTF8.self)
                let version = ConflictNames.freeName(for: path, in: local)
                account(try rcloneChecked(["copyto", remote.appending(kind.parent + [directoryName] + [path]), local + "/" + version] + common,
                                          what: "keeping the remote's version of \(path)", container: container))
                summary.conflicts += 1
            }
            try? FileDescriptor.workingDirectory.remove(report)
            saveListings(in: workdir)
            account(try rcloneChecked(bisync + ["--resync"], what: "starting the sync of \(container)", container: container))
        } else {
            saveListings(in: workdir)
            account(try rcloneChecked(bisync, what: "syncing \(container)", container: container))
        }
        // rclone's conflict pairs become one file, or a file and its conflict version; then once more, so the
        // remote has what this side now has. Pairs left by a sync that stopped before this step are found too.
        let deadRun = openWorkdir(workdir).flatMap { folder in
            defer { folder.closeQuietly() }
            return DeadRunListings(workdir: folder)
        }
        let resolved = pairs > 0 || interrupted || deadRun != nil
            ? ConflictNames.resolvePairs(in: local, deadRun: deadRun, excluded: excludedPaths) : (changed: false, conflicts: 0)
        summary.conflicts += resolved.conflicts
        if resolved.changed {
            saveListings(in: workdir)
            account(try rcloneChecked(bisync, what: "syncing \(container) after its conflicts", container: container))
        }
        try syncAttributes(of: local, name: directoryName, excluded: excludedPaths, into: &summary)
        if deadRun != nil, let folder = openWorkdir(workdir) {
            DeadRunListings.discard(in: folder)
            folder.closeQuietly()
        }
    }

    private func openWorkdir(_ workdir: String) -> FileDescriptor? {
        try? FileDescriptor.open(workdir, .readOnly, options: [.directory, .noFollow])
    }

    /// The paths of the regular files under a container that a sync carries (but the sentinel).
    private static func files(under local: String) -> [String] {
        var found: [String] = []
        let (parent, name) = AtomicFile.split(local)
        guard let directory = try? FileDescriptor.open(parent, .readOnly, options: [.directory]) else { return [] }
        defer { directory.closeQuietly() }
        let start = Array(local.utf8)
        TreeWalk().walk(Array(name.utf8), in: directory, path: start, visit: { entry in
            guard entry.depth > 0 else { return .proceed }
            let relative = String(decoding: entry.path.dropFirst(start.count + 1), as: UTF8.self)
            if entry.depth == 1, relative == UbiquitySync.sentinelName || relative == "tmp" { return .skipContents }
            if relative == "Library/Caches" { return .skipContents }
            if entry.status.type == .regular, !relative.contains("\n") { found.append(relative) }
            return .proceed
        }, fail: { _, _, _ in true })
        return found
    }

    /// The sentinel rclone needs on both sides (it refuses to sync a side with no file at all), made here by the
    /// first sync, which carries it there. Missing after a sync, it says the container was wiped or replaced since:
    /// syncing would delete everything on the remote and the other machines, so the sync stops, unless forced.
    private func makeSentinel(in local: String, synced: Bool) throws(SyncError) {
        let folder: FileDescriptor
        do {
            folder = try FileDescriptor.open(local, .readOnly, options: [.directory, .noFollow])
        } catch {
            throw SyncError(path: local, reason: .system(error, while: "opening the container"))
        }
        defer { folder.closeQuietly() }
        guard (try? folder.status(of: UbiquitySync.sentinelName)) == nil else { return }
        if synced && !options.force {
            throw SyncError(path: local, reason: .containerReplaced)
        }
        do {
            try AtomicFile.replace(UbiquitySync.sentinelName, in: folder, with: [], permissions: [.ownerReadWrite])
        } catch {
            throw SyncError(path: local + "/" + UbiquitySync.sentinelName, reason: .system(error, while: "writing the sync's sentinel"))
        }
    }

    /// A directory of the sync state (made private when missing), by path.
    private func stateDirectory(_ components: [String]) throws(SyncError) -> String {
        var current = state
        var path = statePath
        for component in components {
            path += "/" + component
            do {
                let next = try current.openOrMakeDirectory(component, permissions: [.ownerReadWriteExecute])
                if current != state { current.closeQuietly() }
                current = next
            } catch {
                throw SyncError(path: path, reason: .system(error, while: "making the sync state"))
            }
        }
        if current != state { current.closeQuietly() }
        return path
    }

    /// rclone's listings of the last sync.
    private func hasListings(_ workdir: String) -> Bool {
        let names = (try? FileDescriptor.open(workdir, .readOnly, options: [.directory]).directoryEntries()) ?? []
        return names.contains { $0.count > 4 && $0.suffix(4).elementsEqual(".lst".utf8) }
    }

    /// Copies each listing to `<name>.saved` before a run, so that a run that dies part-way through can be
    /// taken back to the state before it.
    private func saveListings(in workdir: String) {
        guard let folder = try? FileDescriptor.open(workdir, .readOnly, options: [.directory]) else { return }
        defer { folder.closeQuietly() }
        for name in (try? folder.directoryEntries()) ?? [] where name.count > 4 && name.suffix(4).elementsEqual(".lst".utf8) {
            guard let bytes = try? RegularFile.read(PathBytes(name), relativeTo: folder, limit: 1 << 30) else { continue }
            try? AtomicFile.replace(String(decoding: name, as: UTF8.self) + ".saved", in: folder, with: bytes, permissions: [.ownerReadWrite])
        }
    }

    /// After a run of rclone that died (its lock or its new listings left): the listings as they were before
    /// it, the lock and rclone's temporaries removed, its new listings set aside (`DeadRunListings`). Returns
    /// whether there was such a run. A sync that failed and returned (rclone's error, a refusal of uti's)
    /// leaves none of these: it is no crash, and the next sync is an ordinary one.
    private func recoverListings(in workdir: String) throws(SyncError) -> Bool {
        guard let folder = try? FileDescriptor.open(workdir, .readOnly, options: [.directory]) else { return false }
        defer { folder.closeQuietly() }
        let names = ((try? folder.directoryEntries()) ?? []).map { String(decoding: $0, as: UTF8.self) }
        let leftovers = names.filter { $0.hasSuffix(".lck") || $0.hasSuffix(".lst-new") || $0.hasSuffix(".lst-err") || $0.hasSuffix(".lst-dry") }
        guard !leftovers.isEmpty else { return false }
        for lock in names where lock.hasSuffix(".lck") {
            let text = (try? RegularFile.read(lock, relativeTo: folder, limit: 64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            // rclone writes its process identifier into the lock. A lock is live while that process runs and is
            // an rclone bisync: not a killed one its parent has not reaped, nor a later process given the same number.
            if let pid = Int32(text.filter { $0.isNumber }), pid != Processes.currentIdentifier, Processes.isRunning(pid),
               Processes.arguments(of: pid).map({ $0.contains("bisync") }) ?? true {
                throw SyncError(path: workdir + "/" + lock, reason: .engine("an rclone (process \(pid)) is still syncing with this remote"))
            }
        }
        for saved in names where saved.hasSuffix(".lst.saved") {
            let listing = String(saved.dropLast(".saved".count))
            if let bytes = try? RegularFile.read(saved, relativeTo: folder, limit: 1 << 30) {
                try? AtomicFile.replace(listing, in: folder, with: bytes, permissions: [.ownerReadWrite])
            }
        }
        for name in names where name.hasSuffix(".lst-err") {
            let listing = String(name.dropLast("-err".count))
            if !names.contains(listing + ".saved") { try? folder.rename(name, to: folder, as: listing) }
        }
        // What the dead run listed before its first transfer: which copies it may have cut short.
        DeadRunListings.setAside(in: folder, names: names)
        for name in leftovers where !name.hasSuffix(DeadRunListings.newSuffix) { try? folder.remove(name) }
        return true
    }

    /// The patterns of what is not synced, written for `--exclude-from`: `Library/Caches/`, `tmp/`, and the
    /// items excluded from backup (by their attribute), each anchored at the container's root.
    private func writeExcludes(_ excluded: [(path: String, isDirectory: Bool)], name: String) throws(SyncError) -> String {
        var lines = ["/Library/Caches/**", "/tmp/**"]
        for (path, isDirectory) in excluded {
            let escaped = ExcludedItems.escapedPattern(path)
            lines.append("/" + escaped + (isDirectory ? "/**" : ""))
        }
        let folder = try stateDirectory(["excludes"])
        let file = folder + "/" + name + ".txt"
        do {
            try AtomicFile.replace(atPath: file, with: Array((lines.joined(separator: "\n") + "\n").utf8), permissions: [.ownerReadWrite])
        } catch {
            throw SyncError(path: file, reason: .system(error, while: "writing what is not synced"))
        }
        return file
    }

    // MARK: Extended attributes

    /// Merges the container's extended attributes with the remote's manifest and the last synced one, applies
    /// the result here and writes it there (see `UbiquitySync`).
    private func syncAttributes(of local: String, name: String, excluded: Set<String>, into summary: inout UbiquitySync.Summary) throws(SyncError) {
        let manifestComponents = [".uti", "attributes", name + ".plist"]
        let basePath = statePath + "/attributes-" + name + ".plist"
        let limit = AttributeManifest.limits.size
        let base = try AttributeManifest.decode((try? RegularFile.read(basePath, limit: limit)) ?? [], path: basePath)
        let theirs = try AttributeManifest.decode(try remoteFile(manifestComponents, limit: limit) ?? [], path: remote.appending(manifestComponents))
        let ours = AttributeManifest.collect(under: local, excluded: excluded)
        let merged = AttributeManifest.merged(ours: ours, theirs: theirs, base: base)
        // Checked before anything changes: a merge no reader could take back is refused, here and there.
        let encoded = try merged.encoded(path: remote.appending(manifestComponents))
        summary.attributesDown += AttributeManifest.apply(merged, over: ours, under: local, excluded: excluded)
        if merged.files != theirs.files {
            summary.attributesUp += merged.files.filter { theirs.files[$0.key] != $0.value }.count
            try replaceRemoteFile(manifestComponents, with: encoded)
        }
        do {
            try AtomicFile.replace(atPath: basePath, with: encoded, permissions: [.ownerReadWrite])
        } catch {
            throw SyncError(path: statePath, reason: .system(error, while: "keeping the synced attributes"))
        }
    }

    // MARK: The key-value store

    /// Merges `store` with the remote's copy (`SyncedPreferences/<identifier>.plist`) key by key and writes
    /// the result on both sides. A merge that would pass the store's limits writes nothing on either side and
    /// is reported (`.mergePastLimits`): the machines keep their stores until keys are removed.
    func sync(keyValueStore store: UbiquitousKeyValueStore, identifier: String, into summary: inout UbiquitySync.Summary) throws(SyncError) {
        let components = ["SyncedPreferences", identifier + ".plist"]
        let remotePath = remote.appending(components)
        var theirs = UbiquitousKeyValueStore.Contents()
        if let bytes = try remoteFile(components, limit: UbiquitousKeyValueStore.fileSizeLimit) {
            do throws(KeyValueStoreError) {
                theirs = try UbiquitousKeyValueStore.decode(bytes, path: remotePath)
            } catch {
                throw SyncError(path: error.path, reason: .keyValueStore(error.message + "; nothing synced"))
            }
        }
        var merged = UbiquitousKeyValueStore.Contents()
        var encoded: [UInt8] = []
        do throws(KeyValueStoreError) {
            try store.update { contents throws(KeyValueStoreError) in
                let candidate = UbiquitousKeyValueStore.Contents.merged(contents, theirs, now: UbiquitousKeyValueStore.now())
                if candidate.values.count > UbiquitousKeyValueStore.maximumKeyCount {
                    throw KeyValueStoreError(path: store.path, reason: .mergePastLimits(
                        "\(candidate.values.count) keys, past the limit of \(UbiquitousKeyValueStore.maximumKeyCount)"))
                }
                if candidate.totalSize > UbiquitousKeyValueStore.maximumTotalSize {
                    throw KeyValueStoreError(path: store.path, reason: .mergePastLimits(
                        "\(candidate.totalSize) bytes of keys and values, past the limit of \(UbiquitousKeyValueStore.maximumTotalSize) (1 MB)"))
                }
                // The file both sides would get, checked before either is written.
                encoded = try UbiquitousKeyValueStore.encode(candidate, path: remotePath)
                merged = candidate
                summary.keysDown += Self.changedKeys(from: contents, to: merged)
                contents = merged
            }
        } catch {
            throw SyncError(path: error.path, reason: .keyValueStore(error.message))
        }
        let up = Self.changedKeys(from: theirs, to: merged)
        if up > 0 || merged != theirs {
            summary.keysUp += up
            try replaceRemoteFile(components, with: encoded)
        }
    }

    private static func changedKeys(from before: UbiquitousKeyValueStore.Contents, to after: UbiquitousKeyValueStore.Contents) -> Int {
        Set(before.values.keys).union(after.values.keys).filter { before.values[$0] != after.values[$0] }.count
    }
}
