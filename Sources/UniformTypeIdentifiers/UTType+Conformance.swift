extension UTType {
    /// Whether the type is `type` or a subtype of it. Constant-time in the number of types.
    ///
    ///     UTType.jpeg.conforms(to: .image)   => true
    ///     UTType.jpeg.conforms(to: .jpeg)    => true
    ///     UTType.image.conforms(to: .jpeg)   => false
    public func conforms(to type: UTType) -> Bool {
        // Two built-in types, while no registered declaration replaces a built-in one: their precomputed
        // ancestors, with no lookup, no lock and no allocation.
        if builtInIndex >= 0, type.builtInIndex >= 0 {
            if builtInIndex == type.builtInIndex { return true }
            if TypeDatabase.shared.builtInAncestryHolds, let builtIn = CompiledTypeDatabase.builtIn {
                return builtIn.type(Int(builtInIndex), hasAncestor: Int(type.builtInIndex))
            }
        }
        let database = TypeDatabase.shared
        if key == type.key { return true }
        let overlay = database.snapshot
        if !isDynamic, undeclaredParents.isEmpty, database.resolve(key: key, in: overlay) != nil {
            return database.declaredType(key, hasAncestor: type.key, in: overlay)
        }
        return database.ancestorKeys(ofParents: parentKeys(database, overlay), in: overlay).contains(type.key)
    }

    /// Whether the type conforms to `type` and is not `type` itself.
    public func isSubtype(of type: UTType) -> Bool {
        key != type.key && conforms(to: type)
    }

    /// Whether `type` conforms to this type and is not this type itself.
    public func isSupertype(of type: UTType) -> Bool {
        type.isSubtype(of: self)
    }

    /// Every type this type conforms to, directly or not, itself excluded.
    public var supertypes: Set<UTType> {
        Set(orderedSupertypes)
    }

    /// The supertypes depth-first in declaration order: the order in which properties are inherited.
    public var orderedSupertypes: [UTType] {
        if let (builtIn, index) = builtInDeclaration {
            return builtIn.ancestorTypes(ofType: index)
        }
        let database = TypeDatabase.shared
        let overlay = database.snapshot
        return database.ancestorKeys(ofParents: parentKeys(database, overlay), in: overlay).map { key in
            if let identifier = database.canonicalIdentifier(forKey: key, in: overlay) {
                return UTType(declaredIdentifier: identifier)
            }
            return UTType(undeclaredIdentifier: key, conformingTo: [])
        }
    }

    /// The direct supertypes, in declaration order.
    public var directSupertypes: [UTType] {
        if let (builtIn, index) = builtInDeclaration {
            return builtIn.parentTypes(ofType: index)
        }
        let database = TypeDatabase.shared
        let overlay = database.snapshot
        return parentKeys(database, overlay).map { key in
            if let identifier = database.canonicalIdentifier(forKey: key, in: overlay) {
                return UTType(declaredIdentifier: identifier)
            }
            return UTType(undeclaredIdentifier: key, conformingTo: [])
        }
    }
}

/// Built-in types by their place in the compiled database, for tables another module derives from the
/// built-in types alone (the readers' kinds of formats): plain integers, so that such a table is read with no
/// reference counted and no lock taken.
extension UTType {
    /// The type's place in the built-in database, while that database's ancestry is in force (no registered
    /// declaration replaces a built-in type); `nil` for any other type.
    package var builtInOrdinal: Int? {
        builtInIndex >= 0 && TypeDatabase.shared.builtInAncestryHolds ? Int(builtInIndex) : nil
    }

    /// The number of built-in types: every `builtInOrdinal` is below it.
    package static var builtInCount: Int { CompiledTypeDatabase.builtIn?.typeCount ?? 0 }

    /// Whether the built-in type at `ordinal` conforms to the one at `ancestor`, by the built-in
    /// declarations alone.
    package static func builtIn(_ ordinal: Int, conformsTo ancestor: Int) -> Bool {
        guard ordinal != ancestor else { return true }
        return CompiledTypeDatabase.builtIn?.type(ordinal, hasAncestor: ancestor) ?? false
    }

    /// Whether `body` holds for the built-in type at `ordinal` or for any of its built-in ancestors, asked in turn.
    package static func anyBuiltIn(inLineageOf ordinal: Int, _ body: (Int) -> Bool) -> Bool {
        if body(ordinal) { return true }
        return CompiledTypeDatabase.builtIn?.anyAncestor(ofType: ordinal, body) ?? false
    }

    /// The built-in types with tags of `tagClass`, in the database's order, and each one's tags of it.
    package static func builtInTags(of tagClass: UTTagClass) -> [(ordinal: Int, tags: [String])] {
        guard let builtIn = CompiledTypeDatabase.builtIn else { return [] }
        return builtIn.typeIndices(forTagClassKey: tagClass.key, tagKey: "").map { ($0, builtIn.tags(ofType: $0, tagClass: tagClass.key)) }
    }

    /// The built-in type with this identifier (any case), by the built-in declarations alone.
    package static func builtInOrdinal(ofIdentifier identifier: String) -> Int? {
        CompiledTypeDatabase.builtIn?.typeIndex(foldingASCII: identifier)
    }
}
