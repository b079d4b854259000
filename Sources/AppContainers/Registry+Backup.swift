public import FileIdentification
internal import SystemCalls
internal import SystemPackage

extension Registry {
    /// One thing a backup takes: a directory, a file, a symbolic link (as a link), a FIFO or a device.
    public struct BackupItem: Sendable, Hashable {
        /// What an item is.
        public enum Kind: String, Sendable, Hashable {
            /// An item's kind: a directory, a regular file, a symbolic link (taken as a link), or other (a FIFO or
            /// a device).
            case directory, file, symbolicLink, other
        }

        /// Its full path: `<root>/Containers/<container>/Documents/report.pdf`.
        public var path: RawFilePath
        /// What it is.
        public var kind: Kind
        /// The app whose container holds it, or the application group whose shared container does.
        public var bundleIdentifier: String
    }

    /// What `backupItems` found: the items, and what could not be read (a backup would miss it too).
    public struct BackupListing: Sendable {
        /// The items, in the order a backup takes them.
        public var items: [BackupItem]
        /// What could not be read.
        public var problems: [BackupError]
    }

    /// The directories of a container a backup takes, as the platform's contract has it: `Documents/`
    /// (with `Inbox/`) and `Library/` but for `Library/Caches/`. The bundle is not in the container;
    /// `tmp/` is not taken, nor anything else at the container's top (the run lock).
    public static let backedUpDirectories = ["Documents", "Library"]

    /// What a backup of the app's container (or, without one, of every registered app's) takes: the
    /// items below `Documents/` and `Library/`, those directories included, in depth-first order with
    /// each directory's names in byte order, leaving out
    ///
    /// - `Library/Caches/`, and every directory holding a `CACHEDIR.TAG` (a regular file starting with
    ///   the signature, read as GNU tar reads it), with everything in it;
    /// - every item whose `user.uti.exclude-from-backup` attribute is set (see `BackupExclusion`), with
    ///   everything in it;
    /// - sockets, which no backup can restore (tar leaves them out too).
    ///
    /// Symbolic links are listed as links and never followed. The list is what GNU tar takes with
    /// `--exclude-caches-all` from those directories, but for excluded files, which only uti's list
    /// leaves out (tar sees tags of directories alone).
    ///
    /// It also brings the tags up to date: `Library/Caches/`, `tmp/` and every directory excluded by its
    /// attribute get a `CACHEDIR.TAG` when they lack one (a container made before uti wrote them, a tag
    /// an app deleted), so that tools that know nothing of uti skip what uti does.
    ///
    /// Application groups' shared containers are taken the same way (their `Library/` but for
    /// `Library/Caches/`), after the apps' containers: every group's without `bundleIdentifier`, the app's
    /// own groups with it; their items carry the group identifier as `bundleIdentifier`.
    public func backupItems(for bundleIdentifier: String? = nil) throws(RegistryError) -> BackupListing {
        let targets: [(bundleIdentifier: String, container: String)]
        let groups: [String]
        if let bundleIdentifier {
            if let known = try? app(bundleIdentifier) {
                targets = [(known.bundleIdentifier, known.containerName)]
                groups = known.manifest.applicationGroups
            } else {
                // An app unregistered with its data kept: its container is still the user's.
                targets = [(bundleIdentifier, try containerName(bundleIdentifier))]
                groups = []
            }
        } else {
            targets = try apps().map { ($0.bundleIdentifier, $0.containerName) }
            groups = try applicationGroups().map(\.identifier)
        }
        var listing = try backupItems(of: targets.map { ($0.bundleIdentifier, ["Containers", $0.container]) },
                                      required: bundleIdentifier != nil)
        let shared = try backupItems(of: groups.map { ($0, ["Shared", "AppGroup", $0]) }, required: false)
        listing.items += shared.items
        listing.problems += shared.problems
        return listing
    }

