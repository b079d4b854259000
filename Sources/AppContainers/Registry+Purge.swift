internal import FileIdentification
internal import SystemCalls
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension Registry {
    /// Empties the `Library/Caches/` of apps that are not running, oldest first, as the system does on
    /// Apple's platforms when space runs low.
    ///
    /// The top-level entries of every app's `Library/Caches/` (a directory with everything in it) are
    /// ranked by when anything in them was last used (read or written; see `PurgeReport.Removal`), the
    /// oldest first, across all apps, and removed one by one. An entry dated in the future ranks as the
    /// oldest, so that no app keeps its caches, and has others' purged instead, by setting its clock ahead. With `belowFree`, removal stops on a file
    /// system once it has at least that many bytes available to unprivileged processes (`statvfs`'s
    /// `f_bavail`): `0` removes nothing, a goal beyond the file system's size removes everything.
    ///
    /// An app holding its run lock (`RunLock`) is left alone and reported; so is a container whose
    /// `Library/Caches` is a symbolic link or not a directory. Entries are removed through directory
    /// descriptors, never following a link (a link is removed as a link; what it points to stays), and
    /// nothing outside `Library/Caches/` is touched. The `CACHEDIR.TAG` stays. The shared `Library/Caches/`
    /// of application groups (every group's, or the named apps' groups') are ranked with the apps', and
    /// purged only while the run lock of every member can be taken.
    ///
    /// - Parameters:
    ///   - goal: The bytes to have available on each file system (`belowFree`); `nil` to remove every
    ///     entry.
    ///   - bundleIdentifiers: The apps to purge; `nil` for every registered app.
    ///   - dryRun: Report what would be removed, and remove nothing (a free-space goal is then reached in
    ///     the report by adding up the sizes of the entries that would go).
    /// - Throws: `RegistryError` when the registry cannot be read, or an app named is not registered.
    public func purgeCaches(belowFree goal: Int64? = nil, apps bundleIdentifiers: [String]? = nil,
                            dryRun: Bool = false) throws(RegistryError) -> PurgeReport {
        var report = PurgeReport(dryRun: dryRun)
        let session = PurgeSession()
        var candidates: [PurgeSession.Candidate] = []
        let targets = try purgeTargets(bundleIdentifiers)
        for opened in try session.open(["Library", "Caches"], of: targets, in: self, report: &report) {
            candidates += session.candidates(in: opened, skippingDeliveries: false)
        }
        // Application groups' shared caches: of every group, or of the named apps' groups; only while none
        // of the group's members is running.
        let wanted = Set(targets.flatMap(\.manifest.applicationGroups))
        let groups = try applicationGroups().filter { bundleIdentifiers == nil || wanted.contains($0.identifier) }
        for opened in session.openGroupCaches(groups, in: self, report: &report) {
            candidates += session.candidates(in: opened, skippingDeliveries: false)
        }
        // Oldest first. An entry dated in the future ranks as the oldest: otherwise an app could keep its
        // caches forever, and have others' purged in their place, by setting its times ahead.
        let now = Int64(time(nil))
        func rank(_ candidate: PurgeSession.Candidate) -> Int64 { candidate.lastUsed > now ? .min : candidate.lastUsed }
        candidates.sort { rank($0) != rank($1) ? rank($0) < rank($1) : $0.path.lexicographicallyPrecedes($1.path) }
        var simulatedAvailable: [UInt64: Int64] = [:]
        for candidate in candidates {
            if let goal {
                let measured = (try? candidate.directory.fileSystemSpace().available) ?? 0
                let available = dryRun ? simulatedAvailable[candidate.device] ?? measured : measured
                guard available < goal else { continue }
                if dryRun { simulatedAvailable[candidate.device] = available + candidate.bytes }
            }
            session.remove(candidate, dryRun: dryRun, report: &report)
        }
        if !dryRun { session.restoreTags() }
        return report
    }

    /// Empties the `tmp/` of apps that are not running: every top-level entry, or with `olderThan` those
    /// in which nothing was read or written for at least that long (by their access and modification
    /// times; a directory's own access time is not counted, since listing it, as purging does, changes it).
    ///
    /// Apps holding their run lock are left alone, as are deliveries in progress (`*.uti-delivery`,
    /// which `Inbox` cleans up itself) and the `CACHEDIR.TAG`; links are removed as links. See
    /// `purgeCaches` for the rest.
    public func purgeTemporary(olderThan age: Duration? = nil, apps bundleIdentifiers: [String]? = nil,
                               dryRun: Bool = false, now: Int64? = nil) throws(RegistryError) -> PurgeReport {
        var report = PurgeReport(dryRun: dryRun)
        let session = PurgeSession()
        let present = now ?? Int64(time(nil))
        let cutoff = age.map { present - $0.components.seconds }
        for opened in try session.open(["tmp"], of: purgeTargets(bundleIdentifiers), in: self, report: &report) {
            for candidate in session.candidates(in: opened, skippingDeliveries: true) {
                // Dated in the future: unused for as long as anything, as for caches.
                if let cutoff, candidate.lastUsed > cutoff, candidate.lastUsed <= present { continue }
                session.remove(candidate, dryRun: dryRun, report: &report)
            }
        }
        if !dryRun { session.restoreTags() }
        return report
    }

    private func purgeTargets(_ bundleIdentifiers: [String]?) throws(RegistryError) -> [RegisteredApp] {
        guard let bundleIdentifiers else { return try apps() }
        var targets: [RegisteredApp] = []
        for identifier in bundleIdentifiers {
            let found = try app(identifier)
            if !targets.contains(where: { $0.bundleIdentifier == found.bundleIdentifier }) { targets.append(found) }
        }
        return targets
    }
}

