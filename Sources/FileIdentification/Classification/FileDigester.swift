public import SystemPackage
internal import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// What computes a digest of a file's contents for a classification (`ClassificationOptions/digest`): the
/// ContentDigests module's `ContentDigest` (MD5, SHA-1, SHA-256), or a caller's own.
public protocol FileDigester: Sendable {
    /// The digest's name (`sha256`).
    var name: String { get }
    /// The digest of what `file` holds from its current position to its end, in lower-case hex.
    func hex(of file: FileDescriptor) throws(Errno) -> String
}

extension FileDigester {
    /// The digest of the regular file at `path` (relative to `directory` when given: its last component, opened
    /// there), read to its end.
    public func hex(ofFileAt path: RawFilePath, in directory: FileDescriptor? = nil, followingLinks: Bool = false) throws(Errno) -> String {
        var options: FileDescriptor.OpenOptions = [.nonBlocking, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)]
        if !followingLinks { options.insert(.noFollow) }
        let file: FileDescriptor
        if let directory {
            file = try FileDescriptor.open(PathBytes(path.lastComponent), relativeTo: directory, .readOnly, options: options)
        } else {
            file = try FileDescriptor.open(path, .readOnly, options: options)
        }
        defer { file.closeQuietly() }
        guard try file.status().type == .regular else { throw .invalidArgument }
        return try hex(of: file)
    }
}
