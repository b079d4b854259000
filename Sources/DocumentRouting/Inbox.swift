public import FileIdentification
internal import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An app container's `Documents/Inbox/`: where documents handed to the app arrive, whole and read-only.
///
/// Delivery works the way maildir does. The copy is written into the container's `tmp/` under a name
/// no one else uses, synced, made read-only (0444), then linked into `Documents/Inbox/` with `linkat`,
/// which fails rather than replace an existing name (then `name-1.ext`, `name-2.ext`, ... are tried),
/// and the directory is synced. A crash or `kill -9` at any moment leaves in the Inbox nothing or the
/// complete file; what it leaves in `tmp/` is removed by the next delivery. Every directory of the
/// container is opened relative to the one above with `O_NOFOLLOW`, so a symbolic link planted in a
/// container (`Documents/Inbox -> /etc`) is refused, never followed: nothing is written outside it.
public struct Inbox: Sendable {
    public let registry: Registry
    public let bundleIdentifier: String

    public init(registry: Registry, bundleIdentifier: String) {
        self.registry = registry
        self.bundleIdentifier = bundleIdentifier
    }

    /// A file handed to the app.
    public struct Delivery: Sendable, Hashable {
        /// The name it has in the Inbox (`report-1.pdf` when `report.pdf` was taken).
        public var name: String
        /// Its full path.
        public var path: String
    }

    static let temporarySuffix = ".uti-delivery"
    private static let counter = Atomic<Int>(0)

    // MARK: Names

    /// A name a file may have in the Inbox: the file's own name, checked. Names with `/` or NUL, `.`,
    /// `..`, the empty name and names over 255 bytes are refused; so are names that would be hidden
    /// delivery temporaries.
    public static func safeName(_ name: String) throws(DeliveryError) -> String {
        func refuse(_ why: String) -> DeliveryError { DeliveryError(path: name, message: "refused as a file name: \(why)") }
        if name.isEmpty { throw refuse("empty") }
        if name.contains("/") { throw refuse(name.hasPrefix("/") ? "an absolute path" : "it contains '/'") }
        if name.utf8.contains(0) { throw refuse("it contains a NUL byte") }
        if name == "." || name == ".." { throw refuse("'\(name)' names a directory") }
        if name.utf8.count > 255 { throw refuse("longer than 255 bytes") }
        if name.hasSuffix(temporarySuffix) { throw refuse("reserved for deliveries in progress") }
        return name
    }

