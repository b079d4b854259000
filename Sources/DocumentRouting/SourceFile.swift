internal import AppContainers
internal import FileIdentification
internal import SystemCalls
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A file about to be routed, open: the descriptor of the directory it is in, its name there and the
/// file's own descriptor. Identification reads that descriptor, delivery copies from it and a move
/// removes the name through the directory's descriptor: once a `SourceFile` is made, no path string is
/// looked up again, so a directory on the way swapped for a symbolic link cannot redirect what is routed
/// or removed.
struct SourceFile {
    /// The directory the file is in (held with `O_PATH` when this opened it).
    let directory: FileDescriptor
    private let ownsDirectory: Bool
    /// The file's name in `directory`.
    let name: [UInt8]
    /// The file, open for reading (without blocking, never as a controlling terminal).
    let descriptor: FileDescriptor
    /// The path to show in messages and outcomes.
    let shown: RawFilePath
    /// Whether the name was a symbolic link followed to the file (`-L`); a move then removes the link.
    let followsLink: Bool

    /// Opens the file `name` in the directory open on `directory` (which stays the caller's), without
    /// following a symbolic link unless `followingLinks`; with `expected`, checks that it is that file
    /// (device and inode), as a walk examined it.
    ///
    /// - Throws: `DeliveryError` naming `shown`: a link not followed (`.symbolicLink`), not a regular file,
    ///   another file than `expected` (`.sourceChanged`), or the system's error.
    init(_ name: [UInt8], in directory: FileDescriptor, shown: RawFilePath, followingLinks: Bool = false,
         expected: Stat? = nil) throws(DeliveryError) {
        try self.init(name, in: directory, owningDirectory: false, shown: shown, followingLinks: followingLinks, expected: expected)
    }

    /// Opens the file at `path`: its directories as given (a path a user chose, links followed), then the
    /// file relative to the last of them. The directory is held with `O_PATH`, which asks only for search
    /// permission on it, as opening a file by its path does (a drop box of mode 1733 is routed from).
    init(_ path: RawFilePath, followingLinks: Bool = false) throws(DeliveryError) {
        let bytes = path.bytes
        // `file/` names a directory (or nothing): never a file to route.
        guard let last = bytes.last, last != UInt8(ascii: "/") else {
            throw DeliveryError(path: path.escaped, reason: bytes.isEmpty ? .system(.noSuchFileOrDirectory) : .notARegularFile)
        }
        let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
        let directoryPath: [UInt8] = slash.map { $0 == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<$0]) } ?? [UInt8(ascii: ".")]
        let name = slash.map { Array(bytes[($0 + 1)...]) } ?? bytes
        let directory: FileDescriptor
        do {
            directory = try FileDescriptor.open(PathBytes(directoryPath), .readOnly, options: [.directory, .pathOnly])
        } catch {
            throw DeliveryError(path: path.escaped, reason: .system(error))
        }
        do {
            try self.init(name, in: directory, owningDirectory: true, shown: path, followingLinks: followingLinks, expected: nil)
        } catch {
            directory.closeQuietly()
            throw error
        }
    }

    private init(_ name: [UInt8], in directory: FileDescriptor, owningDirectory: Bool, shown: RawFilePath, followingLinks: Bool,
                 expected: Stat?) throws(DeliveryError) {
        // Examined before it is opened: what is not a regular file (a socket, a device, a FIFO) is never
        // opened, so that opening has no effect of its own (a tape rewinding on close).
        let examined: Stat
        if let expected {
            examined = expected
        } else {
            do {
                examined = try directory.status(of: PathBytes(name), followingLinks: followingLinks)
            } catch {
                throw DeliveryError(path: shown.escaped, reason: .system(error))
            }
        }
        if examined.type == .symbolicLink && !followingLinks { throw DeliveryError(path: shown.escaped, reason: .symbolicLink) }
        guard examined.type == .regular else { throw DeliveryError(path: shown.escaped, reason: .notARegularFile) }
        var options: FileDescriptor.OpenOptions = [.nonBlocking, .noControllingTerminal]
        if !followingLinks { options.insert(.noFollow) }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(PathBytes(name), relativeTo: directory, .readOnly, options: options)
        } catch .tooManySymbolicLinkLevels where !followingLinks {
            throw DeliveryError(path: shown.escaped, reason: .symbolicLink)
        } catch {
            throw DeliveryError(path: shown.escaped, reason: .system(error))
        }
        let status: Stat
        do {
            status = try file.status()
        } catch {
            file.closeQuietly()
            throw DeliveryError(path: shown.escaped, reason: .system(error))
        }
        // The file examined, and still a regular file: not one swapped in between.
        guard status.type == .regular, examined.deviceID == status.deviceID, examined.inode == status.inode else {
            file.closeQuietly()
            throw DeliveryError(path: shown.escaped, reason: .sourceChanged)
        }
        self.directory = directory
        self.ownsDirectory = owningDirectory
        self.name = name
        self.descriptor = file
        self.shown = shown
        self.followsLink = followingLinks
    }

    /// Closes the file (and the directory, when this opened it).
    func close() {
        descriptor.closeQuietly()
        if ownsDirectory { directory.closeQuietly() }
    }
}
