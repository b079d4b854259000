extension UTType {
    /// Whether the type is dynamic: it stands for a tag no declared type claims.
    public var isDynamic: Bool { key.hasPrefix("dyn.") }

    /// Whether the database declares the type (built in or registered).
    public var isDeclared: Bool {
        let database = TypeDatabase.shared
        return database.resolve(key: key, in: database.snapshot) != nil
    }

    /// Whether the type is in the reserved `public` domain.
    public var isPublic: Bool { key.hasPrefix("public.") }

    /// The human-readable description. A declaration without one inherits it from its supertypes,
    /// depth-first in declaration order; dynamic types have none.
    public var localizedDescription: String? {
        inheritedProperty { $0.typeDescription }
    }

    /// `UTTypeVersion`, inherited like `localizedDescription`.
    public var version: Int? {
        inheritedProperty { $0.version }
    }

    /// `UTTypeReferenceURL`, inherited like `localizedDescription`.
    public var referenceURL: URL? {
        inheritedProperty { $0.referenceURL }.flatMap { URL(string: $0) }
    }

    private func inheritedProperty<T>(_ property: (TypeDeclaration) -> T?) -> T? {
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
