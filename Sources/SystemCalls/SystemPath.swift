package import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A path handed to the system exactly as its bytes: Linux names are any bytes but `/` and NUL, so a name
/// that is not valid UTF-8 must reach `open` as it came.
///
/// `FilePath` is one (its bytes are kept; it drops redundant and trailing slashes, which is right for paths
/// this package builds). A path a user typed keeps its trailing slash as given (`RawFilePath`), because the
/// system reads `link/` as the directory the link points to, and `file/` as an error.
package protocol SystemPath {
    /// Calls `body` with the path as a NUL-terminated C string; a NUL inside cuts it short, as the system
    /// would read it.
    func withSystemPath<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R
}

extension String: SystemPath {
    package func withSystemPath<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        try withCString { pointer in Result { () throws(E) -> R in try body(pointer) } }.get()
    }
}

extension FilePath: SystemPath {
    package func withSystemPath<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        try withPlatformString { pointer in Result { () throws(E) -> R in try body(pointer) } }.get()
    }
}

/// Exact bytes, for paths that come from the system (a walk, a directory listing) or from a user.
package struct PathBytes: SystemPath, Hashable, Sendable {
    package var bytes: [UInt8]

    package init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    package func withSystemPath<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        // A NUL inside would cut the path short: pass what precedes it, as the system would see it.
        let length = bytes.firstIndex(of: 0) ?? bytes.count
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: length + 1)
        defer { pointer.deallocate() }
        for index in 0..<length { pointer[index] = CChar(bitPattern: bytes[index]) }
        pointer[length] = 0
        return try body(pointer)
    }
}
