public import SystemPackage

/// The kind of an error of these libraries, as swift-system's `Errno` is a code: a string compared as one,
/// with the known kinds as static members of its domain, and room for new ones. A client compares
/// (`error.kind == .notRegistered`) rather than switching exhaustively.
///
/// A kind carries its message, so adding an error is one line in the domain's extension:
///
///     extension ErrorKind where Domain == RegistryErrorDomain {
///         public static let notRegistered = Self("not-registered") { "'\($0.subject ?? "")' is not registered" }
///     }
///
/// Kinds are equal when their codes are; the message is how a reason of the kind is put in words.
public struct ErrorKind<Domain: ErrorDomain>: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The code: stable, lowercase words joined by `-` (`not-registered`), used in JSON and problem reports.
    public let rawValue: String
    private let message: (@Sendable (ErrorReason<Domain>) -> String)?

    /// A kind with its code and the words for a reason of this kind.
    public init(_ rawValue: String, message: @escaping @Sendable (ErrorReason<Domain>) -> String) {
        self.rawValue = rawValue
        self.message = message
    }

    /// A kind known only by its code (its reasons are described by the code).
    public init(rawValue: String) {
        self.rawValue = rawValue
        self.message = nil
    }

    /// A kind known only by its code, written as a string literal (`let unreadable: Self = "unreadable"`).
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The code.
    public var description: String { rawValue }

    /// `reason` in words.
    func describe(_ reason: ErrorReason<Domain>) -> String { message?(reason) ?? rawValue }

    /// Whether two kinds are the same kind: their codes are equal, whatever their messages.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Hashes the code, the only part that takes part in equality.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// A family of errors: the type that names it, and what a reason of it may wrap (another library's error,
/// or `Never`). The domains are empty enums: `IdentificationErrorDomain`, `RegistryErrorDomain` ...
public protocol ErrorDomain {
    /// What a reason may carry besides its words: the error it comes from, or the context it needs.
    associatedtype Cause: Hashable & Sendable = Never
}

/// Why an error happened: its kind, and what the kind's message names. Every error of these libraries has
/// a reason of this one shape; which fields a kind fills is said where the kind is declared.
public struct ErrorReason<Domain: ErrorDomain>: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of reason in this domain.
    public typealias Kind = ErrorKind<Domain>

    /// What kind of reason this is; compare it with the kinds declared for the domain.
    public let kind: Kind
    /// The system's reason, for the kinds that come from a system call.
    public let errno: Errno?
    /// What went wrong in words (libmagic's message, a refused name), or what was being done.
    public let detail: String?
    /// The thing concerned, named: a bundle identifier, a link's target.
    public let subject: String?
    /// The error this one comes from, or the context its message needs.
    public let cause: Domain.Cause?

    /// A reason of `kind`, with the fields that kind's message names; the others stay `nil`.
    ///
    /// - Parameters:
    ///   - kind: What kind of reason this is.
    ///   - errno: The system's reason, for a kind that comes from a system call.
    ///   - detail: What went wrong in words, or what was being done.
    ///   - subject: The thing concerned, named.
    ///   - cause: The error this one comes from, or the context its message needs.
    public init(_ kind: Kind, errno: Errno? = nil, detail: String? = nil, subject: String? = nil, cause: Domain.Cause? = nil) {
        self.kind = kind
        self.errno = errno
        self.detail = detail
        self.subject = subject
        self.cause = cause
    }

    /// The reason in words, as its kind's message puts it (the kind's code for a kind without one).
    public var description: String { kind.describe(self) }

    /// `detail: errno`, for the kinds that report a system call (`detail` says what was being done).
    public var systemMessage: String {
        (detail.map { $0 + ": " } ?? "") + (errno?.description ?? "system error")
    }
}

/// Every error of these libraries: the path at fault and the reason, described as `path: reason`.
/// `IdentificationError`, `RegistryError`, `DeliveryError`, `RoutingError` and `BackupError` are this type
/// in their domains.
public struct LocatedError<Domain: ErrorDomain>: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reasons of errors in this domain.
    public typealias Reason = ErrorReason<Domain>
    /// The kinds of errors in this domain.
    public typealias Kind = ErrorKind<Domain>

    /// The file or directory at fault, as shown to people (bytes that are not UTF-8 escaped), or `-` for
    /// bytes without a path.
    public var path: String
    /// Why.
    public var reason: Reason

    /// An error at `path`, for `reason`.
    ///
    /// - Parameters:
    ///   - path: The file or directory at fault, as shown to people, or `-` for bytes without a path.
    ///   - reason: Why the error happened.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The reason's kind.
    public var kind: Kind { reason.kind }
    /// The reason, in words.
    public var message: String { reason.description }
    /// The error as `path: reason`, the form problem reports show.
    public var description: String { "\(path): \(message)" }
}