    /// The backup of each container at `components` below the root (an app's, or a group's shared one).
    private func backupItems(of targets: [(owner: String, components: [String])], required: Bool) throws(RegistryError) -> BackupListing {
        guard !targets.isEmpty else { return BackupListing(items: [], problems: []) }
        let rootDirectory: FileDescriptor
        do throws(Errno) {
            rootDirectory = try FileDescriptor.openDirectory(atPath: root)
        } catch {
            throw RegistryError(path: root, reason: .system(error))
        }
        defer { rootDirectory.closeQuietly() }
        var listing = BackupListing(items: [], problems: [])
        for (identifier, components) in targets {
            let path = root + "/" + components.joined(separator: "/")
            // Each component opened without following a link; a registry with no container yet has nothing.
            var container: FileDescriptor?
            var failure: Errno?
            for component in components {
                do throws(Errno) {
                    let next = try (container ?? rootDirectory).openDirectory(component)
                    container?.closeQuietly()
                    container = next
                } catch {
                    container?.closeQuietly()
                    container = nil
                    failure = error
                    break
                }
            }
            guard let container else {
                let errno = failure ?? .noSuchFileOrDirectory
                if required { throw RegistryError(path: path, reason: .system(errno)) }
                if errno != .noSuchFileOrDirectory || components.first == "Containers" {
                    listing.problems.append(BackupError(path: path, reason: .system(errno)))
                }
                continue
            }
            defer { container.closeQuietly() }
            for excluded in [["Library", "Caches"], ["tmp"]] {
                Self.tagDirectory(excluded, in: container)
            }
            var walk = BackupWalk(bundleIdentifier: identifier, listing: listing)
            for top in Self.backedUpDirectories {
                walk.visit(Array(top.utf8), in: container, path: Array(path.utf8) + [UInt8(ascii: "/")] + Array(top.utf8),
                           relative: Array(top.utf8), depth: 0)
            }
            listing = walk.listing
        }
        return listing
    }

    /// Writes a `CACHEDIR.TAG` into the directory `components` of a container (opened without following
    /// links), when it is there and has none; quietly does nothing otherwise.
    static func tagDirectory(_ components: [String], in container: FileDescriptor) {
        var directory: FileDescriptor?
        for component in components {
            let next = try? (directory ?? container).openDirectory(component)
            directory?.closeQuietly()
            directory = next
            if next == nil { return }
        }
        if let directory {
            _ = try? CacheDirectoryTag.write(in: directory)
            directory.closeQuietly()
        }
    }
}

/// The depth-first walk of one container's backed-up directories, through directory descriptors.
private struct BackupWalk {
    let bundleIdentifier: String
    var listing: Registry.BackupListing

    static let caches = Array("Library/Caches".utf8)

    mutating func visit(_ name: [UInt8], in parent: FileDescriptor, path: [UInt8], relative: [UInt8], depth: Int) {
        let shown = { RawFilePath(bytes: path).escaped }
        let status: Stat
        do throws(Errno) {
            status = try parent.status(of: PathBytes(name))
        } catch .noSuchFileOrDirectory {
            return
        } catch {
            listing.problems.append(BackupError(path: shown(), reason: .system(error)))
            return
        }
        switch status.type {
        case .socket:
            return
        case .regular:
            if (try? parent.extendedAttribute(BackupExclusion.attributeName, of: name)) == BackupExclusion.attributeValue { return }
            listing.items.append(.init(path: RawFilePath(bytes: path), kind: .file, bundleIdentifier: bundleIdentifier))
        case .symbolicLink:
            listing.items.append(.init(path: RawFilePath(bytes: path), kind: .symbolicLink, bundleIdentifier: bundleIdentifier))
        case .directory:
            guard depth < 4_096 else {
                listing.problems.append(BackupError(path: shown(), reason: .system(.tooManySymbolicLinkLevels)))
                return
            }
            let directory: FileDescriptor
            do throws(Errno) {
                directory = try parent.openDirectory(PathBytes(name))
            } catch {
                listing.problems.append(BackupError(path: shown(), reason: .system(error)))
                return
            }
            defer { directory.closeQuietly() }
            if relative == Self.caches || BackupExclusion.isExcluded(directory) {
                _ = try? CacheDirectoryTag.write(in: directory)
                return
            }
            if CacheDirectoryTag.state(in: directory) != .none { return }
            listing.items.append(.init(path: RawFilePath(bytes: path), kind: .directory, bundleIdentifier: bundleIdentifier))
            let entries: [[UInt8]]
            do throws(Errno) {
                entries = try directory.directoryEntries()
            } catch {
                listing.problems.append(BackupError(path: shown(), reason: .system(error)))
                return
            }
            for entry in entries.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                visit(entry, in: directory, path: path + [UInt8(ascii: "/")] + entry, relative: relative + [UInt8(ascii: "/")] + entry, depth: depth + 1)
            }
        default:
            listing.items.append(.init(path: RawFilePath(bytes: path), kind: .other, bundleIdentifier: bundleIdentifier))
        }
    }
}
