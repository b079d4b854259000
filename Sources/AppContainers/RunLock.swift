internal import SystemCalls
internal import SystemPackage

/// Says that an app is running: a shared advisory lock (`flock`) on `<container>/.uti-run.lock`, held
/// for as long as the app runs, by the app itself or by `uti apps run-lock BUNDLE-ID COMMAND...`.
/// Any number of the app's processes hold it at once; `Registry.purgeCaches` and `purgeTemporary`
/// take it exclusively without waiting, and leave alone a container whose app holds it, so that
/// nothing is removed from a container in use.
///
/// The lock file is opened relative to the container's directory with `O_NOFOLLOW` (the container
/// itself reached from the registry's root, one directory at a time, links refused), and must be a
/// regular file: a link or anything else planted under its name is refused, never followed. A process
/// of another language takes the same lock with `flock(1)` or `flock(2)` on that path.
///
/// The lock is released when the value goes away (and by the system when the process ends).
public final class RunLock: Sendable {
    /// The lock file's name at the top of a container.
    public static let fileName = ".uti-run.lock"

    /// The app whose container holds the lock.
    public let bundleIdentifier: String
    /// The lock file's full path.
    public let path: String
    /// Whether this lock is exclusive (no one else holds it) rather than shared.
    public let isExclusive: Bool
    let descriptor: FileDescriptor

    private init(bundleIdentifier: String, path: String, isExclusive: Bool, descriptor: FileDescriptor) {
        self.bundleIdentifier = bundleIdentifier
        self.path = path
        self.isExclusive = isExclusive
        self.descriptor = descriptor
    }

    deinit { descriptor.closeQuietly() }

    /// Takes the run lock of the app's container (registered, or unregistered with its data kept),
    /// shared unless `exclusive`.
    ///
    /// - Parameters:
    ///   - bundleIdentifier: The app whose container to lock.
    ///   - registry: The registry that holds the container.
    ///   - exclusive: Take the lock alone, as purging does, rather than shared with the app's other
    ///     processes.
    ///   - waiting: Wait while someone holds it in the other mode; else return `nil` at once.
    /// - Throws: `RegistryError`: a bundle identifier that is not one, a container that is not there,
    ///   a lock file that is not a regular file (`ELOOP` for a link).
    public static func acquire(_ bundleIdentifier: String, in registry: Registry, exclusive: Bool = false,
                               waiting: Bool = true) throws(RegistryError) -> RunLock? {
        let name = try registry.containerName(bundleIdentifier)
        let containerPath = registry.root + "/Containers/" + name
        let container: FileDescriptor
        do throws(Errno) {
            let root = try FileDescriptor.openDirectory(atPath: registry.root)
            defer { root.closeQuietly() }
            let containers = try root.openDirectory("Containers")
            defer { containers.closeQuietly() }
            container = try containers.openDirectory(name)
        } catch {
            throw RegistryError(path: containerPath, reason: .system(error))
        }
        defer { container.closeQuietly() }
        let path = containerPath + "/" + fileName
        let file: FileDescriptor
        do throws(Errno) {
            file = try open(in: container)
        } catch {
            throw RegistryError(path: path, reason: .system(error))
        }
        do throws(Errno) {
            let taken: Bool
            switch (exclusive, waiting) {
            case (true, true): try file.lockExclusively(); taken = true
            case (false, true): try file.lockShared(); taken = true
            case (true, false): taken = try file.tryLockExclusively()
            case (false, false): taken = try file.tryLockShared()
            }
            guard taken else {
                file.closeQuietly()
                return nil
            }
        } catch {
            file.closeQuietly()
            throw RegistryError(path: path, reason: .system(error))
        }
        return RunLock(bundleIdentifier: bundleIdentifier, path: path, isExclusive: exclusive, descriptor: file)
    }

    /// Opens (making it, 0600) the lock file of the container open on `container`: never through a link,
    /// never anything but a regular file (`EINVAL`), never blocking on a FIFO planted there.
    static func open(in container: FileDescriptor) throws(Errno) -> FileDescriptor {
        let file = try FileDescriptor.open(fileName, relativeTo: container, .readWrite, options: [.create, .noFollow, .nonBlocking],
                                           permissions: .ownerReadWrite)
        guard let status = try? file.status(), status.type == .regular else {
            file.closeQuietly()
            throw Errno.invalidArgument
        }
        return file
    }

    /// Lets processes this one starts inherit the lock (its descriptor stays open across `exec`), so
    /// that a command started under it holds it to its end, even if this process ends first.
    /// Returns the descriptor's number.
    public func inheritedByChildren() throws(RegistryError) -> Int32 {
        do throws(Errno) {
            try descriptor.setCloseOnExec(false)
        } catch {
            throw RegistryError(path: path, reason: .system(error))
        }
        return descriptor.rawValue
    }
}
