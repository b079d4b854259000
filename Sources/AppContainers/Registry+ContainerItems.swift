internal import FileIdentification
internal import SystemCalls
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A file or directory inside a registered app's container, found from a path a user gave.
struct ContainerItem: ~Copyable {
    var app: Registry.RegisteredApp
    /// The names from the container down to the item (at least one).
    var components: [[UInt8]]
    /// The item, open for reading (a directory, or a regular file opened without blocking).
    var file: FileDescriptor
    var status: Stat
    var containerPath: String

    /// The item's path inside the container, `Documents/report.pdf`.
    var relativePath: RawFilePath { RawFilePath(bytes: Array(components.joined(separator: [UInt8(ascii: "/")]))) }
    /// The item's full path, for display.
    var path: String { containerPath + "/" + relativePath.escaped }

    deinit { file.closeQuietly() }
}

extension Registry {
    /// The item at `path` (as a user gave it: relative to the working directory, links above the item
    /// followed as the system follows them), when it is inside a registered app's container.
    ///
    /// Where an item is is decided by the directories it is in, never by how its path is spelt: the item
    /// is opened (`O_PATH | O_NOFOLLOW`: a link is refused, nothing is opened that could block), then the
    /// directories above it are climbed through `..`, each compared by device and inode with the
    /// registered containers; the names on the way are read from the directories themselves. The way
    /// down from the container is then opened again, one name at a time with `O_NOFOLLOW`, and must
    /// reach the same file: an item reached through a link out of or into a container is refused.
    func containerItem(at path: RawFilePath) throws(BackupError) -> ContainerItem {
        let shown = path.escaped
        func fail(_ reason: BackupError.Reason) -> BackupError { BackupError(path: shown, reason: reason) }
        let apps: [RegisteredApp]
        do {
            apps = try self.apps()
        } catch {
            throw fail(.registry(error))
        }
        let root: FileDescriptor, containers: FileDescriptor
        do throws(Errno) {
            root = try FileDescriptor.openDirectory(atPath: self.root)
        } catch {
            throw fail(.notInContainer)
        }
        defer { root.closeQuietly() }
        do throws(Errno) {
            containers = try root.openDirectory("Containers")
        } catch {
            throw fail(.notInContainer)
        }
        defer { containers.closeQuietly() }
        struct Identity: Hashable {
            var device: UInt64, inode: UInt64
            init(_ status: Stat) { (device, inode) = (UInt64(status.rawValue.st_dev), UInt64(status.rawValue.st_ino)) }
        }
        var containerOf: [Identity: RegisteredApp] = [:]
        for app in apps {
            if let status = try? containers.status(of: app.containerName), status.type == .directory { containerOf[Identity(status)] = app }
        }
        // The registered bundles (the directory of Contents/Info.plist, or a bare Info.plist): the app's,
        // never an item of a backup even when someone keeps it in a container.
        var bundles = Set<Identity>()
        for app in apps {
            guard var bundle = app.registeredFrom else { continue }
            for suffix in ["/Contents/Info.plist", "/Info.plist"] where bundle.hasSuffix(suffix) {
                bundle.removeLast(suffix.count)
                break
            }
            if let status = try? FileDescriptor.workingDirectory.status(of: bundle, followingLinks: true) { bundles.insert(Identity(status)) }
        }

        // The item itself, without following a link at its last name.
        let handle: FileDescriptor
        do throws(Errno) {
            handle = try FileDescriptor.open(PathBytes(path.bytes), .readOnly, options: [.noFollow, .pathOnly])
        } catch {
            throw fail(.system(error))
        }
        defer { handle.closeQuietly() }
        let status: Stat
        do throws(Errno) {
            status = try handle.status()
        } catch {
            throw fail(.system(error))
        }
        guard status.type != .symbolicLink else { throw fail(.symbolicLink) }
        guard status.type == .directory || status.type == .regular else { throw fail(.notAFileOrDirectory) }
        let isDirectory = status.type == .directory
        if bundles.contains(Identity(status)) { throw fail(.notAnItem("a registered app's bundle")) }

        // Where to start climbing: the directory itself, or the one holding the file (named by the path,
        // and checked to hold this very file under its last name).
        var current: FileDescriptor
        var names: [[UInt8]] = []
        do throws(Errno) {
            if isDirectory {
                current = try FileDescriptor.open(".", relativeTo: handle, .readOnly, options: [.directory])
            } else {
                let bytes = path.bytes
                let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
                let parent = slash.map { $0 == bytes.startIndex ? [UInt8(ascii: "/")] : Array(bytes[..<$0]) } ?? [UInt8(ascii: ".")]
                let name = slash.map { Array(bytes[bytes.index(after: $0)...]) } ?? bytes
                current = try FileDescriptor.open(PathBytes(parent), .readOnly, options: [.directory])
                guard let found = try? current.status(of: PathBytes(name)), Identity(found) == Identity(status) else {
                    current.closeQuietly()
                    throw Errno.staleNFSFileHandle
                }
                names = [name]
            }
        } catch .staleNFSFileHandle {
            throw fail(.changed)
        } catch {
            throw fail(.system(error))
        }
        defer { current.closeQuietly() }

        var app: RegisteredApp?
        for _ in 0..<4_096 {
            guard let here = try? current.status() else { throw fail(.changed) }
            if let found = containerOf[Identity(here)] {
                app = found
                break
            }
            if bundles.contains(Identity(here)) { throw fail(.notAnItem("inside a registered app's bundle")) }
            guard let parent = try? FileDescriptor.open("..", relativeTo: current, .readOnly, options: [.directory]) else { throw fail(.notInContainer) }
            guard let above = try? parent.status(), Identity(above) != Identity(here) else {
                parent.closeQuietly()
                throw fail(.notInContainer)
            }
            let name = (try? parent.directoryEntries())?.first { entry in
                guard let entryStatus = try? parent.status(of: PathBytes(entry)) else { return false }
                return entryStatus.type == .directory && Identity(entryStatus) == Identity(here)
            }
            current.closeQuietly()
            current = parent
            guard let name else { throw fail(.notInContainer) }
            names.insert(name, at: 0)
        }
        guard let app else { throw fail(.notInContainer) }
        let containerPath = self.containerPath(of: app)
        guard !names.isEmpty else { throw fail(.notAnItem("the container itself; name what is in it")) }

        // Down again from the container, one name at a time, links refused: the same file must be there.
        do throws(Errno) {
            var directory = try containers.openDirectory(app.containerName)
            defer { directory.closeQuietly() }
            for name in names.dropLast() {
                let next = try directory.openDirectory(PathBytes(name))
                directory.closeQuietly()
                directory = next
            }
            guard let last = names.last, Identity(try directory.status(of: PathBytes(last))) == Identity(status) else { throw Errno.staleNFSFileHandle }
        } catch {
            throw fail(.changed)
        }

        // Open for reading through the O_PATH handle: the very file examined above.
        let file: FileDescriptor
        do throws(Errno) {
            file = try FileDescriptor.open("/proc/self/fd/\(handle.rawValue)", .readOnly,
                                           options: isDirectory ? [.directory] : [.nonBlocking, .noControllingTerminal])
            guard let reopened = try? file.status(), Identity(reopened) == Identity(status) else {
                file.closeQuietly()
                throw Errno.staleNFSFileHandle
            }
        } catch .staleNFSFileHandle {
            throw fail(.changed)
        } catch {
            throw fail(.system(error))
        }
        return ContainerItem(app: app, components: names, file: file, status: status, containerPath: containerPath)
    }
}
