#if canImport(Glibc)
import Glibc
#endif

/// File-system helpers for the registry: every error names the path and the system's reason.
enum Files {
    static func failure(_ path: String) -> RegistryError {
        RegistryError(path: path, message: String(cString: strerror(errno)))
    }

    /// `mkdir -p`, with mode 0755.
    static func makeDirectories(_ path: String) throws(RegistryError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw failure(prefix) }
        }
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw RegistryError(path: path, message: "exists and is not a directory")
        }
    }

    /// Replaces `path` with `bytes`: a temporary file beside it, `fsync`, `rename`, `fsync` of the directory.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(RegistryError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw failure(temporary) }
        do throws(RegistryError) {
            try writeAll(bytes, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw failure(temporary) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        syncDirectory(of: path)
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(RegistryError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(path)
            }
            offset += written
        }
    }

    static func syncDirectory(of path: String) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    /// `rm -r`, never following a symbolic link out of the tree.
    static func removeTree(_ path: String) throws(RegistryError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw failure(path)
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            guard let directory = opendir(path) else { throw failure(path) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            chmod(path, 0o755)
            for name in names { try removeTree(path + "/" + name) }
            guard rmdir(path) == 0 else { throw failure(path) }
        } else {
            guard unlink(path) == 0 else { throw failure(path) }
        }
    }
}
