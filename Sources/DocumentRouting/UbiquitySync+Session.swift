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

/// A remote as the user named it: an rclone remote and path, or a local directory.
struct Remote {
    let text: String

    /// Checks `text`: no control characters; a local directory is absolute and reached through no symbolic
    /// link (a link in its path could lead the sync out of where the user meant).
    init(_ text: String) throws(SyncError) {
        guard !text.isEmpty, text.utf8.count <= 4_096, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw SyncError(path: "-", reason: .remoteRefused("empty, longer than 4,096 bytes, or holding control characters"))
        }
        self.text = text
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
    var stateKey: String {
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
        var errors: [String] = []
        var copiedUp = 0, copiedDown = 0, deletedUp = 0, deletedDown = 0, bytes = 0
    }

    /// Runs rclone with `arguments` (after the program and the configuration), reading its JSON log.
    func rclone(_ arguments: [String], container: String = "", standardInput: [UInt8]? = nil) throws(SyncError) -> Run {
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
            outcome = try Processes.run(options.rclone, arguments: argv, standardInput: standardInput) { line in
                guard let parsed = try? decoder.decode(LogLine.self, from: Data(line.utf8)) else {
                    if !line.isEmpty { run.errors.append(line) }
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
                } else if message.hasPrefix("Copied (") {
                    // Outside bisync, only a first sync's copy from the remote copies: down.
                    switch copying {
                    case .up: run.copiedUp += 1
                    case .down, .none: run.copiedDown += 1
                    }
                } else if message == "Deleted" {
                    switch deleting {
                    case .up: run.deletedUp += 1
                    case .down, .none: run.deletedDown += 1
                    }
                }
                if parsed.level == "error" || parsed.level == "critical" { run.errors.append(message) }
            }
        } catch .noSuchFileOrDirectory, .permissionDenied {
            throw SyncError(path: options.rclone, reason: .engineMissing(options.rclone))
        } catch {
            throw SyncError(path: options.rclone, reason: .system(error, while: "running rclone"))
        }
        run.status = outcome.status
        run.output = outcome.standardOutput
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

