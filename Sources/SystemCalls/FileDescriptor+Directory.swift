package import SystemPackage
internal import CExtendedAttributes
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// The names in the directory open on this descriptor (not `.` or `..`), as the bytes they are, in the
    /// order the file system lists them. The descriptor stays open.
    ///
    /// The corresponding system calls are `lseek` and `getdents64` (`directoryListing`).
    package func directoryEntries() throws(Errno) -> [[UInt8]] {
        try directoryListing().map(\.name)
    }

    /// The names in the directory open on this descriptor (not `.` or `..`), each with the kind the file system
    /// lists it as (`d_type`: `DT_REG`, `DT_DIR`, `DT_LNK` ..., `DT_UNKNOWN` where it does not say), in the
    /// order it lists them, from the start whatever the descriptor's position. The descriptor stays open.
    ///
    /// The corresponding system calls are `lseek` and `getdents64`, on this descriptor: a directory stream
    /// (`fdopendir` on a duplicate, then `rewinddir` and `closedir`) cost five calls more per directory, a
    /// fifth of a tree's classification's calls.
    package func directoryListing() throws(Errno) -> [(name: [UInt8], type: UInt8)] {
        // To the start, as `rewinddir` goes (and, like it, on regardless: a file system that cannot seek a
        // directory lists it from where it is, which for a descriptor just opened is the start).
        _ = Glibc.lseek(rawValue, 0, SEEK_SET)
        var entries: [(name: [UInt8], type: UInt8)] = []
        let size = 32 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = try retryingOnInterrupt { uti_directory_entries(rawValue, buffer.baseAddress, size) }
            guard count > 0 else { break }
            // Each record: inode (8 bytes), offset (8), record length (2), type (1), then the name and its NUL.
            var offset = 0
            while offset + 19 < count {
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self))
                guard length > 19, offset + length <= count else { throw .ioError }
                let type = buffer[offset + 18]
                let field = UnsafeRawBufferPointer(rebasing: buffer[(offset + 19)..<(offset + length)])
                let name = Array(field.prefix(while: { $0 != 0 }))
                if name != [0x2E] && name != [0x2E, 0x2E] { entries.append((name, type)) }
                offset += length
            }
        }
        return entries
    }

    /// The status of `name` in this directory, without following a symbolic link unless asked.
    ///
    /// The corresponding C function is `fstatat`.
    package func status(of name: some SystemPath, followingLinks: Bool = false) throws(Errno) -> Stat {
        try name.withSystemPath { (pointer) throws(Errno) -> Stat in
            try Stat(pointer, relativeTo: self, flags: followingLinks ? [] : .symlinkNoFollow)
        }
    }

    /// Makes the directory `name` in this directory.
    ///
    /// The corresponding C function is `mkdirat`.
    package func makeDirectory(_ name: some SystemPath, permissions: FilePermissions) throws(Errno) {
        FaultInjection.step()
        _ = try name.withSystemPath { (pointer) throws(Errno) -> CInt in
            try retryingOnInterrupt { mkdirat(rawValue, pointer, permissions.rawValue) }
        }
    }

    /// Opens the directory `name` in this directory, refusing a symbolic link or anything but a directory
    /// (`ELOOP`, `ENOTDIR`).
    package func openDirectory(_ name: some SystemPath) throws(Errno) -> FileDescriptor {
        try FileDescriptor.open(name, relativeTo: self, .readOnly, options: [.directory, .noFollow])
    }

    /// Opens the directory `name` in this directory, making it first (with `permissions`) when it is not there.
    package func openOrMakeDirectory(_ name: some SystemPath, permissions: FilePermissions) throws(Errno) -> FileDescriptor {
        do {
            try makeDirectory(name, permissions: permissions)
        } catch .fileExists {
            // There already: opening it checks that it is a directory and not a link.
        }
        return try openDirectory(name)
    }

    /// Gives the file `name` in this directory the further name `newName` in `directory`; fails with
    /// `EEXIST` rather than replace anything.
    ///
    /// The corresponding C function is `linkat`.
    package func link(_ name: some SystemPath, to directory: FileDescriptor, as newName: some SystemPath) throws(Errno) {
        FaultInjection.step()
        _ = try name.withSystemPath { (old) throws(Errno) -> CInt in
            try newName.withSystemPath { (new) throws(Errno) -> CInt in
                try retryingOnInterrupt { linkat(rawValue, old, directory.rawValue, new, 0) }
            }
        }
    }

    /// Gives the open file `file` the name `newName` in this directory (again, after it was unlinked);
    /// fails with `EEXIST` rather than replace anything. Through `/proc/self/fd`, which needs no privilege
    /// (unlike `AT_EMPTY_PATH`); `ENOENT` where `/proc` is not mounted.
    ///
    /// The corresponding C function is `linkat` with `AT_SYMLINK_FOLLOW`.
    package func link(openFile file: FileDescriptor, as newName: some SystemPath) throws(Errno) {
        FaultInjection.step()
        _ = try "/proc/self/fd/\(file.rawValue)".withSystemPath { (old) throws(Errno) -> CInt in
            try newName.withSystemPath { (new) throws(Errno) -> CInt in
                try retryingOnInterrupt { linkat(AT_FDCWD, old, rawValue, new, AT_SYMLINK_FOLLOW) }
            }
        }
    }

    /// Renames `name` in this directory to `newName` in `directory`, replacing what is there.
    ///
    /// The corresponding C function is `renameat`.
    package func rename(_ name: some SystemPath, to directory: FileDescriptor, as newName: some SystemPath) throws(Errno) {
        FaultInjection.step()
        _ = try name.withSystemPath { (old) throws(Errno) -> CInt in
            try newName.withSystemPath { (new) throws(Errno) -> CInt in
                try retryingOnInterrupt { renameat(rawValue, old, directory.rawValue, new) }
            }
        }
    }

    /// Removes the name `name` from this directory: a file or a link, or (with `directory`) an empty directory.
    ///
    /// The corresponding C function is `unlinkat`.
    package func remove(_ name: some SystemPath, directory: Bool = false) throws(Errno) {
        FaultInjection.step()
        _ = try name.withSystemPath { (pointer) throws(Errno) -> CInt in
            try retryingOnInterrupt { unlinkat(rawValue, pointer, directory ? AT_REMOVEDIR : 0) }
        }
    }

    /// The target of the symbolic link `name` in this directory, as bytes.
    ///
    /// The corresponding C function is `readlinkat`.
    package func linkTarget(of name: some SystemPath) throws(Errno) -> [UInt8] {
        // Read into scratch memory that is not cleared first (a link's target is a few bytes of PATH_MAX's).
        let target = name.withSystemPathUnchecked { pointer in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer -> [UInt8]? in
                guard let base = buffer.baseAddress else { return nil }
                let length = retryingInterrupted { readlinkat(rawValue, pointer, base, buffer.count) }
                guard length >= 0 else { return nil }
                return Array(UnsafeRawBufferPointer(start: base, count: length))
            }
        }
        guard let target else { throw Errno(rawValue: errno) }
        return target
    }

    /// Removes `name` from this directory and, when it is a directory, everything in it, never leaving the
    /// tree: a `TreeWalk` (every directory opened relative to its parent with `O_NOFOLLOW | O_DIRECTORY`
    /// and checked to be the one examined, every entry examined with `fstatat(AT_SYMLINK_NOFOLLOW)`),
    /// entries removed with `unlinkat` on their directory's descriptor, so a symbolic link is removed as a
    /// link and never followed, even when one replaces a directory while the removal runs. Any depth, with
    /// a bounded number of open descriptors. It stays on the mount it starts on: a directory mounted inside
    /// (a bind mount too) is reported (`EXDEV`), never emptied.
    ///
    /// A directory its owner made read-only or unreadable (Go's module cache makes its directories 0555)
    /// is made owner-accessible (`u+rwx`) before it is emptied, as `rm -rf` run by the owner would need;
    /// it is about to go, and nothing else's permissions change. A name that is not there is not an error.
    /// What cannot be removed (a file of another user's in a directory the process may not write, a mount
    /// point) is left, with everything the removal could not reach because of it; the rest is removed.
    ///
    /// - Throws: The first failure, with the path (relative to this directory) where it happened.
    package func removeTree(_ name: [UInt8]) throws(TreeRemovalError) {
        var first: TreeRemovalError?
        var walk = TreeWalk()
        walk.stayOnFileSystem = true
        walk.openDirectory = { parent, name throws(Errno) in try parent.openDirectoryToEmpty(name) }
        walk.walk(name, in: self, path: name, visit: { entry in
            guard entry.status.type != .directory else { return .proceed }
            do throws(Errno) {
                try entry.parent.remove(PathBytes(entry.name))
            } catch .noSuchFileOrDirectory {
            } catch {
                first = first ?? TreeRemovalError(path: entry.path, errno: error)
            }
            return .proceed
        }, leave: { entry, _ in
            do throws(Errno) {
                try entry.parent.remove(PathBytes(entry.name), directory: true)
            } catch .noSuchFileOrDirectory {
            } catch .directoryNotEmpty where first != nil {
                // What failed inside is the reason, already recorded.
            } catch {
                first = first ?? TreeRemovalError(path: entry.path, errno: error)
            }
            return true
        }, fail: { path, error, isStart in
            if !(error == .noSuchFileOrDirectory && isStart) {
                first = first ?? TreeRemovalError(path: path, errno: error)
            }
            return true
        })
        if let first { throw first }
    }

    /// Opens the directory `name` in this directory to empty it: as `openDirectory`, and when its owner
    /// (this process's user) left it without read, write or search permission for itself, gives them back
    /// first, through an `O_PATH` handle on that very directory (never its name again).
    package func openDirectoryToEmpty(_ name: [UInt8]) throws(Errno) -> FileDescriptor {
        let directory: FileDescriptor
        do {
            directory = try openDirectory(PathBytes(name))
        } catch .permissionDenied {
            let handle = try FileDescriptor.open(PathBytes(name), relativeTo: self, .readOnly, options: [.pathOnly, .noFollow, .directory])
            defer { handle.closeQuietly() }
            let status = try handle.status()
            guard status.userID.rawValue == geteuid() else { throw .permissionDenied }
            let magic = "/proc/self/fd/\(handle.rawValue)"
            _ = try magic.withSystemPath { (pointer) throws(Errno) -> CInt in
                try retryingOnInterrupt { chmod(pointer, (status.permissions.rawValue | 0o700) & 0o7777) }
            }
            return try FileDescriptor.open(magic, .readOnly, options: [.directory])
        }
        if let status = try? directory.status(), status.permissions.rawValue & 0o700 != 0o700, status.userID.rawValue == geteuid() {
            do {
                try directory.setPermissions(FilePermissions(rawValue: status.permissions.rawValue | 0o700))
            } catch {
                directory.closeQuietly()
                throw error
            }
        }
        return directory
    }
}

