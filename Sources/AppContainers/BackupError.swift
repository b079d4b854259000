public import UniformTypeIdentifiers
public import SystemPackage

/// The family of `BackupError`: an item whose backup exclusion could not be read or changed.
/// A reason may carry the `RegistryError` it comes from.
public enum BackupErrorDomain: ErrorDomain {
    /// A backup error's cause: the `RegistryError` it comes from.
    public typealias Cause = RegistryError
}

/// An item whose backup exclusion could not be read or changed: the path as given, or where inside a
/// container the problem is, and why (compare by kind: `error.kind == .notInContainer`; new kinds may be added).
public typealias BackupError = LocatedError<BackupErrorDomain>

/// The kinds of `BackupError`.
extension ErrorKind where Domain == BackupErrorDomain {
    /// A system call failed (`detail`: what was being done).
    public static let system = Self("system") { $0.systemMessage }
    /// The path is not inside a registered app's container (found by the directories it is in,
    /// not by its spelling).
    public static let notInContainer = Self("not-in-container") { _ in
        "not inside a registered app's container; only items of a container are backed up by uti"
    }
    /// The path is a container itself, or a registered app's bundle (`detail`: which).
    public static let notAnItem = Self("not-an-item") { "refused: \($0.detail ?? "not an item of a container")" }
    /// The path is a symbolic link: extended attributes belong to what it points to.
    public static let symbolicLink = Self("symbolic-link") { _ in "a symbolic link; refused (name what it points to)" }
    /// Neither a regular file nor a directory (a FIFO, a socket, a device).
    public static let notAFileOrDirectory = Self("not-a-file-or-directory") { _ in
        "neither a file nor a directory; only files and directories carry the exclusion"
    }
    /// The file system holding the item keeps no user extended attributes (`user.*`).
    public static let extendedAttributesUnsupported = Self("extended-attributes-unsupported") { _ in
        "the file system does not support user extended attributes (user.*), where the exclusion is kept; "
            + "move the item to one that does (ext4, XFS, Btrfs, tmpfs do)"
    }
    /// `Library/Caches/` and `tmp/` are never backed up; they cannot be included.
    public static let neverBackedUp = Self("never-backed-up") { _ in
        "never backed up (Library/Caches/ and tmp/ are not part of a backup); nothing to include"
    }
    /// The item changed while it was looked up (renamed, replaced).
    public static let changed = Self("changed") { _ in "changed while it was looked up; nothing done" }
    /// The registry could not be read (`cause`: why).
    public static let registry = Self("registry") { $0.cause?.description ?? "the registry cannot be read" }
    /// A regular file with more than one link: the attribute would land on every name it has,
    /// inside the container and out.
    public static let hardLinked = Self("hard-linked") { _ in
        "refused: the file has other hard links, which may be outside the container, and the attribute would change them too (copy it to make it the container's own)"
    }
}

/// The reasons of `BackupError`, one for each kind.
extension ErrorReason where Domain == BackupErrorDomain {
    /// A system call failed with `errno` (`.system`) while doing `operation`, kept as `detail`.
    public static func system(_ errno: Errno, while operation: String? = nil) -> Self { Self(.system, errno: errno, detail: operation) }
    /// The path is not inside a registered app's container (`.notInContainer`).
    public static let notInContainer = Self(.notInContainer)
    /// The path is a container itself or a registered app's bundle (`.notAnItem`); `detail` says which, `what`.
    public static func notAnItem(_ what: String) -> Self { Self(.notAnItem, detail: what) }
    /// The path is a symbolic link (`.symbolicLink`).
    public static let symbolicLink = Self(.symbolicLink)
    /// The item is neither a regular file nor a directory (`.notAFileOrDirectory`).
    public static let notAFileOrDirectory = Self(.notAFileOrDirectory)
    /// The file system keeps no user extended attributes (`.extendedAttributesUnsupported`, with `errno` `ENOTSUP`).
    public static let extendedAttributesUnsupported = Self(.extendedAttributesUnsupported, errno: .notSupported)
    /// The item is `Library/Caches/` or `tmp/`, or inside one, which are never backed up (`.neverBackedUp`).
    public static let neverBackedUp = Self(.neverBackedUp)
    /// The item changed while it was looked up (`.changed`).
    public static let changed = Self(.changed)
    /// The registry could not be read (`.registry`); `cause` carries `error`.
    public static func registry(_ error: RegistryError) -> Self { Self(.registry, cause: error) }
    /// The file has other hard links, which the attribute would change too (`.hardLinked`).
    public static let hardLinked = Self(.hardLinked)
}
