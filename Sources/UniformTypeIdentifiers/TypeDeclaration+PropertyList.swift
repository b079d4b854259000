#if canImport(FoundationEssentials)
public import struct FoundationEssentials.Data
#else
public import struct Foundation.Data
#endif

extension TypeDeclaration {
    /// The declarations in a property list: a TypeDB file, a declaration file or an app's `Info.plist`,
    /// XML or binary, with `UTExportedTypeDeclarations` and/or `UTImportedTypeDeclarations`.
    ///
    /// Exported declarations come first, then imported ones, each in file order.
    ///
    /// - Parameters:
    ///   - data: The property-list bytes.
    ///   - source: The file name to record in each declaration and to name in errors.
    ///   - requireDeclarations: Whether a property list without any declaration is an error (it is
    ///     for a declaration file; an app's `Info.plist` may declare no types).
    /// - Throws: `TypeDeclarationError` naming the file, the entry and the problem.
    public static func declarations(
        fromPropertyList data: Data, source: String?, requireDeclarations: Bool = true
    ) throws(TypeDeclarationError) -> [TypeDeclaration] {
        let root: [String: PropertyListValue]
        do {
            root = try PropertyListValue.dictionary(from: Array(data), limits: PropertyListLimits(size: DeclarationFiles.sizeLimit))
        } catch {
            throw TypeDeclarationError(file: source, problem: .notAPropertyList(error.message))
        }
        return try declarations(fromPropertyListRoot: root, source: source, requireDeclarations: requireDeclarations)
    }

    /// The declarations in the property-list file at `path`; see `declarations(fromPropertyList:source:)`.
    public static func declarations(contentsOfFile path: String, requireDeclarations: Bool = true) throws(TypeDeclarationError) -> [TypeDeclaration] {
        let bytes = try DeclarationFiles.read(path)
        return try declarations(fromPropertyList: Data(bytes), source: path, requireDeclarations: requireDeclarations)
    }

    package static func declarations(
        fromPropertyListRoot root: [String: PropertyListValue], source: String?, requireDeclarations: Bool
    ) throws(TypeDeclarationError) -> [TypeDeclaration] {
        var result: [TypeDeclaration] = []
        var sawKey = false
        for (key, kind) in [("UTExportedTypeDeclarations", Kind.exported), ("UTImportedTypeDeclarations", .imported)] {
            guard let value = root[key] else { continue }
            sawKey = true
            guard case .array(let entries) = value else {
                throw TypeDeclarationError(file: source, problem: .wrongType(key: key, expected: "an array", found: value.typeName))
            }
            for (index, entry) in entries.enumerated() {
                result.append(try declaration(from: entry, kind: kind, entry: "\(key)[\(index)]", source: source))
            }
        }
        if requireDeclarations && (!sawKey || result.isEmpty) {
            throw TypeDeclarationError(file: source, problem: .noDeclarations)
        }
        return result
    }

    private static func declaration(
        from value: PropertyListValue, kind: Kind, entry: String, source: String?
    ) throws(TypeDeclarationError) -> TypeDeclaration {
        func fail(_ problem: TypeDeclarationError.Problem, _ entry: String) -> TypeDeclarationError {
            TypeDeclarationError(file: source, entry: entry, problem: problem)
        }
        guard case .dictionary(let fields) = value else {
            throw fail(.wrongType(key: "the entry", expected: "a dictionary", found: value.typeName), entry)
        }
        guard let identifierValue = fields["UTTypeIdentifier"] else { throw fail(.missingIdentifier, entry) }
        guard case .string(let identifier) = identifierValue else {
            throw fail(.wrongType(key: "UTTypeIdentifier", expected: "a string", found: identifierValue.typeName), entry)
        }
        let named = "\(entry) (\(identifier))"
        guard isValidIdentifier(identifier) else { throw fail(.invalidIdentifier(identifier), named) }
        guard !identifier.lowercased().hasPrefix("dyn.") else { throw fail(.dynamicIdentifier(identifier), named) }

        func strings(_ key: String, _ value: PropertyListValue?) throws(TypeDeclarationError) -> [String] {
            switch value {
            case nil: return []
            case .string(let string): return [string]
            case .array(let items):
                var result: [String] = []
                for item in items {
                    guard case .string(let string) = item else {
                        throw fail(.wrongType(key: key, expected: "a string or an array of strings", found: "an array holding \(item.typeName)"), named)
                    }
                    result.append(string)
                }
                return result
            case .some(let other):
                throw fail(.wrongType(key: key, expected: "a string or an array of strings", found: other.typeName), named)
            }
        }
        func string(_ key: String) throws(TypeDeclarationError) -> String? {
            switch fields[key] {
            case nil: return nil
            case .string(let string): return string
            case .some(let other): throw fail(.wrongType(key: key, expected: "a string", found: other.typeName), named)
            }
        }

        let conformsTo = try strings("UTTypeConformsTo", fields["UTTypeConformsTo"])
        for parent in conformsTo where !isValidIdentifier(parent) {
            throw fail(.invalidIdentifier(parent), named + " UTTypeConformsTo")
        }
        var tags: [UTTagClass: [String]] = [:]
        switch fields["UTTypeTagSpecification"] {
        case nil: break
        case .dictionary(let specification):
            for (tagClass, values) in specification {
                let list = try strings("UTTypeTagSpecification.\(tagClass)", values)
                if !list.isEmpty { tags[UTTagClass(rawValue: tagClass)] = list }
            }
        case .some(let other):
            throw fail(.wrongType(key: "UTTypeTagSpecification", expected: "a dictionary", found: other.typeName), named)
        }
        var version: Int?
        switch fields["UTTypeVersion"] {
        case nil: break
        case .integer(let number): version = number
        case .string(let text):
            guard let number = Int(text) else {
                throw fail(.wrongType(key: "UTTypeVersion", expected: "an integer", found: "the string '\(text)'"), named)
            }
            version = number
        case .some(let other):
            throw fail(.wrongType(key: "UTTypeVersion", expected: "an integer", found: other.typeName), named)
        }
        return TypeDeclaration(
            identifier: identifier,
            conformsTo: conformsTo,
            typeDescription: try string("UTTypeDescription"),
            referenceURL: try string("UTTypeReferenceURL"),
            version: version,
            tags: tags,
            kind: kind,
            source: source
        )
    }

}
