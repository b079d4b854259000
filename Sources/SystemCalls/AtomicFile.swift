package import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Replacing a file's contents so that every reader, and every crash, sees the old contents or the new,
/// never a mixture.
package enum AtomicFile {
    /// The suffix of the temporaries `replace` writes (`NAME.PID.tmp`, see `temporaryName`).
    package static let temporarySuffix = ".tmp"

    /// The temporary `replace` writes beside `name` in this process: `NAME.PID.tmp`.
    package static func temporaryName(for name: String) -> String {
        "\(name).\(getpid())\(temporarySuffix)"
    }

    /// Replaces `name` in `directory` with `bytes`: a temporary beside it made with
    /// `O_CREAT | O_EXCL | O_NOFOLLOW` (a link planted under its name is never followed), written whole,
    /// given `permissions` and `fsync`ed, renamed over `name`, and the directory `fsync`ed, so that the
    /// new name is durable too. On failure the temporary is removed and `name` is untouched.
    package static func replace(_ name: String, in directory: FileDescriptor, with bytes: some Collection<UInt8>,
                                permissions: FilePermissions) throws(Errno) {
        let temporary = temporaryName(for: name)
        // A temporary left by an earlier process with this pid (a crash) is not ours to keep.
        try? directory.remove(temporary)
        let file = try FileDescriptor.open(temporary, relativeTo: directory, .writeOnly,
                                           options: [.create, .exclusiveCreate, .noFollow], permissions: permissions)
        do throws(Errno) {
            do throws(Errno) {
                try file.writeAll(bytes)
                // The mode given to open is masked by the umask; the file must have exactly `permissions`.
                try file.setPermissions(permissions)
                try file.sync()
            } catch {
                file.closeQuietly()
                throw error
            }
            try file.closeChecked()
            try directory.rename(temporary, to: directory, as: name)
        } catch {
            try? directory.remove(temporary)
            throw error
        }
        try directory.sync()
    }

    /// Replaces the file at `path` (its directory must exist); see `replace(_:in:with:permissions:)`.
    package static func replace(atPath path: String, with bytes: some Collection<UInt8>,
                                permissions: FilePermissions) throws(Errno) {
        let (parent, name) = split(path)
        let directory = try FileDescriptor.open(parent, .readOnly, options: [.directory])
        defer { directory.closeQuietly() }
        try replace(name, in: directory, with: bytes, permissions: permissions)
    }

    /// A path's directory and last component: `a/b/c` is (`a/b`, `c`), `c` is (`.`, `c`), `/c` is (`/`, `c`).
    package static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