/// The descriptors a purge holds until it ends: each container's run lock (exclusive) and the
/// directory being emptied.
private final class PurgeSession {
    struct Opened {
        var bundleIdentifier: String
        var directory: FileDescriptor
        var path: [UInt8]
        var device: UInt64
    }

    struct Candidate {
        var bundleIdentifier: String
        var directory: FileDescriptor
        var name: [UInt8]
        var path: [UInt8]
        var device: UInt64
        var bytes: Int64
        var lastUsed: Int64
    }

    private var held: [FileDescriptor] = []
    private var emptied: [FileDescriptor] = []
    /// The apps whose run lock this session holds, and those found running.
    private var locked = Set<String>()
    private var running = Set<String>()

    deinit {
        for descriptor in held { descriptor.closeQuietly() }
    }

    /// Opens `components` of each app's container, once its run lock is taken exclusively; records the
    /// apps left alone.
    func open(_ components: [String], of apps: [Registry.RegisteredApp], in registry: Registry,
              report: inout PurgeReport) throws(RegistryError) -> [Opened] {
        let containers: FileDescriptor
        do throws(Errno) {
            let root = try FileDescriptor.openDirectory(atPath: registry.root)
            defer { root.closeQuietly() }
            containers = try root.openDirectory("Containers")
        } catch .noSuchFileOrDirectory {
            return []
        } catch {
            throw RegistryError(path: registry.root + "/Containers", reason: .system(error))
        }
        held.append(containers)
        var opened: [Opened] = []
        for app in apps {
            let containerPath = registry.containerPath(of: app)
            func skip(_ path: String, _ reason: PurgeReport.Skip.Reason, _ errno: Errno? = nil) {
                report.skipped.append(.init(bundleIdentifier: app.bundleIdentifier, path: path, reason: reason, errno: errno))
            }
            let container: FileDescriptor
            do throws(Errno) {
                container = try containers.openDirectory(app.containerName)
            } catch .noSuchFileOrDirectory {
                continue
            } catch {
                skip(containerPath, error == .tooManySymbolicLinkLevels || error == .notDirectory ? .notADirectory : .unreadable, error)
                continue
            }
            held.append(container)
            let lock: FileDescriptor
            do throws(Errno) {
                lock = try RunLock.open(in: container)
            } catch {
                skip(containerPath + "/" + RunLock.fileName, .unreadable, error)
                continue
            }
            held.append(lock)
            guard (try? lock.tryLockExclusively()) == true else {
                skip(containerPath, .running)
                running.insert(app.bundleIdentifier)
                continue
            }
            locked.insert(app.bundleIdentifier)
            if let found = descend(components, from: container, at: containerPath, owner: app.bundleIdentifier, report: &report) {
                opened.append(found)
            }
        }
        return opened
    }

    /// Opens the `Library/Caches/` of each group's shared container, once the run lock of every member is
    /// held (taken here for members not opened before); a group with a running member, or whose member's
    /// lock cannot be taken, is left alone and reported under the group's identifier.
    func openGroupCaches(_ groups: [Registry.ApplicationGroup], in registry: Registry, report: inout PurgeReport) -> [Opened] {
        guard !groups.isEmpty, let root = try? FileDescriptor.openDirectory(atPath: registry.root) else { return [] }
        held.append(root)
        let containers = try? root.openDirectory("Containers")
        if let containers { held.append(containers) }
        var opened: [Opened] = []
        for group in groups {
            var free = true
            for member in group.members where !locked.contains(member) {
                guard !running.contains(member), let app = try? registry.app(member), let containers,
                      let container = try? containers.openDirectory(app.containerName), let lock = try? RunLock.open(in: container) else {
                    free = false
                    break
                }
                held += [container, lock]
                guard (try? lock.tryLockExclusively()) == true else {
                    running.insert(member)
                    free = false
                    break
                }
                locked.insert(member)
            }
            guard free else {
                report.skipped.append(.init(bundleIdentifier: group.identifier, path: group.path, reason: .running, errno: nil))
                continue
            }
            if let found = descend(["Shared", "AppGroup", group.identifier, "Library", "Caches"], from: root, at: registry.root,
                                   owner: group.identifier, report: &report) {
                opened.append(found)
            }
        }
        return opened
    }

