package import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// One entry a `TreeWalk` met: its name in the directory open on `parent`, and its status as
/// `fstatat(AT_SYMLINK_NOFOLLOW)` gave it. Valid for the length of the call that hands it over.
package struct TreeWalkEntry {
    /// The directory the entry is in, open.
    package var parent: FileDescriptor
    package var name: [UInt8]
    package var status: Stat
    /// 0 for the start, 1 for its entries, ...
    package var depth: Int
    fileprivate let trail: TreeWalk.Trail

    /// The path from where the walk started, for messages only (never opened): made when asked, so that a
    /// walk keeps no path of its own however deep the tree.
    package var path: [UInt8] { depth == 0 ? trail.start : trail.path(appending: name, depth: depth) }
}

/// What a walk does after a visit.
package enum TreeWalkAction {
    /// Go on; into the entry, when it is a directory.
    case proceed
    /// Go on, but not into this directory.
    case skipContents
    /// End the walk.
    case stop
}

/// A depth-first walk of a directory tree through directory descriptors: every directory is opened
/// relative to the one above it with `O_NOFOLLOW | O_DIRECTORY` and checked to be the directory that was
/// examined (device and inode), every entry is examined with `fstatat(AT_SYMLINK_NOFOLLOW)` relative to its
/// directory, and nothing is ever looked up again by a path string. A symbolic link is an entry, never
/// followed; a directory swapped for a link or for another directory while the walk runs is refused
/// (`ELOOP`, `ENOTDIR`, or `ESTALE` for another directory). Whoever acts on an entry acts through
/// `TreeWalkEntry.parent` (`openat`, `unlinkat`, `fgetxattr`).
///
/// Any depth, in memory that grows with the depth only by each level's listing, and with a bounded number
/// of open descriptors: past `openDescriptorLimit` levels the descriptors of the upper levels are closed,
/// and a level is opened again, when the walk comes back to it, as `..` of the level below, accepted only
/// when it is the same directory (device and inode) it was. A tree rearranged under the walk is reported,
/// never followed out of.
package struct TreeWalk {
    /// The most directory descriptors the walk holds open at once (at least 2).
    package var openDescriptorLimit = 64
    /// Each directory's names in byte order; otherwise in the order the file system lists them.
    package var sorted = false
    /// Stay on the mount of the start: a directory on another file system or another mount (a bind mount
    /// of a directory from elsewhere on the same file system too, where the kernel tells mounts apart) is
    /// reported with `EXDEV` and not entered.
    package var stayOnFileSystem = false
    /// How a directory met is opened, relative to its parent: by default `O_NOFOLLOW | O_DIRECTORY`.
    /// (A removal opens directories its owner made unreadable; see `removeTree`.)
    package var openDirectory: (FileDescriptor, [UInt8]) throws(Errno) -> FileDescriptor = { parent, name throws(Errno) in
        try parent.openDirectory(PathBytes(name))
    }

    package init() {}

    /// The names from the start down to the directory being walked: what paths are made of, when asked.
    final class Trail {
        let start: [UInt8]
        var names: [[UInt8]] = []

        init(start: [UInt8]) {
            self.start = start
        }

        /// The path of the entry `name` at `depth`: the start, the names of the levels above it, its name.
        func path(appending name: [UInt8], depth: Int) -> [UInt8] {
            var path = start
            for component in names.prefix(max(0, depth - 1)) { path += [UInt8(ascii: "/")] + component }
            return path + [UInt8(ascii: "/")] + name
        }
    }

    private struct Level {
        var descriptor: FileDescriptor?
        var entry: TreeWalkEntry
        var names: [[UInt8]]
        var next = 0
    }

    /// Walks the entry `name` of the directory open on `parent` (which stays open, and is the caller's),
    /// and below it when it is a directory.
    ///
    /// - Parameters:
    ///   - path: The start's path, for `TreeWalkEntry.path` and failures.
    ///   - followingStart: Follow the start when it is a symbolic link (a directory a user named).
    ///   - visit: Called for every entry, a directory before its contents.
    ///   - leave: Called for every directory the walk went into, after its contents, with the entry (its
    ///     `parent` open) and the directory's own descriptor; `false` ends the walk.
    ///   - fail: Called for what could not be examined, opened or listed, with its path, the error and
    ///     whether it is the start; `false` ends the walk. The walk goes on past a failure, without what
    ///     failed.
    package func walk(_ name: [UInt8], in parent: FileDescriptor, path: [UInt8], followingStart: Bool = false,
                      visit: (TreeWalkEntry) -> TreeWalkAction,
                      leave: (TreeWalkEntry, FileDescriptor) -> Bool = { _, _ in true },
                      fail: (_ path: [UInt8], _ error: Errno, _ isStart: Bool) -> Bool) {
        var stopped = false
        func report(_ entry: TreeWalkEntry, _ error: Errno) -> Bool {
            if !fail(entry.path, error, entry.depth == 0) { stopped = true }
            return !stopped
        }
        let trail = Trail(start: path)
        let status: Stat
        do {
            status = try parent.status(of: PathBytes(name), followingLinks: followingStart)
        } catch {
            _ = fail(path, error, true)
            return
        }
        let start = TreeWalkEntry(parent: parent, name: name, status: status, depth: 0, trail: trail)
        guard visit(start) == .proceed, status.type == .directory else { return }
        // The start may be a link a user named; everything below it is opened without following any.
        let opened: FileDescriptor? = followingStart
            ? open({ () throws(Errno) -> FileDescriptor in
                try FileDescriptor.open(PathBytes(name), relativeTo: parent, .readOnly, options: [.directory])
            }, expecting: start, fail: report)
            : open({ () throws(Errno) -> FileDescriptor in try openDirectory(parent, name) }, expecting: start, fail: report)
        guard let opened else { return }
        let mount = stayOnFileSystem ? opened.mountIdentifier : nil
        guard let first = makeLevel(opened, entry: start, fail: report) else { return }
        var levels = [first]
        defer { for level in levels { level.descriptor?.closeQuietly() } }

        while !levels.isEmpty {
            let top = levels.count - 1
            // The top level is always open.
            guard let directory = levels[top].descriptor else { return }
            if levels[top].next < levels[top].names.count {
                let name = levels[top].names[levels[top].next]
                levels[top].next += 1
                let depth = levels[top].entry.depth + 1
                let status: Stat
                do {
                    status = try directory.status(of: PathBytes(name))
                } catch .noSuchFileOrDirectory {
                    continue  // gone since the listing
                } catch {
                    let entry = TreeWalkEntry(parent: directory, name: name, status: Stat(rawValue: .init()), depth: depth, trail: trail)
                    if !report(entry, error) { return }
                    continue
                }
                let entry = TreeWalkEntry(parent: directory, name: name, status: status, depth: depth, trail: trail)
                switch visit(entry) {
                case .stop: return
                case .skipContents: continue
                case .proceed: break
                }
                guard status.type == .directory else { continue }
                if stayOnFileSystem && status.deviceID != start.status.deviceID {
                    if !report(entry, .improperLink) { return }
                    continue
                }
                guard let child = open({ () throws(Errno) -> FileDescriptor in try openDirectory(directory, name) }, expecting: entry, fail: report)
                else {
                    if stopped { return }
                    continue
                }
                if let mount, let childMount = child.mountIdentifier, childMount != mount {
                    child.closeQuietly()
                    if !report(entry, .improperLink) { return }
                    continue
                }
                guard let level = makeLevel(child, entry: entry, fail: report) else {
                    if stopped { return }
                    continue
                }
                levels.append(level)
                trail.names.append(name)
                // Keep at most `openDescriptorLimit` open: close the uppermost open level's.
                if levels.count > max(openDescriptorLimit, 2), let upper = levels.firstIndex(where: { $0.descriptor != nil }),
                   upper < levels.count - 1 {
                    levels[upper].descriptor?.closeQuietly()
                    levels[upper].descriptor = nil
                }
                continue
            }
            // Done with this directory: its parent again, then leave it.
            let finished = levels.removeLast()
            if !levels.isEmpty { trail.names.removeLast() }
            defer { directory.closeQuietly() }
            var left = finished.entry
            if let above = levels.last {
                if let open = above.descriptor {
                    left.parent = open
                } else {
                    do throws(Errno) {
                        let reopened = try FileDescriptor.open("..", relativeTo: directory, .readOnly, options: [.directory, .noFollow])
                        guard let now = try? reopened.status(), now.deviceID == above.entry.status.deviceID,
                              now.inode == above.entry.status.inode else {
                            reopened.closeQuietly()
                            throw Errno.staleNFSFileHandle
                        }
                        levels[levels.count - 1].descriptor = reopened
                        left.parent = reopened
                    } catch {
                        // Moved while walked: its place in the tree is not known any more.
                        _ = report(above.entry, error)
                        return
                    }
                }
            }
            if !leave(left, directory) { return }
        }
    }

    /// Opens a directory with `body` and checks that it is the one examined (`expected`): a directory
    /// swapped for another between the examination and the open is refused with `ESTALE`.
    private func open(_ body: () throws(Errno) -> FileDescriptor, expecting expected: TreeWalkEntry,
                      fail: (TreeWalkEntry, Errno) -> Bool) -> FileDescriptor? {
        do {
            let directory = try body()
            guard let now = try? directory.status(), now.deviceID == expected.status.deviceID, now.inode == expected.status.inode else {
                directory.closeQuietly()
                _ = fail(expected, .staleNFSFileHandle)
                return nil
            }
            return directory
        } catch {
            _ = fail(expected, error)
            return nil
        }
    }

    private func makeLevel(_ directory: FileDescriptor, entry: TreeWalkEntry, fail: (TreeWalkEntry, Errno) -> Bool) -> Level? {
        do {
            var names = try directory.directoryEntries()
            if sorted { names.sort { $0.lexicographicallyPrecedes($1) } }
            return Level(descriptor: directory, entry: entry, names: names)
        } catch {
            directory.closeQuietly()
            _ = fail(entry, error)
            return nil
        }
    }
}
