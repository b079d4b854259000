public import UniformTypeIdentifiers
public import SystemPackage

/// A file that could not be identified, and why.
public struct IdentificationError: LocatedError {
    /// The path as it was given (bytes that are not UTF-8 as `\xNN`, see `RawFilePath.escaped`).
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The reason, in words.
    public var message: String { reason.description }

    /// Why a file could not be identified: compare with the static members (`error.reason == .linkLoop`,
    /// `error.reason.errno == .permissionDenied`); new reasons may be added.
    public struct Reason: Error, Hashable, Sendable, CustomStringConvertible {
        /// The kinds of reason.
        /// The kinds: `ErrorKind`, the known ones in its extension below.
        public typealias Kind = ErrorKind<IdentificationError>

        public let kind: Kind
        /// The system's reason, for `.system`.
        public let errno: Errno?
        /// libmagic's message, or a dangling link's target (escaped like a path).
        public let detail: String?

        private init(_ kind: Kind, errno: Errno? = nil, detail: String? = nil) {
            self.kind = kind
            self.errno = errno
            self.detail = detail
        }

        /// A system call failed with `errno`.
        public static func system(_ errno: Errno) -> Reason { Reason(.system, errno: errno) }
        /// libmagic failed; `message` names the call and says why.
        public static func libmagic(_ message: String) -> Reason { Reason(.libmagic, detail: message) }
        /// A symbolic link to `target`, which does not exist.
        public static func danglingLink(target: String) -> Reason { Reason(.danglingLink, detail: target) }
        /// Too many levels of symbolic links.
        public static let linkLoop = Reason(.linkLoop)

        public var description: String {
            switch kind {
            case .system: errno?.description ?? "system error"
            case .libmagic: "libmagic: \(detail ?? "")"
            case .danglingLink: "dangling symbolic link to \(detail ?? "?")"
            case .linkLoop: "too many levels of symbolic links"
            default: kind.rawValue
            }
        }
    }
}

extension ErrorKind where Domain == IdentificationError {
    /// A system call failed (`errno` says why).
    public static let system: Self = "system"
    /// libmagic failed, or answered with something that is not a MIME type.
    public static let libmagic: Self = "libmagic"
    /// A symbolic link that points to nothing (with `followSymlinks`).
    public static let danglingLink: Self = "dangling-link"
    /// A symbolic link in a loop of links (with `followSymlinks`).
    public static let linkLoop: Self = "link-loop"
}
