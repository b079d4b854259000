extension UTType {
    /// Whether the type is dynamic: it stands for a tag no declared type claims.
    public var isDynamic: Bool { key.hasPrefix("dyn.") }

    /// The compiled database and the type's index in it, while its built-in declaration is in force (no
    /// registered declaration replaces a built-in one): what the properties read directly, without a snapshot
    /// of the registered declarations or a `TypeDeclaration` made for one field.
    var builtInDeclaration: (database: CompiledTypeDatabase, index: Int)? {
        guard builtInIndex >= 0 else { return nil }
        let database = TypeDatabase.shared
        guard database.builtInAncestryHolds, let builtIn = database.builtIn else { return nil }
        return (builtIn, Int(builtInIndex))
    }

    /// Whether the database declares the type (built in or registered).
    public var isDeclared: Bool {
        if builtInDeclaration != nil { return true }
        let database = TypeDatabase.shared
        return database.resolve(key: key, in: database.snapshot) != nil
    }

    /// Whether the type is in the reserved `public` domain.
    public var isPublic: Bool { key.hasPrefix("public.") }

    /// The human-readable description. A declaration without one inherits it from its supertypes,
    /// depth-first in declaration order; dynamic types have none.
    public var localizedDescription: String? {
        inheritedProperty({ $0.typeDescription(ofType: $1) }, { $0.typeDescription })
    }

    /// `UTTypeVersion`, inherited like `localizedDescription`.
    public var version: Int? {
        inheritedProperty({ $0.version(ofType: $1) }, { $0.version })
    }

    /// `UTTypeReferenceURL`, inherited like `localizedDescription`.
    public var referenceURL: URL? {
        inheritedProperty({ $0.referenceURL(ofType: $1) }, { $0.referenceURL }).flatMap { URL(string: $0) }
    }

    /// The property of the type's declaration, or of the first supertype's that has it (depth-first in
    /// declaration order): read from the compiled database while the built-in declarations are in force.
    private func inheritedProperty<T>(_ builtInProperty: (CompiledTypeDatabase, Int) -> T?,
                                      _ property: (TypeDeclaration) -> T?) -> T? {
        if let (builtIn, index) = builtInDeclaration {
            if let value = builtInProperty(builtIn, index) { return value }
            for ancestor in builtIn.ancestors(ofType: index) {
                if let value = builtInProperty(builtIn, ancestor) { return value }
            }
            return nil
        }
        guard !isDynamic else { return nil }
        let database = TypeDatabase.shared
        let overlay = database.snapshot
        if let declaration = database.declaration(forKey: key, in: overlay) {
            if let value = property(declaration) { return value }
        }
        for ancestor in database.ancestorKeys(ofParents: parentKeys(database, overlay), in: overlay) {
            if let declaration = database.declaration(forKey: ancestor, in: overlay), let value = property(declaration) {
                return value
            }
        }
        return nil
    }

    func parentKeys(_ database: TypeDatabase, _ overlay: TypeDatabase.Overlay) -> [String] {
        if isDynamic {
            return DynamicTypeIdentifier(identifier: identifier)?.conformsTo.map { $0.lowercased() } ?? []
        }
        if database.resolve(key: key, in: overlay) != nil {
            return database.parentKeys(of: key, in: overlay)
        }
        return undeclaredParents
    }
}

#if canImport(FoundationEssentials)
public import struct FoundationEssentials.URL
#else
public import struct Foundation.URL
#endif
