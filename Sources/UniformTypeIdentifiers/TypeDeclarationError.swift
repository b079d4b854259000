/// A declaration that was refused, with the file and the entry it came from.
public struct TypeDeclarationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the declaration.
    public enum Problem: Hashable, Sendable {
        /// The file could not be read.
        case unreadable(String)
        /// The file is not a property list, or its top level is not a dictionary.
        case notAPropertyList(String)
        /// The file declares no types at all.
        case noDeclarations
        /// A value has the wrong property-list type, e.g. a tag that is a number.
        case wrongType(key: String, expected: String, found: String)
        /// The entry has no `UTTypeIdentifier`.
        case missingIdentifier
        /// The identifier contains characters identifiers may not hold (`/`, `:`, spaces...).
        case invalidIdentifier(String)
        /// A `dyn.*` identifier was declared: dynamic identifiers are never declared.
        case dynamicIdentifier(String)
        /// The same identifier is declared twice with the same kind in one set of declarations.
        case duplicateIdentifier(String)
        /// Following `UTTypeConformsTo` leads back to the type: the cycle, first type repeated at the end.
        case conformanceCycle([String])
    }

    /// The file that holds the declaration, when there is one.
    public var file: String?
    /// Which entry: `UTExportedTypeDeclarations[3] (com.example.foo)`, when the problem is in one.
    public var entry: String?
    public var problem: Problem

    public init(file: String?, entry: String? = nil, problem: Problem) {
        self.file = file
        self.entry = entry
        self.problem = problem
    }

    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let entry { parts.append(entry) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }

    private var message: String {
        switch problem {
        case .unreadable(let reason):
            "cannot read the file: \(reason)"
        case .notAPropertyList(let reason):
            "not a property list with a dictionary at its top: \(reason)"
        case .noDeclarations:
            "declares no types (no UTExportedTypeDeclarations or UTImportedTypeDeclarations)"
        case .wrongType(let key, let expected, let found):
            "\(key) must be \(expected), not \(found)"
        case .missingIdentifier:
            "UTTypeIdentifier is missing"
        case .invalidIdentifier(let identifier):
            "'\(identifier)' is not a valid type identifier (letters, digits, '-' and '.'; no '/', ':' or spaces)"
        case .dynamicIdentifier(let identifier):
            "'\(identifier)' is a dynamic identifier; dyn.* identifiers cannot be declared"
        case .duplicateIdentifier(let identifier):
            "'\(identifier)' is declared more than once"
        case .conformanceCycle(let cycle):
            "UTTypeConformsTo forms a cycle: " + cycle.joined(separator: " -> ")
        }
    }
}
