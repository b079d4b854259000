public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A directory made for one test (`mkdtemp`: a fresh name, mode 0700 unless asked), removed with everything
/// in it when the value goes away, even after a test took permissions away inside it.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// - Parameter permissions: The directory's mode; 0755 for a test that runs a command as another user.
    public init(prefix: String = "uti-test", permissions: mode_t = 0o700) throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/\(prefix)-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
            return String(cString: result)
        }
        guard let made, chmod(made, permissions) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = made
    }

    deinit {
        // Make every directory traversable and writable again, then remove the tree.
        if let names = try? FileManager.default.subpathsOfDirectory(atPath: path) {
            for name in names { chmod(path + "/" + name, 0o755) }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    public var url: URL { URL(filePath: path, directoryHint: .isDirectory) }

    /// The path of `name` inside the directory (which need not exist).
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` (making the directories above it) and returns its path.
    @discardableResult
    public func write(_ bytes: some Sequence<UInt8>, to name: String) throws -> String {
        let target = file(name)
        let parent = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(filePath: target))
        return target
    }

    /// Writes `text` as UTF-8 to `name` and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    /// Makes the directory `name` (and those above it) and returns its path.
    @discardableResult
    public func makeDirectory(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
        return file(name)
    }
}
