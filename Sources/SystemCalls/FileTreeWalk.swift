package import SystemPackage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Walks directory trees for classification, through directory descriptors: each directory is opened
/// relative to the one above it (`O_NOFOLLOW | O_DIRECTORY`) and listed with the kinds the file system gives
/// (`d_type`), so a regular file, a link or a device is known without an `lstat`, and a reader opens an entry
/// relative to its directory (`Entry.directory`) rather than by its whole path again. Physical: symbolic links
/// are entries, never followed (a root that is one is, as a user named it), so a loop of links cannot trap it;
/// any depth, the working directory never changed. (Removal and copies use `TreeWalk`, which checks each
/// directory it enters against what it examined.)
package enum FileTreeWalk {
    package struct Options: Sendable {
        package var includeHidden = false
        package var maxDepth: Int?
        package var oneFileSystem = false
        /// `fnmatch(3)` patterns; an entry whose name matches one is left out, with what is under it.
        package var exclude: [String] = []
        /// Each directory's entries in byte order of their names.
        package var sorted = false

        package init(includeHidden: Bool = false, maxDepth: Int? = nil, oneFileSystem: Bool = false, exclude: [String] = [], sorted: Bool = false) {
            self.includeHidden = includeHidden
            self.maxDepth = maxDepth
            self.oneFileSystem = oneFileSystem
            self.exclude = exclude
            self.sorted = sorted
        }
    }

    /// A directory the walk opened, shared by its entries until the last of them is done with it.
    package final class OpenDirectory: Sendable {
        package let descriptor: FileDescriptor

        /// Directories open at once, all walks together: past `openLimit` a directory is listed and closed at
        /// once, and its entries are opened by their paths, so that however many entries wait in a reader's
        /// queue, each from a directory of its own, the walk never runs out of descriptors.
        private static let open = Atomic<Int>(0)
        static let openLimit = 256

        init(_ descriptor: FileDescriptor) {
            self.descriptor = descriptor
            Self.open.add(1, ordering: .relaxed)
        }

        deinit {
            descriptor.closeQuietly()
            Self.open.subtract(1, ordering: .relaxed)
        }

        static var isAtLimit: Bool { open.load(ordering: .relaxed) >= openLimit }
    }

    /// What the walk knows of an entry besides its path.
    package struct Entry {
        /// Why the entry could not be read (an unreadable directory, a failed `stat`), or `nil`.
        package var failure: Errno?
        /// Whether the directory's listing said a regular file (a reader need not ask again before opening it,
        /// though what it opens may have changed since).
        package var isRegularFile: Bool
        /// The directory the entry is in, open, where the walk holds it: the entry is its path's last component
        /// there. `nil` for the roots, and for entries of directories listed past `OpenDirectory.openLimit`.
        package var directory: OpenDirectory?

        package init(failure: Errno?, isRegularFile: Bool, directory: OpenDirectory? = nil) {
            self.failure = failure
            self.isRegularFile = isRegularFile
            self.directory = directory
        }
    }

    /// Calls `emit` with the path of every entry under `roots` (the roots included) and what the walk knows
    /// of it, until it returns `false`; a directory before what is in it. The path's bytes are valid for the
    /// call only. A directory that cannot be opened or listed comes a second time, with the failure.
    ///
    /// The corresponding C functions are `stat`, `open`, `openat`, `fdopendir`, `readdir` and `fstatat`.
    package static func walk(_ roots: [[UInt8]], options: Options, emit: (UnsafeRawBufferPointer, Entry) -> Bool) {
        func send(_ path: [UInt8], _ entry: Entry) -> Bool { path.withUnsafeBytes { emit($0, entry) } }
        // Sorted, the roots are too (in byte order, as `find`-like walks with a comparison sort them).
        for root in options.sorted ? roots.sorted(by: { $0.lexicographicallyPrecedes($1) }) : roots {
            // A root that is a link is followed: it is what a user named.
            var status = Glibc.stat()
            guard withNULTerminated(root, { path in fstatat(AT_FDCWD, path, &status, 0) }) == 0 else {
                if !send(root, Entry(failure: Errno.current, isRegularFile: false)) { return }
                continue
            }
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFDIR else {
                if !send(root, Entry(failure: nil, isRegularFile: kind == S_IFREG)) { return }
                continue
            }
            guard send(root, Entry(failure: nil, isRegularFile: false)) else { return }
            if let maxDepth = options.maxDepth, maxDepth <= 0 { continue }
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.open(PathBytes(root), .readOnly, options: [.directory])
            } catch {
                if !send(root, Entry(failure: error, isRegularFile: false)) { return }
                continue
            }
            let walker = Walker(options: options, device: status.st_dev)
            if !walker.descend(descriptor, path: root, level: 1, send: send) { return }
        }
    }

    /// One root's walk below it.
    private struct Walker {
        let options: Options
        let device: dev_t

        /// The entries of the directory open on `descriptor` (which this call closes; its path `path`, at
        /// `level` below the root), and below them; `false` when `emit` ended the walk.
        func descend(_ descriptor: FileDescriptor, path: [UInt8], level: Int, send: ([UInt8], Entry) -> Bool) -> Bool {
            var listing: [(name: [UInt8], type: UInt8)]
            do {
                listing = try descriptor.directoryListing()
            } catch {
                descriptor.closeQuietly()
                return send(path, Entry(failure: error, isRegularFile: false))
            }
            if options.sorted { listing.sort { $0.name.lexicographicallyPrecedes($1.name) } }
            // Past the limit of open directories this one closes now, and its entries are opened by their paths.
            let directory: OpenDirectory? = OpenDirectory.isAtLimit ? nil : OpenDirectory(descriptor)
            if directory == nil { descriptor.closeQuietly() }
            let base = path.last == UInt8(ascii: "/") ? path : path + [UInt8(ascii: "/")]
            for (name, listed) in listing {
                if !options.includeHidden && name.first == UInt8(ascii: ".") { continue }
                if let maxDepth = options.maxDepth, level > maxDepth { continue }
                if options.exclude.contains(where: { glob in withNULTerminated(name) { fnmatch(glob, $0, 0) == 0 } }) { continue }
                let child = base + name
                var type = listed
                if type == UInt8(DT_UNKNOWN) {
                    // A file system that does not say (some network and FUSE ones): ask, without following a link.
                    do throws(Errno) {
                        let status = try (directory?.descriptor ?? FileDescriptor.workingDirectory)
                            .status(of: directory == nil ? PathBytes(child) : PathBytes(name))
                        // Only a directory or a regular file matters here: anything else is typed by its reader.
                        type = status.type == .directory ? UInt8(DT_DIR) : status.type == .regular ? UInt8(DT_REG) : UInt8(DT_UNKNOWN)
                    } catch {
                        if !send(child, Entry(failure: error, isRegularFile: false)) { return false }
                        continue
                    }
                }
                guard type == UInt8(DT_DIR) else {
                    if !send(child, Entry(failure: nil, isRegularFile: type == UInt8(DT_REG), directory: directory)) { return false }
                    continue
                }
                if !send(child, Entry(failure: nil, isRegularFile: false, directory: directory)) { return false }
                if let maxDepth = options.maxDepth, level >= maxDepth { continue }
                let opened: FileDescriptor
                do {
                    if let directory {
                        opened = try directory.descriptor.openDirectory(PathBytes(name))
                    } else {
                        opened = try FileDescriptor.open(PathBytes(child), .readOnly, options: [.directory, .noFollow])
                    }
                } catch {
                    if !send(child, Entry(failure: error, isRegularFile: false)) { return false }
                    continue
                }
                if options.oneFileSystem {
                    // Another file system's directory is an entry, not entered (as `find -xdev`).
                    guard let status = try? opened.status(), status.deviceID.rawValue == UInt64(device) else {
                        opened.closeQuietly()
                        continue
                    }
                }
                if !descend(opened, path: child, level: level + 1, send: send) { return false }
            }
            return true
        }
    }
}
