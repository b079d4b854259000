public import UniformTypeIdentifiers
public import SystemPackage

/// An item whose backup exclusion could not be read or changed, with the path at fault and why.
public struct BackupError: LocatedError {
    /// The path as given, or where inside a container the problem is.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Why: compare with the static members (`error.reason.kind == .notInContainer`); new reasons may be added.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The kinds: `ErrorKind`, the known ones in its extension below.
        public typealias Kind = ErrorKind<BackupError>

        public let kind: Kind
        public let errno: Errno?
        public let detail: String?
        /// For `.registry`.
        public let registryError: RegistryError?

        private init(_ kind: Kind, errno: Errno? = nil, detail: String? = nil, registryError: RegistryError? = nil) {
            self.kind = kind
            self.errno = errno
            self.detail = detail
            self.registryError = registryError
        }

        public static func system(_ errno: Errno, while operation: String? = nil) -> Reason { Reason(.system, errno: errno, detail: operation) }
        public static let notInContainer = Reason(.notInContainer)
        public static func notAnItem(_ what: String) -> Reason { Reason(.notAnItem, detail: what) }
        public static let symbolicLink = Reason(.symbolicLink)
        public static let notAFileOrDirectory = Reason(.notAFileOrDirectory)
        public static let extendedAttributesUnsupported = Reason(.extendedAttributesUnsupported, errno: .notSupported)
        public static let neverBackedUp = Reason(.neverBackedUp)
        public static let changed = Reason(.changed)
        public static func registry(_ error: RegistryError) -> Reason { Reason(.registry, registryError: error) }
        public static let hardLinked = Reason(.hardLinked)

        public var description: String {
            switch kind {
            case .system: (detail.map { $0 + ": " } ?? "") + (errno?.description ?? "system error")
            case .notInContainer: "not inside a registered app's container; only items of a container are backed up by uti"
            case .notAnItem: "refused: \(detail ?? "not an item of a container")"
            case .symbolicLink: "a symbolic link; refused (name what it points to)"
            case .notAFileOrDirectory: "neither a file nor a directory; only files and directories carry the exclusion"
            case .extendedAttributesUnsupported:
                "the file system does not support user extended attributes (user.*), where the exclusion is kept; "
                    + "move the item to one that does (ext4, XFS, Btrfs, tmpfs do)"
            case .neverBackedUp: "never backed up (Library/Caches/ and tmp/ are not part of a backup); nothing to include"
            case .changed: "changed while it was looked up; nothing done"
            case .registry: registryError?.description ?? "the registry cannot be read"
            case .hardLinked:
                "refused: the file has other hard links, which may be outside the container, and the attribute would change them too (copy it to make it the container's own)"
            default: kind.rawValue
            }
        }
    }
}

extension ErrorKind where Domain == BackupError {
    /// A system call failed.
    public static let system: Self = "system"
    /// The path is not inside a registered app's container (found by the directories it is in,
    /// not by its spelling).
    public static let notInContainer: Self = "not-in-container"
    /// The path is a container itself, or a registered app's bundle.
    public static let notAnItem: Self = "not-an-item"
    /// The path is a symbolic link: extended attributes belong to what it points to.
    public static let symbolicLink: Self = "symbolic-link"
    /// Neither a regular file nor a directory (a FIFO, a socket, a device).
    public static let notAFileOrDirectory: Self = "not-a-file-or-directory"
    /// The file system holding the item keeps no user extended attributes (`user.*`).
    public static let extendedAttributesUnsupported: Self = "extended-attributes-unsupported"
    /// `Library/Caches/` and `tmp/` are never backed up; they cannot be included.
    public static let neverBackedUp: Self = "never-backed-up"
    /// The item changed while it was looked up (renamed, replaced).
    public static let changed: Self = "changed"
    /// The registry could not be read.
    public static let registry: Self = "registry"
    /// A regular file with more than one link: the attribute would land on every name it has,
    /// inside the container and out.
    public static let hardLinked: Self = "hard-linked"
}
