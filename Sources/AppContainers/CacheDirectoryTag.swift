internal import SystemCalls
internal import SystemPackage

/// The `CACHEDIR.TAG` of the Cache Directory Tagging Specification (https://bford.info/cachedir/): a file
/// of that name whose first 43 bytes are the signature marks its directory as one that backup tools
/// skip (`tar --exclude-caches-all`, borg `--exclude-caches`, restic `--exclude-caches`), without
/// knowing anything of uti.
///
/// uti writes one into every directory excluded from backup (`Library/Caches/`, `tmp/`, and each
/// directory given to `BackupExclusion.exclude`), and removes only one it wrote (the exact bytes of
/// `contents`): a tag someone else put there stays.
enum CacheDirectoryTag {
    static let name = "CACHEDIR.TAG"
    /// The 43 bytes a tag starts with.
    static let signature = Array("Signature: 8a477f597d28d172789f06886806bc55".utf8)
    /// What uti writes: the signature, then comments, as the specification suggests.
    static let contents = signature + Array("""

        # This file is a cache directory tag created by uti: this directory is not backed up.
        # For information about cache directory tags, see:
        #\thttps://bford.info/cachedir/

        """.utf8)

    enum State: Equatable {
        /// No `CACHEDIR.TAG`, or one that is not a tag (a directory, a link, other bytes).
        case none
        /// uti's own tag, byte for byte.
        case uti
        /// A tag someone else wrote: backup tools honour it as they do uti's.
        case foreign
    }

    /// What stands in `directory` under the tag's name, read as GNU tar reads it: a regular file (a link
    /// is not followed, a FIFO not waited on) starting with the signature.
    static func state(in directory: FileDescriptor) -> State {
        guard let file = try? FileDescriptor.open(name, relativeTo: directory, .readOnly, options: [.noFollow, .nonBlocking]) else { return .none }
        defer { file.closeQuietly() }
        guard let status = try? file.status(), status.type == .regular else { return .none }
        guard let bytes = try? file.read(at: 0, count: contents.count + 1), bytes.starts(with: signature) else { return .none }
        return bytes == contents ? .uti : .foreign
    }

    /// Writes uti's tag into `directory` unless a tag is there; whether the directory is tagged after
    /// (`false` when something else stands under the name).
    @discardableResult
    static func write(in directory: FileDescriptor) throws(Errno) -> Bool {
        if state(in: directory) != .none { return true }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(name, relativeTo: directory, .writeOnly, options: [.create, .exclusiveCreate, .noFollow],
                                           permissions: .ownerReadWrite)
        } catch .fileExists {
            return state(in: directory) != .none
        }
        do throws(Errno) {
            try file.writeAll(contents)
        } catch {
            file.closeQuietly()
            try? directory.remove(name)
            throw error
        }
        try file.closeChecked()
        return true
    }

    /// Removes uti's own tag from `directory`; whether one was removed.
    @discardableResult
    static func removeOwn(in directory: FileDescriptor) throws(Errno) -> Bool {
        guard state(in: directory) == .uti else { return false }
        try directory.remove(name)
        return true
    }
}
