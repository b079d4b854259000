/// A type of data: a file format, a family of formats, or an abstract kind such as `public.content`.
///
/// Types form a hierarchy with many parents: `public.jpeg` conforms to `public.image`, which
/// conforms to `public.data` (and so to `public.item`) and to `public.content`. A type is named
/// by its identifier; identifiers compare case-insensitively.
///
/// A type is *declared* when the database (built-in or registered declarations) knows it, and
/// *dynamic* when it stands for a tag no declared type claims (`dyn.ah62d4rv4ge8043a` is the
/// filename extension `md` conforming to `public.data`). A type made with
/// `init(exportedAs:conformingTo:)` for an identifier nobody declares is neither.
public struct UTType: Sendable {
    /// The type's identifier, as its declaration spells it (`public.jpeg`).
    public let identifier: String
    /// What few types have: a key other than the identifier (folding changes it), supertypes given by the
    /// type's creator. `nil` for nearly every type, so that a copy retains the identifier and nothing else.
    private let extra: Extra?
    /// Where the built-in database declares the type, `-1` where it does not: found once, when the type is
    /// made, so that conformance between built-in types is a look at precomputed ancestors and nothing else.
    let builtInIndex: Int32

    private final class Extra: Sendable {
        let key: String
        let parents: [String]

        init(key: String, parents: [String]) {
            self.key = key
            self.parents = parents
        }
    }

    /// The identifier folded for comparison.
    var key: String { extra?.key ?? identifier }
    /// For a type that is neither declared nor dynamic: the supertypes its creator gave.
    var undeclaredParents: [String] { extra?.parents ?? [] }

    private init(identifier: String, key: String, parents: [String], builtInIndex: Int32) {
        self.identifier = identifier
        self.extra = key == identifier && parents.isEmpty ? nil : Extra(key: key, parents: parents)
        self.builtInIndex = builtInIndex
    }

    package init(declaredIdentifier identifier: String) {
        let key = identifier.lowercased()
        self.init(identifier: identifier, key: key, parents: [],
                  builtInIndex: CompiledTypeDatabase.builtIn?.typeIndex(forKey: key).map { Int32(truncatingIfNeeded: $0) } ?? -1)
    }

    /// The built-in type at `index` of `builtIn`: its identifier and key read from the database, nothing folded
    /// or compared.
    init(builtIn: CompiledTypeDatabase, index: Int) {
        identifier = builtIn.identifier(ofType: index)
        extra = builtIn.keyIsIdentifier(ofType: index) ? nil : Extra(key: builtIn.key(ofType: index), parents: [])
        builtInIndex = Int32(truncatingIfNeeded: index)
    }

    init(undeclaredIdentifier identifier: String, conformingTo parents: [String]) {
        self.init(identifier: identifier, key: identifier.lowercased(), parents: parents.map { $0.lowercased() }, builtInIndex: -1)
    }

    /// The type with this identifier, or `nil` when the identifier is neither declared nor a valid
    /// dynamic identifier.
    ///
    ///     UTType("public.jpeg")            => public.jpeg
    ///     UTType("PUBLIC.JPEG")            => public.jpeg
    ///     UTType("dyn.ah62d4rv4ge8043a")   => the dynamic type of the extension md
    ///     UTType("com.example.unknown")    => nil
    public init?(_ identifier: String) {
        self.init(identifier: identifier, allowUndeclared: false)
    }

    /// The type with this identifier; with `allowUndeclared`, a type that keeps the identifier's
    /// identity even when nothing declares it (it is then neither dynamic nor declared, and has no
    /// supertypes). `nil` when `identifier` is not a valid identifier.
    public init?(identifier: String, allowUndeclared: Bool) {
        let database = TypeDatabase.shared
        // A built-in identifier, while no registered declaration replaces a built-in one (only such a
        // declaration could answer for a built-in key): the compiled index alone, nothing copied.
        if database.builtInAncestryHolds, let builtIn = CompiledTypeDatabase.builtIn,
           let index = builtIn.typeIndex(foldingASCII: identifier) {
            self.init(builtIn: builtIn, index: index)
            return
        }
        let key = identifier.lowercased()
        if let canonical = database.canonicalIdentifier(forKey: key, in: database.snapshot) {
            self.init(declaredIdentifier: canonical)
        } else if key.hasPrefix("dyn.") {
            guard DynamicTypeIdentifier(identifier: identifier) != nil else { return nil }
            self.init(declaredIdentifier: identifier)
        } else if allowUndeclared && TypeDeclaration.isValidIdentifier(identifier) {
            self.init(undeclaredIdentifier: identifier, conformingTo: [])
        } else {
            return nil
        }
    }

    /// The type your program exports with this identifier.
    ///
    /// When a declaration of `identifier` is registered (or built in), that declaration is used.
    /// Otherwise the result keeps the identifier and conforms to `parentType`, without being declared.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(claimedIdentifier: identifier, conformingTo: parentType)
    }

    /// The type your program imports with this identifier; see `init(exportedAs:conformingTo:)`.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(claimedIdentifier: identifier, conformingTo: parentType)
    }

    private init(claimedIdentifier identifier: String, conformingTo parentType: UTType?) {
        let database = TypeDatabase.shared
        if let canonical = database.canonicalIdentifier(forKey: identifier.lowercased(), in: database.snapshot) {
            self.init(declaredIdentifier: canonical)
        } else {
            self.init(undeclaredIdentifier: identifier, conformingTo: parentType.map { [$0.identifier] } ?? [])
        }
    }
}

extension UTType: Hashable {
    // A built-in key always finds its index, so two types are the same built-in type exactly when their
    // indexes are equal, and a built-in type is never equal to one that is not.
    /// Whether two types are the same type: their identifiers are equal without regard to case.
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        if lhs.builtInIndex >= 0 || rhs.builtInIndex >= 0 { return lhs.builtInIndex == rhs.builtInIndex }
        return lhs.key == rhs.key
    }

    /// Hashes the type's identity, so that types equal under `==` hash alike.
    public func hash(into hasher: inout Hasher) {
        if builtInIndex >= 0 { hasher.combine(builtInIndex) } else { hasher.combine(key) }
    }
}

extension UTType: CustomStringConvertible, CustomDebugStringConvertible {
    /// The identifier.
    public var description: String { identifier }

    /// The identifier, followed by the type's description in parentheses when it has one.
    public var debugDescription: String {
        if let localizedDescription { return "\(identifier) (\(localizedDescription))" }
        return identifier
    }
}

extension UTType: Codable {
    /// Decodes a type from its identifier; an identifier nothing declares keeps its identity
    /// (see `init(identifier:allowUndeclared:)`) so that stored data survives a missing declaration.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard let type = UTType(identifier: identifier, allowUndeclared: true) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(identifier)' is not a type identifier")
        }
        self = type
    }

    /// Encodes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