/// A tree that could not be removed whole: where (relative to the directory it was removed from) and why.
package struct TreeRemovalError: Error, Hashable, Sendable {
    package var path: [UInt8]
    package var errno: Errno
}

extension FileDescriptor {
    /// The working directory, for the `*at` calls above with a path relative to it (or absolute).
    /// Not a descriptor to read from or close.
    package static let workingDirectory = FileDescriptor(rawValue: AT_FDCWD)
}

extension FileDescriptor {
    /// Opens the directory at `path`, making it and any missing directories above it (`mkdir -p`) with
    /// `permissions` when asked. Links in `path` are followed: it is a path someone chose (a registry root),
    /// not one inside a tree this package guards; inside such a tree, use `openDirectory(_:)` per component.
    package static func openDirectory(atPath path: String, making permissions: FilePermissions? = nil) throws(Errno) -> FileDescriptor {
        if let permissions {
            var prefix = path.hasPrefix("/") ? "" : "."
            for component in path.split(separator: "/") {
                prefix += "/" + component
                do {
                    _ = try prefix.withSystemPath { (pointer) throws(Errno) -> CInt in
                        try retryingOnInterrupt { mkdir(pointer, permissions.rawValue) }
                    }
                } catch .fileExists {
                    continue
                }
            }
        }
        return try FileDescriptor.open(path, .readOnly, options: [.directory])
    }
}
