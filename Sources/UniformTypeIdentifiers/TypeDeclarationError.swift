public import SystemPackage

/// A declaration that was refused, with the file and the entry it came from.
public struct TypeDeclarationError: Error, Hashable, Sendable, CustomStringConvertible, ErrorDomain {
    /// The file that holds the declaration, when there is one.
    public var file: String?
    /// Which entry: `UTExportedTypeDeclarations[3] (com.example.foo)`, when the problem is in one.
    public var entry: String?
    /// What is wrong.
    public var problem: Problem

    /// A refusal of a declaration in `file`, for `problem`.
    ///
    /// - Parameters:
    ///   - file: The file that holds the declaration, or `nil` when it came from no file.
    ///   - entry: Which entry, when the problem is in one rather than in the file as a whole.
    ///   - problem: What is wrong.
    public init(file: String?, entry: String? = nil, problem: Problem) {
        self.file = file
        self.entry = entry
        self.problem = problem
    }

    /// The error as `file: entry: problem`, leaving out the parts it does not have.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let entry { parts.append(entry) }
        parts.append(problem.description)
        return parts.joined(separator: ": ")
    }
}

extension TypeDeclarationError {
    /// What is wrong with a declaration: a kind, and the details that kind has.
    ///
    /// Compare with the static members (`error.problem == .missingIdentifier`,
    /// `error.problem.kind == .conformanceCycle`); new kinds may be added.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The kinds of problem.
        /// The kinds: `ErrorKind`, the known ones in its extension below.
        public typealias Kind = ErrorKind<TypeDeclarationError>

        /// What kind of problem this is; the fields it fills are said at each factory.
        public let kind: Kind
        /// The system's reason, for `.unreadable` files.
        public let errno: Errno?
        /// The identifier at fault, for `.invalidIdentifier`, `.dynamicIdentifier`, `.duplicateIdentifier`
        /// and `.undeclaredParent`.
        public let identifier: String?
        /// For `.wrongType`: the key, what it must be, and what it is.
        public let key: String?
        /// For `.wrongType`: what the value must be (`a string`, `an array`).
        public let expected: String?
        /// For `.wrongType`: what the value is.
        public let found: String?
        /// For `.conformanceCycle`: the cycle, its first type repeated at its end.
        public let cycle: [String]?
        /// Further detail: the parser's message for `.notAPropertyList`, the reason for an `.unreadable`
        /// file that is not a system error.
        public let detail: String?

        private init(_ kind: Kind, errno: Errno? = nil, identifier: String? = nil, key: String? = nil,
                     expected: String? = nil, found: String? = nil, cycle: [String]? = nil, detail: String? = nil) {
            self.kind = kind
            self.errno = errno
            self.identifier = identifier
            self.key = key
            self.expected = expected
            self.found = found
            self.cycle = cycle
            self.detail = detail
        }

        /// The file could not be read, for the system's reason.
        public static func unreadable(_ errno: Errno) -> Problem { Problem(.unreadable, errno: errno) }
        /// The file could not be read (too large, not a regular file ...).
        public static func unreadable(_ reason: String) -> Problem { Problem(.unreadable, detail: reason) }
        /// The file is not a property list with a dictionary at its top; `detail` is the parser's message.
        public static func notAPropertyList(_ reason: String) -> Problem { Problem(.notAPropertyList, detail: reason) }
        /// The file declares no types (it has neither `UTExportedTypeDeclarations` nor
        /// `UTImportedTypeDeclarations`).
        public static let noDeclarations = Problem(.noDeclarations)
        /// A value has the wrong property-list type; fills `key`, `expected` and `found`.
        ///
        /// - Parameters:
        ///   - key: The key whose value is wrong, or what the value is (`the entry`).
        ///   - expected: What the value must be, in words (`a string`).
        ///   - found: What the value is, in words.
        public static func wrongType(key: String, expected: String, found: String) -> Problem {
            Problem(.wrongType, key: key, expected: expected, found: found)
        }
        /// The entry has no `UTTypeIdentifier`.
        public static let missingIdentifier = Problem(.missingIdentifier)
        /// The identifier is not well formed; fills `identifier`.
        public static func invalidIdentifier(_ identifier: String) -> Problem { Problem(.invalidIdentifier, identifier: identifier) }
        /// A `dyn.*` identifier was declared; fills `identifier`.
        public static func dynamicIdentifier(_ identifier: String) -> Problem { Problem(.dynamicIdentifier, identifier: identifier) }
        /// The identifier is declared more than once with the same kind; fills `identifier`.
        public static func duplicateIdentifier(_ identifier: String) -> Problem { Problem(.duplicateIdentifier, identifier: identifier) }
        /// `UTTypeConformsTo` leads back to a type; fills `cycle`, its first type repeated at its end.
        public static func conformanceCycle(_ cycle: [String]) -> Problem { Problem(.conformanceCycle, cycle: cycle) }
        /// `UTTypeConformsTo` names a parent no declaration declares; fills `identifier` with the parent.
        public static func undeclaredParent(_ identifier: String) -> Problem { Problem(.undeclaredParent, identifier: identifier) }

        /// The problem in words, with the details its kind has.
        public var description: String {
            switch kind {
            case .unreadable:
                "cannot read the file: \(errno?.description ?? detail ?? "unknown reason")"
            case .notAPropertyList:
                "not a property list with a dictionary at its top: \(detail ?? "")"
            case .noDeclarations:
                "declares no types (no UTExportedTypeDeclarations or UTImportedTypeDeclarations)"
            case .wrongType:
                "\(key ?? "a value") must be \(expected ?? "another type"), not \(found ?? "what it is")"
            case .missingIdentifier:
                "UTTypeIdentifier is missing"
            case .invalidIdentifier:
                "'\(identifier ?? "")' is not a valid type identifier (letters, digits, '-' and '.'; no '/', ':' or spaces)"
            case .dynamicIdentifier:
                "'\(identifier ?? "")' is a dynamic identifier; dyn.* identifiers cannot be declared"
            case .duplicateIdentifier:
                "'\(identifier ?? "")' is declared more than once"
            case .conformanceCycle:
                "UTTypeConformsTo forms a cycle: " + (cycle ?? []).joined(separator: " -> ")
            case .undeclaredParent:
                "UTTypeConformsTo names '\(identifier ?? "")', which no file declares"
            default:
                kind.rawValue
            }
        }
    }
}

extension ErrorKind where Domain == TypeDeclarationError {
    /// The file could not be read.
    public static let unreadable: Self = "unreadable"
    /// The file is not a property list, or its top level is not a dictionary.
    public static let notAPropertyList: Self = "not-a-property-list"
    /// The file declares no types at all.
    public static let noDeclarations: Self = "no-declarations"
    /// A value has the wrong property-list type, e.g. a tag that is a number.
    public static let wrongType: Self = "wrong-type"
    /// The entry has no `UTTypeIdentifier`.
    public static let missingIdentifier: Self = "missing-identifier"
    /// The identifier holds characters identifiers may not hold (`/`, `:`, spaces...).
    public static let invalidIdentifier: Self = "invalid-identifier"
    /// A `dyn.*` identifier was declared: dynamic identifiers are never declared.
    public static let dynamicIdentifier: Self = "dynamic-identifier"
    /// The same identifier is declared twice with the same kind in one set of declarations.
    public static let duplicateIdentifier: Self = "duplicate-identifier"
    /// Following `UTTypeConformsTo` leads back to the type.
    public static let conformanceCycle: Self = "conformance-cycle"
    /// A parent that no declaration in force declares, where every parent must be declared.
    public static let undeclaredParent: Self = "undeclared-parent"
}
