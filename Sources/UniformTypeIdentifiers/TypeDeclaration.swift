/// One type declaration, as an `Info.plist` or a TypeDB file states it.
///
/// The fields are Apple's `UTExportedTypeDeclarations` / `UTImportedTypeDeclarations` keys:
/// `UTTypeIdentifier`, `UTTypeConformsTo`, `UTTypeDescription`, `UTTypeReferenceURL`,
/// `UTTypeVersion` and `UTTypeTagSpecification`.
public struct TypeDeclaration: Hashable, Sendable {
    /// Whether the declaring party owns the type (exported) or describes someone else's (imported).
    /// An exported declaration of an identifier always beats an imported one.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The declaring party owns the type (`UTExportedTypeDeclarations`).
        case exported
        /// The declaring party describes a type someone else owns (`UTImportedTypeDeclarations`).
        case imported
    }

    /// The type identifier, such as `public.jpeg`.
    public var identifier: String
    /// The identifiers of the direct supertypes, in declaration order.
    public var conformsTo: [String]
    /// The human-readable description (`UTTypeDescription`), if the declaration gives one.
    public var typeDescription: String?
    /// `UTTypeReferenceURL`, if the declaration gives one.
    public var referenceURL: String?
    /// `UTTypeVersion`, if the declaration gives one.
    public var version: Int?
    /// The tags by class; each list is in declaration order, the first being the preferred tag.
    public var tags: [UTTagClass: [String]]
    /// Exported or imported.
    public var kind: Kind
    /// The file the declaration was read from, if any.
    public var source: String?

    /// A declaration of `identifier` with the given fields; the ones left out are empty or absent.
    ///
    /// The identifier is not checked here; ``TypeDatabase/register(_:owner:)`` checks it.
    ///
    /// - Parameters:
    ///   - identifier: The type identifier, such as `public.jpeg`.
    ///   - conformsTo: The identifiers of the direct supertypes, in declaration order.
    ///   - typeDescription: The human-readable description, if any.
    ///   - referenceURL: `UTTypeReferenceURL`, if any.
    ///   - version: `UTTypeVersion`, if any.
    ///   - tags: The tags by class, each list's first tag being the preferred one.
    ///   - kind: Whether the declaration is exported or imported.
    ///   - source: The file the declaration was read from, if any.
    public init(
        identifier: String,
        conformsTo: [String] = [],
        typeDescription: String? = nil,
        referenceURL: String? = nil,
        version: Int? = nil,
        tags: [UTTagClass: [String]] = [:],
        kind: Kind = .exported,
        source: String? = nil
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.typeDescription = typeDescription
        self.referenceURL = referenceURL
        self.version = version
        self.tags = tags
        self.kind = kind
        self.source = source
    }
}

extension TypeDeclaration {
    /// Whether `identifier` is a well-formed type identifier.
    ///
    /// Identifiers are made of ASCII letters and digits, `-` and `.`, and any character above
    /// U+007F; they neither start nor end with a dot and hold no empty component:
    ///
    ///     public.jpeg          => valid
    ///     com.example.my-type  => valid
    ///     image/jpeg           => invalid (`/`)
    ///     com.example:foo      => invalid (`:`)
    ///     my type              => invalid (space)
    public static func isValidIdentifier(_ identifier: String) -> Bool {
        guard let first = identifier.utf8.first, let last = identifier.utf8.last,
              first != UInt8(ascii: "."), last != UInt8(ascii: "."), !identifier.contains("..")
        else { return false }
        return identifier.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true  // 0-9 A-Z a-z
            case 0x2D, 0x2E: true  // - .
            case 0x80...: !scalar.properties.isWhitespace
            default: false
            }
        }
    }
}
