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
    /// The path's bytes, without a terminating NUL.
    var systemPathBytes: [UInt8] { get }
}

extension SystemPath {
    /// Calls `body` with the path as a NUL-terminated C string; a NUL inside cuts it short, as the system
    /// would read it.
    ///
    /// The bytes are copied into a buffer of their own, so that `body` may throw its typed error straight
    /// through (the standard library's `withCString` rethrows untyped errors only).
    package func withSystemPath<R>(_ body: (UnsafePointer<CChar>) throws(Errno) -> R) throws(Errno) -> R {
        try withNULTerminated(systemPathBytes, body)
    }

    /// `withSystemPath` for a body that does not throw.
    package func withSystemPathUnchecked<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        withNULTerminated(systemPathBytes, body)
    }
}

extension String: SystemPath {
    package var systemPathBytes: [UInt8] { Array(utf8) }
}

extension FilePath: SystemPath {
    package var systemPathBytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }
}

/// Exact bytes, for paths that come from the system (a walk, a directory listing) or from a user.
package struct PathBytes: SystemPath, Hashable, Sendable {
    package var bytes: [UInt8]

    package init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    package var systemPathBytes: [UInt8] { bytes }
}
