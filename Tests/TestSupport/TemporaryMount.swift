import Foundation

/// A small file system mounted for one test, unmounted (lazily) when the value goes: a tmpfs of a known size
/// for a full disk or a free-space goal, a ramfs for a file system that keeps no user extended attributes.
/// Needs root; a test checks `Tools.canMountTmpfs` or `Tools.canMountRamfs` first.
public final class TemporaryMount {
    public enum Kind: Sendable {
        /// A tmpfs of `size` (mount's syntax: `256k`, `8m`).
        case tmpfs(size: String)
        /// A ramfs (no size, no user.* attributes).
        case ramfs
    }

    /// The mount point.
    public let path: String
    /// Kept so that the directory is removed only after the file system is unmounted.
    private let directory: TemporaryDirectory

    /// Mounts a file system of `kind` on a new directory `name` of `directory`, private to its owner (0700).
    public init(_ kind: Kind, in directory: TemporaryDirectory, name: String = "mounted") throws {
        self.directory = directory
        path = try directory.makeDirectory(name)
        let arguments: [String]
        switch kind {
        case .tmpfs(let size): arguments = ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path]
        case .ramfs: arguments = ["-t", "ramfs", "-o", "mode=0700", "ramfs", path]
        }
        guard Tools.run("/bin/mount", arguments) else { throw Failure(message: "mount \(arguments.joined(separator: " ")) failed") }
    }

    deinit { _ = Tools.run("/bin/umount", ["-l", path]) }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
