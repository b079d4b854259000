/// A registered declaration that is not in force, and why: what `TypeDatabase.ignoredDeclarations(of:)`
/// lists, so that whoever registered it can be told (`uti apps register` and `uti apps check` print them).
public struct IgnoredDeclaration: Hashable, Sendable, CustomStringConvertible {
    /// Why a declaration is not in force.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The system declares the type (built in, or in a declaration file); its declaration is in force.
        case declaredBySystem
        /// An app exported a `public.*` identifier: those are the system's to declare.
        case publicIdentifier
        /// An exported declaration of the type is in force, by this owner: an imported declaration never
        /// replaces an exported one, and an app's export never replaces one made before it by another app.
        case exportedBy(DeclarationOwner)
        /// Another app's imported declaration of the type came first (both describe a type neither owns).
        case importedBy(DeclarationOwner)
        /// A later registration by the system, of the same kind, replaced it.
        case replaced

        /// The reason as a sentence fragment for people, naming the owner whose declaration is in force.
        public var description: String {
            switch self {
            case .declaredBySystem: "the system declares this type, and its declaration is in force"
            case .publicIdentifier: "public identifiers are the system's: an app may import one, never export it"
            case .exportedBy(let owner) where owner.isApp: "exported by \(owner), which registered it first; an exported type belongs to its exporter"
            case .exportedBy: "the system exports this type, and its declaration is in force"
            case .importedBy(let owner): "\(owner) registered its declaration of this type first"
            case .replaced: "replaced by a later declaration"
            }
        }
    }

    /// The declaration kept out of lookups.
    public var declaration: TypeDeclaration
    /// Who registered it.
    public var owner: DeclarationOwner
    /// Why it is not in force.
    public var reason: Reason

    /// A record that `owner`'s `declaration` is not in force, for `reason`.
    ///
    /// - Parameters:
    ///   - declaration: The declaration kept out of lookups.
    ///   - owner: Who registered it.
    ///   - reason: Why it is not in force.
    public init(declaration: TypeDeclaration, owner: DeclarationOwner, reason: Reason) {
        self.declaration = declaration
        self.owner = owner
        self.reason = reason
    }

    /// The manifest key it came from (`UTExportedTypeDeclarations` or `UTImportedTypeDeclarations`).
    public var key: String { declaration.kind == .exported ? "UTExportedTypeDeclarations" : "UTImportedTypeDeclarations" }

    /// The ignored declaration as `key: identifier: ignored: reason`, as problem reports give it.
    public var description: String { "\(key): \(declaration.identifier): ignored: \(reason)" }
}
