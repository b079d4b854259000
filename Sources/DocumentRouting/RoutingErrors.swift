public import AppContainers
public import FileIdentification
public import SystemPackage
public import UniformTypeIdentifiers

/// The family of `DeliveryError`: a delivery that did not happen. A reason may carry the `RegistryError`
/// it comes from.
public enum DeliveryErrorDomain: ErrorDomain {
    /// A delivery error's cause: the `RegistryError` it comes from.
    public typealias Cause = RegistryError
}

/// A delivery that did not happen (and left nothing behind), with the path at fault and why. Compare by
/// kind (`error.kind == .refusedName`, `error.reason.errno == .fileTooLarge`); new kinds may be added.
public typealias DeliveryError = LocatedError<DeliveryErrorDomain>

/// The kinds of `DeliveryError`.
extension ErrorKind where Domain == DeliveryErrorDomain {
    /// A system call failed (`detail`: what was being done: reading the source, writing the copy, linking it ...).
    public static let system = Self("system") { $0.systemMessage }
    /// The name to deliver under is not a name a file may have in the Inbox (`detail`: why).
    public static let refusedName = Self("refused-name") { "refused as a file name: \($0.detail ?? "")" }
    /// A directory of the container is a symbolic link or a file: refused, never followed.
    public static let notInContainer = Self("not-in-container") { _ in
        "refused: not a directory of the container (a symbolic link or a file stands there)"
    }
    /// The source is not a regular file.
    public static let notARegularFile = Self("not-a-regular-file") { _ in "not a regular file; only files are delivered" }
    /// Every variant of the name is taken.
    public static let noFreeName = Self("no-free-name") { _ in "no free name in the Inbox" }
    /// Delivered (the copy, `detail`, is durable), but the source could not be removed after it (`--move`).
    public static let sourceNotRemoved = Self("source-not-removed") {
        "delivered to \($0.detail ?? "the Inbox"), but not removed: \($0.errno?.description ?? "")"
    }
    /// The source is a symbolic link, and following links was not asked for.
    public static let symbolicLink = Self("symbolic-link") { _ in "a symbolic link; refused (follow it with -L/--follow)" }
    /// The source changed while it was copied (twice), or between its copy and its removal
    /// (`--move`): nothing was delivered, nothing removed.
    public static let sourceChanged = Self("source-changed") { _ in
        "changed while it was being delivered; nothing delivered, nothing removed"
    }
    /// `--move`: the source changed in the instant after it was removed, and could not be linked
    /// back; the copy delivered (`detail`) lacks what was written after it.
    public static let sourceChangedAfterMove = Self("source-changed-after-move") {
        "written to while it was being removed, and not linked back: the copy in \($0.detail ?? "the Inbox") may lack the last writes"
    }
    /// The registry could not be read, or the bundle identifier is not one (`cause`).
    public static let registry = Self("registry") { $0.cause?.message ?? "the registry cannot be read" }
}

/// The reasons of `DeliveryError`, one for each kind, and the registry error one carries.
extension ErrorReason where Domain == DeliveryErrorDomain {
    /// The source is a symbolic link, and following links was not asked for (`.symbolicLink`).
    public static let symbolicLink = Self(.symbolicLink)
    /// The source changed while it was copied, or between its copy and its removal (`.sourceChanged`).
    public static let sourceChanged = Self(.sourceChanged)
    /// The source changed in the instant after its removal and could not be linked back (`.sourceChangedAfterMove`); `detail` is the copy delivered, `path`.
    public static func sourceChangedAfterMove(deliveredTo path: String) -> Self { Self(.sourceChangedAfterMove, detail: path) }
    /// The registry could not be read, or the bundle identifier is not one (`.registry`); `cause` carries `error`.
    public static func registry(_ error: RegistryError) -> Self { Self(.registry, cause: error) }
    /// A system call failed with `errno` (`.system`) while doing `operation`, kept as `detail`.
    public static func system(_ errno: Errno, while operation: String? = nil) -> Self { Self(.system, errno: errno, detail: operation) }
    /// The name is not one a file may have in the Inbox (`.refusedName`); `detail` says `why`.
    public static func refusedName(_ why: String) -> Self { Self(.refusedName, detail: why) }
    /// A directory of the container is a symbolic link or a file (`.notInContainer`).
    public static let notInContainer = Self(.notInContainer)
    /// The source is not a regular file (`.notARegularFile`).
    public static let notARegularFile = Self(.notARegularFile)
    /// Every variant of the name is taken (`.noFreeName`).
    public static let noFreeName = Self(.noFreeName)
    /// Delivered to `path` (`detail`), but the source could not be removed: `errno` (`.sourceNotRemoved`).
    public static func sourceNotRemoved(deliveredTo path: String, _ errno: Errno) -> Self { Self(.sourceNotRemoved, errno: errno, detail: path) }

    /// The registry's error, for `.registry`.
    public var registryError: RegistryError? { cause }
}