    /// The bytes of a remote file, `nil` when there is none.
    func remoteFile(_ components: [String]) throws(SyncError) -> [UInt8]? {
        guard let name = components.last else { return nil }
        let directory = remote.appending(Array(components.dropLast()))
        let listing = try rclone(["lsf", directory, "--files-only", "--max-depth", "1"] + Self.transferFlags)
        // A directory not there yet is no file either.
        guard listing.status == 0 else { return nil }
        let names = listing.output.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        guard names.contains(name) else { return nil }
        return try rcloneChecked(["cat", remote.appending(components)] + Self.transferFlags, what: "reading \(components.joined(separator: "/"))").output
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
        try makeSentinel(in: local)
        let workdir = try stateDirectory(["bisync", directoryName])
        let excludes = try writeExcludes(for: local, name: directoryName)
        let common = Self.transferFlags + ["--exclude-from", excludes]
        try rcloneChecked(["mkdir", remotePath] + Self.transferFlags, what: "making \(remotePath)")
        let bisync = ["bisync", local, remotePath, "--workdir", workdir, "--ignore-checksum"] + common + (options.force ? ["--force"] : [])
        func account(_ run: Run) {
            summary.filesUp += run.copiedUp
            summary.filesDown += run.copiedDown
            summary.deletedUp += run.deletedUp
            summary.deletedDown += run.deletedDown
            summary.bytes += run.bytes
        }
        let recovering = try recoverListings(in: workdir) || interrupted
        if !hasListings(workdir) {
            // The first sync: the remote's files this side lacks come here, a file both hold differently keeps
            // the remote's version as a conflict version, and rclone's listings start from the two sides alike.
            account(try rcloneChecked(["copy", remotePath, local, "--ignore-existing"] + common, what: "copying \(container) from the remote",
                                      container: container))
            let report = workdir + "/first-check.txt"
            try rcloneChecked(["check", local, remotePath, "--download", "--combined", report] + common,
                              what: "comparing \(container) with the remote", container: container, accepting: [0, 1])
            let lines = (try? RegularFile.read(report, limit: 64 << 20)) ?? []
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
        // remote has what this side now has.
        let resolved = ConflictNames.resolvePairs(in: local, recovering: recovering)
        summary.conflicts += resolved.conflicts
        if resolved.changed {
            saveListings(in: workdir)
            account(try rcloneChecked(bisync, what: "syncing \(container) after its conflicts", container: container))
        }
        try syncAttributes(of: local, name: directoryName, into: &summary)
    }

    /// The sentinel rclone needs on both sides, made here when missing (the first sync carries it there).
    private func makeSentinel(in local: String) throws(SyncError) {
        do {
            let folder = try FileDescriptor.open(local, .readOnly, options: [.directory, .noFollow])
            defer { folder.closeQuietly() }
            if (try? folder.status(of: UbiquitySync.sentinelName)) == nil {
                try AtomicFile.replace(UbiquitySync.sentinelName, in: folder, with: [], permissions: [.ownerReadWrite])
            }
        } catch {
            throw SyncError(path: local, reason: .system(error, while: "opening the container"))
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

    /// After a run that did not finish (its lock left, listings half-written or set aside): the listings as
    /// they were before it, the lock and rclone's temporaries removed. Returns whether there was such a run.
    private func recoverListings(in workdir: String) throws(SyncError) -> Bool {
        guard let folder = try? FileDescriptor.open(workdir, .readOnly, options: [.directory]) else { return false }
        defer { folder.closeQuietly() }
        let names = ((try? folder.directoryEntries()) ?? []).map { String(decoding: $0, as: UTF8.self) }
        let leftovers = names.filter { $0.hasSuffix(".lck") || $0.hasSuffix(".lst-new") || $0.hasSuffix(".lst-err") || $0.hasSuffix(".lst-dry") }
        guard !leftovers.isEmpty else { return false }
        for lock in names where lock.hasSuffix(".lck") {
            let text = (try? RegularFile.read(lock, relativeTo: folder, limit: 64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if let pid = Int32(text.filter { $0.isNumber }), Processes.isRunning(pid), pid != Processes.currentIdentifier {
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
        for name in leftovers { try? folder.remove(name) }
        return true
    }

    /// The patterns of what is not synced, written for `--exclude-from`: `Library/Caches/`, `tmp/`, and the
    /// items excluded from backup (by their attribute), each anchored at the container's root.
    private func writeExcludes(for local: String, name: String) throws(SyncError) -> String {
        var lines = ["/Library/Caches/**", "/tmp/**"]
        for (path, isDirectory) in ExcludedItems.find(under: local) {
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
    private func syncAttributes(of local: String, name: String, into summary: inout UbiquitySync.Summary) throws(SyncError) {
        let manifestComponents = [".uti", "attributes", name + ".plist"]
        let basePath = statePath + "/attributes-" + name + ".plist"
        let base = try AttributeManifest.decode((try? RegularFile.read(basePath, limit: 256 << 20)) ?? [], path: basePath)
        let theirs = try AttributeManifest.decode(try remoteFile(manifestComponents) ?? [], path: remote.appending(manifestComponents))
        let ours = AttributeManifest.collect(under: local)
        let merged = AttributeManifest.merged(ours: ours, theirs: theirs, base: base)
        summary.attributesDown += AttributeManifest.apply(merged, over: ours, under: local)
        if merged != theirs {
            summary.attributesUp += merged.files.filter { theirs.files[$0.key] != $0.value }.count
            try replaceRemoteFile(manifestComponents, with: merged.encoded)
        }
        do {
            try AtomicFile.replace(atPath: statePath + "/attributes-" + name + ".plist", with: merged.encoded, permissions: [.ownerReadWrite])
        } catch {
            throw SyncError(path: statePath, reason: .system(error, while: "keeping the synced attributes"))
        }
    }

    // MARK: The key-value store

    func sync(keyValueStore store: UbiquitousKeyValueStore, identifier: String, into summary: inout UbiquitySync.Summary) throws(SyncError) {
        let components = ["SyncedPreferences", identifier + ".plist"]
        let theirs: UbiquitousKeyValueStore.Contents
        do {
            theirs = try UbiquitousKeyValueStore.decode(try remoteFile(components) ?? Array(UbiquitousKeyValueStore.encode(.init())),
                                                       path: remote.appending(components))
        } catch let error as KeyValueStoreError {
            throw SyncError(path: error.path, reason: .keyValueStore(error.message + "; nothing synced"))
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(path: remote.appending(components), reason: .engine(String(describing: error)))
        }
        var merged = UbiquitousKeyValueStore.Contents()
        do throws(KeyValueStoreError) {
            try store.update { contents throws(KeyValueStoreError) in
                merged = UbiquitousKeyValueStore.Contents.merged(contents, theirs)
                summary.keysDown += Self.changedKeys(from: contents, to: merged)
                contents = merged
            }
        } catch {
            throw SyncError(path: error.path, reason: .keyValueStore(error.message + "; nothing synced"))
        }
        let up = Self.changedKeys(from: theirs, to: merged)
        if up > 0 || merged != theirs {
            summary.keysUp += up
            try replaceRemoteFile(components, with: UbiquitousKeyValueStore.encode(merged))
        }
    }

    private static func changedKeys(from before: UbiquitousKeyValueStore.Contents, to after: UbiquitousKeyValueStore.Contents) -> Int {
        Set(before.values.keys).union(after.values.keys).filter { before.values[$0] != after.values[$0] }.count
    }
}
