public import FileIdentification
internal import SystemCalls
internal import SystemPackage
public import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// What one iCloud container holds, as the iCloud settings show it to the user: each document under
/// `Documents/` (and its subdirectories) on its own, one the user may delete, and everything else as the
/// app's data, one entry.
public struct UbiquityUsage: Sendable, Hashable {
    /// One document: a file, or a package (a directory whose type conforms to `com.apple.package`, a Keynote
    /// presentation, an `.rtfd`), which counts as one item with everything inside it.
    public struct Document: Sendable, Hashable {
        /// Its path in the container: `Documents/Trip/Notes.txt`.
        public var path: String
        /// Its type, by its name and its contents; `public.symlink` for a symbolic link.
        public var type: UTType
        /// Its size in bytes; a package's, the sum of the files inside it.
        public var size: Int
        /// Whether it is a package: a directory counted as one document.
        public var isPackage: Bool
    }

    /// The container's identifier (`iCloud.com.example.app`).
    public var container: String
    /// Its directory.
    public var path: String
    /// The documents, in the order of their paths' bytes.
    public var documents: [Document]
    /// The bytes of every file outside `Documents/`: the app's data.
    public var dataSize: Int
    /// What could not be read, with why (the rest is counted).
    public var unreadable: [String]

    /// Documents and data together.
    public var totalSize: Int { documents.reduce(dataSize) { $0 + $1.size } }
}

extension Registry {
    /// The storage view of each of `bundleIdentifier`'s iCloud containers, the primary first (see
    /// `UbiquityUsage`). The containers are walked through directory descriptors, never following a link; a
    /// symbolic link under `Documents/` is a document of its own (`public.symlink`, its own size).
    /// - Throws: `RegistryError` for an app not registered, or one that names no iCloud container.
    public func ubiquityUsage(for bundleIdentifier: String, identifier: FileIdentifier = FileIdentifier()) throws(RegistryError) -> [UbiquityUsage] {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        let app = try app(bundleIdentifier)
        guard !app.manifest.ubiquityContainers.isEmpty else {
            throw RegistryError(path: statePath, reason: .noUbiquityContainer(app.bundleIdentifier))
        }
        return app.manifest.ubiquityContainers.map { container in
            Self.usage(of: container, at: sharedSpacePath(.ubiquityContainer, container), identifier: identifier)
        }
    }

    static func usage(of container: String, at path: String, identifier: FileIdentifier) -> UbiquityUsage {
        var usage = UbiquityUsage(container: container, path: path, documents: [], dataSize: 0, unreadable: [])
        let (parent, name) = AtomicFile.split(path)
        guard let directory = try? FileDescriptor.open(parent, .readOnly, options: [.directory]) else {
            usage.unreadable.append(path + ": cannot be opened")
            return usage
        }
        defer { directory.closeQuietly() }
        let start = Array(path.utf8)
        let documents = start + Array("/Documents".utf8)
        var walk = TreeWalk()
        walk.sorted = true
        walk.walk(Array(name.utf8), in: directory, path: start, visit: { entry in
            let entryPath = entry.path
            let inDocuments = entryPath.count > documents.count && entryPath.starts(with: documents + [UInt8(ascii: "/")])
            guard inDocuments else {
                if entry.status.type == .regular { usage.dataSize += Int(entry.status.size) }
                return .proceed
            }
            let relative = String(decoding: entryPath.dropFirst(start.count + 1), as: UTF8.self)
            switch entry.status.type {
            case .regular:
                let type = Self.identify(entry, as: [.nonBlocking, .noFollow], identifier: identifier) ?? .data
                usage.documents.append(.init(path: relative, type: type, size: Int(entry.status.size), isPackage: false))
                return .proceed
            case .directory:
                guard let type = Self.identify(entry, as: [.directory, .noFollow], identifier: identifier), type.conforms(to: .package) else {
                    return .proceed
                }
                usage.documents.append(.init(path: relative, type: type, size: Self.treeSize(entry), isPackage: true))
                return .skipContents
            case .symbolicLink:
                usage.documents.append(.init(path: relative, type: .symbolicLink, size: Int(entry.status.size), isPackage: false))
                return .proceed
            default:
                return .proceed
            }
        }, fail: { failed, error, _ in
            usage.unreadable.append(RawFilePath(bytes: failed).escaped + ": \(error)")
            return true
        })
        return usage
    }

    /// The type of the entry, opened as `options` say relative to its directory (never followed, never
    /// blocking), by its name and its content.
    private static func identify(_ entry: TreeWalkEntry, as options: FileDescriptor.OpenOptions, identifier: FileIdentifier) -> UTType? {
        guard let file = try? FileDescriptor.open(PathBytes(entry.name), relativeTo: entry.parent, .readOnly, options: options) else { return nil }
        defer { file.closeQuietly() }
        return try? identifier.identify(contentsOf: file, name: RawFilePath(bytes: entry.name)).type
    }

    /// The bytes of the regular files below a directory entry.
    private static func treeSize(_ entry: TreeWalkEntry) -> Int {
        var total = 0
        TreeWalk().walk(entry.name, in: entry.parent, path: entry.path, visit: { inner in
            if inner.status.type == .regular { total += Int(inner.status.size) }
            return .proceed
        }, fail: { _, _, _ in true })
        return total
    }
}