/// The family of `RoutingError`: a file that was not routed.
public enum RoutingErrorDomain: ErrorDomain {
    /// What a routing error carries: the file's type when it was identified, and the error it comes from.
    public struct Cause: Hashable, Sendable {
        /// The file's type, when it was identified.
        public var type: UTType?
        /// The identification's error, for `.identification`.
        public var identificationError: IdentificationError?
        /// The delivery's error, for `.delivery`.
        public var deliveryError: DeliveryError?

        /// A cause with the file's type, when it was identified, and the error it comes from, if any.
        public init(type: UTType? = nil, identificationError: IdentificationError? = nil, deliveryError: DeliveryError? = nil) {
            self.type = type
            self.identificationError = identificationError
            self.deliveryError = deliveryError
        }
    }
}

/// A file that was not routed (and of which nothing was delivered): the file as it was given (`-` for
/// bytes without a path), what it is when it was identified (`type`), and why. New kinds may be added.
public typealias RoutingError = LocatedError<RoutingErrorDomain>

/// What a `RoutingError` adds: the file's type, when it was identified.
extension LocatedError where Domain == RoutingErrorDomain {
    /// The error for `path`, of `type`, for `reason`.
    public init(path: String, type: UTType?, reason: Reason) {
        var cause = reason.cause ?? RoutingErrorDomain.Cause()
        cause.type = type
        self.init(path: path, reason: Reason(reason.kind, errno: reason.errno, detail: reason.detail, subject: reason.subject, cause: cause))
    }

    /// What the file is, when it was identified.
    public var type: UTType? { reason.cause?.type }
}

/// The kinds of `RoutingError`.
extension ErrorKind where Domain == RoutingErrorDomain {
    /// The file could not be identified: unreadable, vanished ... (`cause`).
    public static let identification = Self("identification") { $0.identificationError?.message ?? "cannot be identified" }
    /// No registered app opens the file's type.
    public static let noHandler = Self("no-handler") { "no registered app opens \($0.typeNamed); nothing delivered" }
    /// The app asked for (`to:`, `subject`) is not registered.
    public static let targetNotRegistered = Self("target-not-registered") { "'\($0.subject ?? "")' is not registered" }
    /// The app asked for (`subject`) does not open the file's type.
    public static let targetDoesNotOpen = Self("target-does-not-open") {
        "\($0.subject ?? "the app") does not open \($0.typeNamed); nothing delivered"
    }
    /// Opening in place was asked of an app (`subject`) that does not declare `LSSupportsOpeningDocumentsInPlace`.
    public static let notOpenedInPlace = Self("not-opened-in-place") {
        "\($0.subject ?? "the app") does not open documents in place (LSSupportsOpeningDocumentsInPlace); nothing handed over"
    }
    /// The delivery to the app (`subject`) failed (`cause`).
    public static let delivery = Self("delivery") { $0.deliveryError?.description ?? "not delivered" }
    /// The file given is a symbolic link, and following links was not asked for.
    public static let symbolicLink = Self("symbolic-link") { _ in "a symbolic link; refused (follow it with -L/--follow); nothing delivered" }
}

/// The reasons of `RoutingError`, one for each kind, and what they carry.
extension ErrorReason where Domain == RoutingErrorDomain {
    /// The file could not be identified (`.identification`); `cause` carries `error`.
    public static func identification(_ error: IdentificationError) -> Self { Self(.identification, cause: .init(identificationError: error)) }
    /// No registered app opens the file's type (`.noHandler`).
    public static let noHandler = Self(.noHandler)
    /// The file given is a symbolic link, and following links was not asked for (`.symbolicLink`).
    public static let symbolicLink = Self(.symbolicLink)
    /// The app asked for, `bundleIdentifier`, is not registered (`.targetNotRegistered`, with it as `subject`).
    public static func targetNotRegistered(_ bundleIdentifier: String) -> Self { Self(.targetNotRegistered, subject: bundleIdentifier) }
    /// The app asked for, `bundleIdentifier`, does not open the file's type (`.targetDoesNotOpen`, with it as `subject`).
    public static func targetDoesNotOpen(_ bundleIdentifier: String) -> Self { Self(.targetDoesNotOpen, subject: bundleIdentifier) }
    /// Opening in place was asked of `bundleIdentifier`, which does not open documents in place (`.notOpenedInPlace`, with it as `subject`).
    public static func notOpenedInPlace(_ bundleIdentifier: String) -> Self { Self(.notOpenedInPlace, subject: bundleIdentifier) }
    /// The delivery to `bundleIdentifier` (`subject`) failed (`.delivery`); `cause` carries `error`.
    public static func delivery(_ error: DeliveryError, to bundleIdentifier: String) -> Self {
        Self(.delivery, subject: bundleIdentifier, cause: .init(deliveryError: error))
    }

    /// The app concerned: the one asked for, or the handler that was chosen.
    public var bundleIdentifier: String? { subject }
    /// The identification's error, for `.identification`.
    public var identificationError: IdentificationError? { cause?.identificationError }
    /// The delivery's error, for `.delivery`.
    public var deliveryError: DeliveryError? { cause?.deliveryError }
    /// The file's type, or "it".
    fileprivate var typeNamed: String { cause?.type?.identifier ?? "it" }
}
