public import FileIdentification
internal import SystemCalls
internal import SystemPackage

/// Items of an app's container left out of its backup: the counterpart of `NSURLIsExcludedFromBackupKey`.
///
/// The exclusion is kept on the item itself, as the extended attribute `user.uti.exclude-from-backup`
/// with the value `1`, so it goes with the item when it is renamed or moved within its file system (and
/// when it is copied by tools that keep extended attributes). An excluded directory also gets a
/// `CACHEDIR.TAG` (see `CacheDirectoryTag`), so that backup tools that know nothing of uti skip it
/// (`tar --exclude-caches-all`, borg and restic `--exclude-caches`); those tools honour only directory
/// tags, so an excluded *file* is left out by `Registry.backupItems` and by tools reading its list, not
/// by tar on its own.
///
/// Paths are a user's: each is resolved to an item of a registered container by the directories it is
/// in (see `Registry.containerItem(at:)`), never by its spelling; anything else is refused, as are a
/// container itself, a registered app's bundle, symbolic links, and what is neither a file nor a directory.
public struct BackupExclusion: Sendable {
    /// The registry whose containers' items are excluded and included.
    public let registry: Registry

    /// Backup exclusion for the items of the containers of `registry`.
    public init(registry: Registry) {
        self.registry = registry
    }

    /// The extended attribute that marks an item excluded from backup.
    public static let attributeName = "user.uti.exclude-from-backup"
    /// Its value.
    public static let attributeValue = Array("1".utf8)

    /// What `exclude` or `include` did.
    public struct Outcome: Sendable, Hashable {
        /// The item's full path.
        public var path: String
        /// Its path inside its container (`Documents/Scratch`).
        public var relativePath: RawFilePath
        /// The app whose container holds the item.
        public var bundleIdentifier: String
        /// Whether the item is a directory.
        public var isDirectory: Bool
        /// Whether the attribute changed (`false`: it already was as asked).
        public var changed: Bool
        /// For a directory: whether a `CACHEDIR.TAG` is there after the change (uti's or another's).
        public var tagged: Bool
    }

    /// Refuses a regular file with other hard links: an extended attribute belongs to the
    /// inode, so setting one would change every name of the file, some perhaps outside the container
    /// (someone hard-linked a file of theirs into it).
    private static func refuseHardLinked(_ item: borrowing ContainerItem) throws(BackupError) {
        guard item.status.type != .regular || item.status.linkCount <= 1 else { throw BackupError(path: item.path, reason: .hardLinked) }
    }

    /// Whether an item's attribute says it is excluded; an item on a file system without user extended
    /// attributes is not.
    static func isExcluded(_ file: FileDescriptor) -> Bool {
        (try? file.extendedAttribute(attributeName)) == attributeValue
    }

    /// Leaves the item at `path` out of backups: sets the attribute and, on a directory, writes a
    /// `CACHEDIR.TAG` into it (unless one is there).
    ///
    /// - Throws: `BackupError`: a path outside a registered container (`.notInContainer`), a file system
    ///   without user extended attributes (`.extendedAttributesUnsupported`), and the refusals above.
    @discardableResult
    public func exclude(_ path: RawFilePath) throws(BackupError) -> Outcome {
        let item = try registry.containerItem(at: path)
        try Self.refuseHardLinked(item)
        let isDirectory = item.status.type == .directory
        let changed = !Self.isExcluded(item.file)
        do throws(Errno) {
            if changed { try item.file.setExtendedAttribute(Self.attributeName, to: Self.attributeValue) }
        } catch .notSupported {
            throw BackupError(path: item.path, reason: .extendedAttributesUnsupported)
        } catch {
            throw BackupError(path: item.path, reason: .system(error, while: "setting \(Self.attributeName)"))
        }
        var tagged = false
        if isDirectory {
            do throws(Errno) {
                tagged = try CacheDirectoryTag.write(in: item.file)
            } catch {
                throw BackupError(path: item.path + "/" + CacheDirectoryTag.name, reason: .system(error, while: "writing the tag"))
            }
        }
        return Outcome(path: item.path, relativePath: item.relativePath, bundleIdentifier: item.app.bundleIdentifier,
                       isDirectory: isDirectory, changed: changed, tagged: tagged)
    }

    /// Puts the item at `path` back into backups: removes the attribute and, from a directory, the
    /// `CACHEDIR.TAG` uti wrote (a tag someone else wrote stays, and `tagged` says so). An item inside an
    /// excluded directory stays out with it. `Library/Caches/` and `tmp/` are refused: never backed up.
    @discardableResult
    public func include(_ path: RawFilePath) throws(BackupError) -> Outcome {
        let item = try registry.containerItem(at: path)
        try Self.refuseHardLinked(item)
        let relative = item.relativePath.bytes
        if relative == Array("Library/Caches".utf8) || relative == Array("tmp".utf8) {
            throw BackupError(path: item.path, reason: .neverBackedUp)
        }
        let isDirectory = item.status.type == .directory
        let changed: Bool
        do throws(Errno) {
            changed = try item.file.removeExtendedAttribute(Self.attributeName)
        } catch .notSupported {
            // Nothing can have been set there: the item is not excluded by an attribute.
            changed = false
        } catch {
            throw BackupError(path: item.path, reason: .system(error, while: "removing \(Self.attributeName)"))
        }
        var tagged = false
        if isDirectory {
            do throws(Errno) {
                try CacheDirectoryTag.removeOwn(in: item.file)
            } catch {
                throw BackupError(path: item.path + "/" + CacheDirectoryTag.name, reason: .system(error, while: "removing the tag"))
            }
            tagged = CacheDirectoryTag.state(in: item.file) != .none
        }
        return Outcome(path: item.path, relativePath: item.relativePath, bundleIdentifier: item.app.bundleIdentifier,
                       isDirectory: isDirectory, changed: changed, tagged: tagged)
    }

    /// Whether the item at `path` is excluded by its own attribute (not by a directory above it).
    public func isExcluded(_ path: RawFilePath) throws(BackupError) -> Bool {
        let item = try registry.containerItem(at: path)
        return Self.isExcluded(item.file)
    }
}
