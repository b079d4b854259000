#if canImport(Glibc)
import Glibc
#endif

/// A file that could not be identified, and why.
public struct IdentificationError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Error, Hashable, Sendable {
        /// A system call failed with this `errno`.
        case system(Int32)
        /// libmagic failed.
        case magic(String)
        /// A symbolic link that points to nothing, or into a loop of links (with `-L`).
        case danglingLink(target: String)
        case linkLoop
    }

    /// The path as it was given.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "\(path): \(message)"
    }

    public var message: String {
        switch reason {
        case .system(let code): String(cString: strerror(code))
        case .magic(let message): "libmagic: \(message)"
        case .danglingLink(let target): "dangling symbolic link to \(target)"
        case .linkLoop: "too many levels of symbolic links"
        }
    }
}
