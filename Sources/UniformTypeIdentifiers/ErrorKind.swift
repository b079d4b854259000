/// The kind of an error of these libraries, as swift-system's `Errno` is a code: a string compared as one,
/// with the known kinds as static members of its domain (the error type it belongs to), and room for new
/// ones: a client compares (`error.reason.kind == .notRegistered`) rather than switching exhaustively, and
/// adding a kind is one line, `static let name: Self = "name"`, in the domain's extension.
///
///     extension ErrorKind where Domain == RegistryError {
///         public static let notRegistered: Self = "not-registered"
///     }
public struct ErrorKind<Domain>: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }
}

/// What every error of these libraries is: the path at fault and a reason, described as `path: reason`
/// unless the error says more.
public protocol LocatedError: Error, Hashable, Sendable, CustomStringConvertible {
    associatedtype Reason: Hashable & Sendable & CustomStringConvertible
    /// The file or directory at fault, as shown to people (bytes that are not UTF-8 escaped).
    var path: String { get }
    /// Why.
    var reason: Reason { get }
}

extension LocatedError {
    public var description: String { "\(path): \(reason)" }
}