    /// Opens `components` below `start` (whose path is `path`), one directory at a time, links refused,
    /// each held until the purge ends: the directory to empty, counted as `owner`'s (an app or a group).
    /// Absent: nothing; a link or what cannot be opened: reported as left alone.
    private func descend(_ components: [String], from start: FileDescriptor, at path: String, owner: String,
                         report: inout PurgeReport) -> Opened? {
        var directory = start
        var path = path
        for component in components {
            path += "/" + component
            do throws(Errno) {
                directory = try directory.openDirectory(component)
                held.append(directory)
            } catch .noSuchFileOrDirectory {
                return nil
            } catch {
                report.skipped.append(.init(bundleIdentifier: owner, path: path,
                                            reason: error == .tooManySymbolicLinkLevels || error == .notDirectory ? .notADirectory : .unreadable,
                                            errno: error))
                return nil
            }
        }
        guard let status = try? directory.status() else { return nil }
        report.purgedApps.append(owner)
        emptied.append(directory)
        return Opened(bundleIdentifier: owner, directory: directory, path: Array(path.utf8), device: UInt64(status.rawValue.st_dev))
    }

    /// The top-level entries of a directory being emptied, measured; not its tag, and not deliveries in
    /// progress when asked.
    func candidates(in opened: Opened, skippingDeliveries: Bool) -> [Candidate] {
        let tag = Array(CacheDirectoryTag.name.utf8)
        let tagged = CacheDirectoryTag.state(in: opened.directory) != .none
        var candidates: [Candidate] = []
        for name in (try? opened.directory.directoryEntries()) ?? [] {
            if name == tag && tagged { continue }
            if skippingDeliveries && name.count > DeliveryTemporaries.suffix.count && name.suffix(DeliveryTemporaries.suffix.count).elementsEqual(DeliveryTemporaries.suffix) {
                continue
            }
            let (bytes, lastUsed) = Self.usage(of: name, in: opened.directory)
            candidates.append(Candidate(bundleIdentifier: opened.bundleIdentifier, directory: opened.directory, name: name,
                                        path: opened.path + [UInt8(ascii: "/")] + name, device: opened.device, bytes: bytes, lastUsed: lastUsed))
        }
        return candidates.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }

    /// The space a tree holds and when anything in it was last used: the latest access or modification
    /// of what is not a directory, and the latest modification of a directory (whose access time
    /// reading it changes). Through descriptors, links not followed.
    static func usage(of name: [UInt8], in parent: FileDescriptor) -> (bytes: Int64, lastUsed: Int64) {
        var total: (bytes: Int64, lastUsed: Int64) = (0, 0)
        var first = true
        TreeWalk().walk(name, in: parent, path: name, visit: { entry in
            let status = entry.status
            let used = status.type == .directory
                ? Int64(status.st_mtim.tv_sec)
                : max(Int64(status.st_atim.tv_sec), Int64(status.st_mtim.tv_sec))
            total.bytes += status.sizeAllocated
            total.lastUsed = first ? used : max(total.lastUsed, used)
            first = false
            return .proceed
        }, fail: { _, _, _ in true })
        return total
    }

    func remove(_ candidate: Candidate, dryRun: Bool, report: inout PurgeReport) {
        let removal = PurgeReport.Removal(bundleIdentifier: candidate.bundleIdentifier, path: RawFilePath(bytes: candidate.path),
                                          bytes: candidate.bytes, lastUsed: candidate.lastUsed)
        guard !dryRun else {
            report.removed.append(removal)
            return
        }
        do throws(TreeRemovalError) {
            try candidate.directory.removeTree(candidate.name)
            report.removed.append(removal)
        } catch {
            let parent = Array(candidate.path.dropLast(candidate.name.count))
            report.failures.append(.init(bundleIdentifier: candidate.bundleIdentifier, path: RawFilePath(bytes: parent + error.path).escaped,
                                         errno: error.errno))
        }
    }

    /// Puts back the tag of each directory emptied, when an app had removed or replaced it.
    func restoreTags() {
        for directory in emptied { _ = try? CacheDirectoryTag.write(in: directory) }
    }
}