    /// `report.pdf`, then `report-1.pdf`, `report-2.pdf`...: the number goes before the extension
    /// (after the last dot; a leading dot starts a hidden name, not an extension).
    static func variant(of name: String, _ number: Int) -> String {
        guard number > 0 else { return name }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(name[..<dot]) + "-\(number)" + String(name[dot...])
        }
        return name + "-\(number)"
    }

    // MARK: Directories

    /// The directories of the container, opened one component at a time without following links.
    private func openDirectory(_ components: [String]) throws(DeliveryError) -> Int32 {
        var current = open(registry.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw DeliveryError.system(registry.root) }
        var path = registry.root
        for component in ["Containers", bundleIdentifier] + components {
            path += "/" + component
            let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            close(current)
            guard next >= 0 else {
                if code == ELOOP || code == ENOTDIR {
                    throw DeliveryError(path: path, message: "refused: not a directory of the container (a symbolic link or a file stands there)")
                }
                throw DeliveryError(path: path, message: String(cString: strerror(code)))
            }
            current = next
        }
        return current
    }

    // MARK: Delivering

    /// Copies the file at `source` into the Inbox under `name` (its own name by default), never
    /// replacing anything; with `move`, removes the source once the copy is durable.
    public func deliver(_ source: RawFilePath, as name: String? = nil, move: Bool = false) throws(DeliveryError) -> Delivery {
        let finalName = try Self.safeName(name ?? String(decoding: source.lastComponent, as: UTF8.self))
        let input = source.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard input >= 0 else { throw DeliveryError.system(source.escaped) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw DeliveryError.system(source.escaped) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw DeliveryError(path: source.escaped, message: "not a regular file; only files are delivered")
        }
        let delivery = try deliver(copying: input, name: finalName)
        if move {
            guard source.withCString({ unlink($0) }) == 0 else {
                throw DeliveryError(path: source.escaped, message: "delivered to \(delivery.path), but not removed: \(String(cString: strerror(errno)))")
            }
        }
        return delivery
    }

    /// Delivers bytes already in memory (standard input, an upload) into the Inbox as `name`.
    public func deliver(contents: [UInt8], as name: String) throws(DeliveryError) -> Delivery {
        try deliver(name: try Self.safeName(name)) { output, path throws(DeliveryError) in
            try Self.write(contents[...], to: output, path: path)
        }
    }

    private func deliver(copying input: Int32, name: String) throws(DeliveryError) -> Delivery {
        try deliver(name: name) { output, path throws(DeliveryError) in try copy(from: input, to: output, path: path) }
    }

    private func deliver(name: String, fill: (Int32, String) throws(DeliveryError) -> Void) throws(DeliveryError) -> Delivery {
        let temporaryDirectory = try openDirectory(["tmp"])
        defer { close(temporaryDirectory) }
        let inbox = try openDirectory(["Documents", "Inbox"])
        defer { close(inbox) }
        removeAbandonedTemporaries(in: temporaryDirectory)

        let temporaryName = "\(getpid()).\(Self.counter.add(1, ordering: .relaxed).newValue).\(UInt32.random(in: 0...UInt32.max))\(Self.temporarySuffix)"
        let temporaryPath = containerPath + "/tmp/" + temporaryName
        let output = openat(temporaryDirectory, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw DeliveryError.system(temporaryPath) }
        var linked = false
        defer {
            if !linked { unlinkat(temporaryDirectory, temporaryName, 0) }
        }
        do throws(DeliveryError) {
            try fill(output, temporaryPath)
            guard fsync(output) == 0, fchmod(output, 0o444) == 0 else { throw DeliveryError.system(temporaryPath) }
        } catch {
            close(output)
            throw error
        }
        guard close(output) == 0 else { throw DeliveryError.system(temporaryPath) }

        // Link into the Inbox under the first free name; linkat never replaces an existing file.
        var number = 0
        var delivered = ""
        while true {
            let candidate = Self.variant(of: name, number)
            guard candidate.utf8.count <= 255 else { throw DeliveryError(path: name, message: "no free name in the Inbox") }
            if linkat(temporaryDirectory, temporaryName, inbox, candidate, 0) == 0 {
                delivered = candidate
                break
            }
            guard errno == EEXIST else { throw DeliveryError.system(inboxPath + "/" + candidate) }
            number += 1
        }
        linked = true
        fsync(inbox)
        unlinkat(temporaryDirectory, temporaryName, 0)
        fsync(temporaryDirectory)
        return Delivery(name: delivered, path: inboxPath + "/" + delivered)
    }

    private func copy(from input: Int32, to output: Int32, path: String) throws(DeliveryError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw DeliveryError(path: path, message: "reading the source: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try Self.write(buffer[0..<count], to: output, path: path)
        }
    }

    private static func write(_ bytes: ArraySlice<UInt8>, to output: Int32, path: String) throws(DeliveryError) {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw DeliveryError(path: path, message: "writing the copy: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Removes delivery temporaries left by processes that no longer run (killed mid-delivery).
    private func removeAbandonedTemporaries(in directory: Int32) {
        let duplicate = dup(directory)
        guard duplicate >= 0, let stream = fdopendir(duplicate) else { return }
        defer { closedir(stream) }
        var abandoned: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name.hasSuffix(Self.temporarySuffix), let pid = Int32(name.split(separator: ".").first ?? "") else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { abandoned.append(name) }
        }
        for name in abandoned { unlinkat(directory, name, 0) }
    }

    // MARK: The app's side

    var containerPath: String { registry.containerPath(bundleIdentifier) }
    var inboxPath: String { containerPath + "/Documents/Inbox" }

    /// An Inbox entry.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var size: Int
    }

    /// The files in the Inbox, by name.
    public func list() throws(DeliveryError) -> [Entry] {
        let inbox = try openDirectory(["Documents", "Inbox"])
        guard let stream = fdopendir(inbox) else {
            close(inbox)
            throw DeliveryError.system(inboxPath)
        }
        defer { closedir(stream) }
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            var status = stat()
            let size = fstatat(dirfd(stream), name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? Int(status.st_size) : 0
            entries.append(Entry(name: name, size: size))
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// Moves a file out of the Inbox into `Documents/` (under a free name) and makes it writable, as an
    /// app does before editing it; returns its new path.
    public func claim(_ name: String) throws(DeliveryError) -> String {
        let name = try Self.safeName(name)
        let documents = try openDirectory(["Documents"])
        defer { close(documents) }
        let inbox = try openDirectory(["Documents", "Inbox"])
        defer { close(inbox) }
        var status = stat()
        guard fstatat(inbox, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { throw DeliveryError.system(inboxPath + "/" + name) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw DeliveryError(path: inboxPath + "/" + name, message: "not a regular file") }
        var number = 0
        while true {
            let candidate = Self.variant(of: name, number)
            if linkat(inbox, name, documents, candidate, 0) == 0 {
                guard unlinkat(inbox, name, 0) == 0 else { throw DeliveryError.system(inboxPath + "/" + name) }
                let claimed = openat(documents, candidate, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                if claimed >= 0 {
                    fchmod(claimed, 0o644)
                    close(claimed)
                }
                fsync(documents)
                fsync(inbox)
                return containerPath + "/Documents/" + candidate
            }
            guard errno == EEXIST else { throw DeliveryError.system(containerPath + "/Documents/" + candidate) }
            number += 1
        }
    }

    /// Deletes a file from the Inbox.
    public func remove(_ name: String) throws(DeliveryError) {
        let name = try Self.safeName(name)
        let inbox = try openDirectory(["Documents", "Inbox"])
        defer { close(inbox) }
        guard unlinkat(inbox, name, 0) == 0 else { throw DeliveryError.system(inboxPath + "/" + name) }
        fsync(inbox)
    }
}

/// A delivery that did not happen (and left nothing behind), with the path at fault.
public struct DeliveryError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    static func system(_ path: String) -> DeliveryError {
        DeliveryError(path: path, message: String(cString: strerror(errno)))
    }

    public var description: String { "\(path): \(message)" }
}
