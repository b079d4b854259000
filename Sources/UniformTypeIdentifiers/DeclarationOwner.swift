/// Who registered type declarations in a `TypeDatabase`, which decides what they may replace: the system's
/// declarations win over an app's, and an exported type belongs to the app that exported it first.
///
///     TypeDatabase.shared.register(fromFile, owner: .system)                  // may replace a built-in type
///     TypeDatabase.shared.register(manifest.declarations, owner: .app("com.example.viewer"))
public struct DeclarationOwner: Hashable, Sendable, CustomStringConvertible {
    /// The app's bundle identifier, compared without regard to case; `nil` for the system.
    public let bundleIdentifier: String?

    private init(bundleIdentifier: String?) {
        self.bundleIdentifier = bundleIdentifier
    }

    /// The system: the built-in types, and declaration files that the user or the administrator loads
    /// (`UTI_TYPES_PATH`, `registerDeclarations(contentsOfFile:)`). They may replace a built-in declaration.
    public static let system = DeclarationOwner(bundleIdentifier: nil)

    /// An app, by its bundle identifier: its declarations never replace the system's or another app's
    /// export, and it may not export a `public.*` identifier.
    public static func app(_ bundleIdentifier: String) -> DeclarationOwner {
        DeclarationOwner(bundleIdentifier: bundleIdentifier)
    }

    /// Whether the owner is an app.
    public var isApp: Bool { bundleIdentifier != nil }

    /// The app's bundle identifier, or `the system`.
    public var description: String { bundleIdentifier ?? "the system" }

    /// Whether two owners are the same: both the system, or apps whose bundle identifiers are equal
    /// without regard to case.
    public static func == (lhs: DeclarationOwner, rhs: DeclarationOwner) -> Bool {
        lhs.bundleIdentifier?.lowercased() == rhs.bundleIdentifier?.lowercased()
    }

    /// Hashes the bundle identifier folded to lowercase, as equality compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bundleIdentifier?.lowercased())
    }
}
