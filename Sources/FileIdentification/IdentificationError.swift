public import UniformTypeIdentifiers
public import SystemPackage

/// The family of `IdentificationError`: a file that could not be identified.
public enum IdentificationErrorDomain: ErrorDomain {}

/// A file that could not be identified, and why. `path` is the path as it was given (bytes that are not
/// UTF-8 as `\xNN`, see `RawFilePath.escaped`); compare the reason by kind (`error.kind == .linkLoop`,
/// `error.reason.errno == .permissionDenied`); new kinds may be added.
public typealias IdentificationError = LocatedError<IdentificationErrorDomain>

/// The kinds of `IdentificationError`: why a file could not be identified.
extension ErrorKind where Domain == IdentificationErrorDomain {
    /// A system call failed (`errno` says why).
    public static let system = Self("system") { $0.systemMessage }
    /// libmagic failed, or answered with something that is not a MIME type (`detail`: the call, and why).
    public static let libmagic = Self("libmagic") { "libmagic: \($0.detail ?? "")" }
    /// A symbolic link that points to nothing, with `followSymlinks` (`subject`: its target, escaped like a path).
    public static let danglingLink = Self("dangling-link") { "dangling symbolic link to \($0.subject ?? "?")" }
    /// A symbolic link in a loop of links (with `followSymlinks`).
    public static let linkLoop = Self("link-loop") { _ in "too many levels of symbolic links" }
}

/// The reasons an `IdentificationError` carries, one factory for each kind, with the fields it fills.
extension ErrorReason where Domain == IdentificationErrorDomain {
    /// A system call failed with `errno`.
    public static func system(_ errno: Errno) -> Self { Self(.system, errno: errno) }
    /// libmagic failed; `message` names the call and says why.
    public static func libmagic(_ message: String) -> Self { Self(.libmagic, detail: message) }
    /// A symbolic link to `target`, which does not exist.
    public static func danglingLink(target: String) -> Self { Self(.danglingLink, subject: target) }
    /// Too many levels of symbolic links.
    public static let linkLoop = Self(.linkLoop)
}
