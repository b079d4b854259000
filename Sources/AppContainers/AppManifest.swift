#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import SystemCalls
internal import SystemPackage
public import UniformTypeIdentifiers

/// What an app's `Info.plist` says about the documents it handles and the types it declares.
public struct AppManifest: Sendable, Hashable {
    /// `CFBundleIdentifier`, such as `com.example.viewer`.
    public var bundleIdentifier: String
    /// `CFBundleName` (or `CFBundleDisplayName`), else the bundle identifier.
    public var name: String
    /// `CFBundleDocumentTypes`, in declaration order.
    public var documentTypes: [DocumentType]
    /// `UTExportedTypeDeclarations` and `UTImportedTypeDeclarations`: they join the type database while
    /// the app is registered.
    public var declarations: [TypeDeclaration]
    /// `LSSupportsOpeningDocumentsInPlace`: the app can open a document where it is, without a copy.
    public var supportsOpeningDocumentsInPlace: Bool
    /// `UIFileSharingEnabled`: the app shares its Documents folder with the user.
    public var fileSharingEnabled: Bool
    /// `com.apple.security.application-groups`: the application groups the app belongs to, each with one
    /// container its members share (`Shared/AppGroup/<group>/`). Each is `group.` or a team identifier
    /// (ten capital letters and digits) and a dot, then a name (see `isValidApplicationGroup`).
    public var applicationGroups: [String] = []
    /// `com.apple.developer.team-identifier`: the publisher's team identifier (ten ASCII capital letters
    /// and digits), the evidence that ties an app to an application group its other members made (see
    /// `Registry`'s application groups).
    public var teamIdentifier: String?
    /// The app's iCloud (ubiquity) containers: those `com.apple.developer.icloud-container-identifiers` names,
    /// then those of `com.apple.developer.ubiquity-container-identifiers` it does not (`iCloud.com.example.app`,
    /// or a team identifier's `ABCDE12345.com.example.app`). The first is the app's primary container, the one
    /// `Registry.path(ofUbiquityContainer:for:)` hands out when none is named. Apps that name the same container
    /// share it (see `Registry`'s ubiquity containers).
    public var ubiquityContainers: [String] = []
    /// `com.apple.developer.ubiquity-kvstore-identifier`: the app's iCloud key-value store
    /// (`UbiquitousKeyValueStore` in ContainerSync), shared with the apps that name the same one.
    public var ubiquityKeyValueStore: String?

    /// One entry of `CFBundleDocumentTypes`.
    public struct DocumentType: Sendable, Hashable {
        /// `CFBundleTypeRole`: what the app does with documents of the entry's types.
        public enum Role: String, Sendable, Hashable, CaseIterable {
            /// A role, as `CFBundleTypeRole` spells it: Editor reads and writes the types, Viewer only reads them,
            /// Shell provides runtime services for them, None declares them without opening any.
            case editor = "Editor", viewer = "Viewer", shell = "Shell", none = "None"
        }

        /// `LSHandlerRank`: how strongly the app claims the entry's types; handler choice ranks apps by it.
        public enum Rank: String, Sendable, Hashable, CaseIterable {
            /// A rank, as `LSHandlerRank` spells it, strongest first: Owner (the app that made the type), Default,
            /// Alternate (a secondary viewer or editor), None (never chosen to open the type).
            case owner = "Owner", `default` = "Default", alternate = "Alternate", none = "None"
        }

        /// `CFBundleTypeName`.
        public var name: String?
        /// `LSItemContentTypes`: the type identifiers claimed.
        public var contentTypes: [String]
        /// `CFBundleTypeRole`; Editor when absent, as on macOS.
        public var role: Role
        /// `LSHandlerRank`; Default when absent.
        public var rank: Rank
        /// `CFBundleTypeExtensions`: used only when `LSItemContentTypes` is absent.
        public var legacyExtensions: [String]
        /// `CFBundleTypeMIMETypes`: used only when `LSItemContentTypes` is absent.
        public var legacyMIMETypes: [String]

        /// The types this entry claims: `LSItemContentTypes`, or the types of its legacy extensions and
        /// MIME types (dynamic ones for tags nobody declares).
        public var claimedTypes: [UTType] {
            if !contentTypes.isEmpty {
                return contentTypes.map { UTType($0) ?? UTType(importedAs: $0) }
            }
            var types: [UTType] = []
            for ext in legacyExtensions {
                if ext == "*" { types.append(.data) } else if let type = UTType(filenameExtension: ext) { types.append(type) }
            }
            for mime in legacyMIMETypes {
                if let type = UTType(mimeType: mime) { types.append(type) }
            }
            var seen = Set<UTType>()
            return types.filter { seen.insert($0).inserted }
        }
    }

    /// A manifest with these values, as `parse(_:file:)` makes one from an `Info.plist`; each argument sets
    /// the property of the same name.
    public init(bundleIdentifier: String, name: String, documentTypes: [DocumentType], declarations: [TypeDeclaration],
                supportsOpeningDocumentsInPlace: Bool, fileSharingEnabled: Bool, applicationGroups: [String] = [],
                teamIdentifier: String? = nil, ubiquityContainers: [String] = [], ubiquityKeyValueStore: String? = nil) {
        self.applicationGroups = applicationGroups
        self.ubiquityContainers = ubiquityContainers
        self.ubiquityKeyValueStore = ubiquityKeyValueStore
        self.teamIdentifier = teamIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.name = name
        self.documentTypes = documentTypes
        self.declarations = declarations
        self.supportsOpeningDocumentsInPlace = supportsOpeningDocumentsInPlace
        self.fileSharingEnabled = fileSharingEnabled
    }
}

/// A manifest that was refused, with the file and the key at fault.
public struct ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file refused: the `Info.plist`, or the path given when none was found there.
    public var file: String
    /// The key path: `CFBundleDocumentTypes[2].LSHandlerRank`.
    public var key: String?
    /// What is wrong, in words.
    public var problem: String

    /// The error for `file`, with the key at fault when there is one, and what is wrong.
    public init(file: String, key: String? = nil, problem: String) {
        self.file = file
        self.key = key
        self.problem = problem
    }

    /// `file: key: problem`, without the key when there is none.
    public var description: String {
        [file, key, problem].compactMap { $0 }.joined(separator: ": ")
    }
}

extension AppManifest {
    /// The `Info.plist` of an app bundle (`Name.app/Info.plist` or `Name.app/Contents/Info.plist`), or
    /// the path itself when it is a property-list file.
    public static func infoPlistPath(for path: String) -> String? {
        let here = FileDescriptor.workingDirectory
        guard let status = try? here.status(of: path, followingLinks: true) else { return nil }
        if status.type != .directory { return path }
        for candidate in [path + "/Contents/Info.plist", path + "/Info.plist"] where (try? here.status(of: candidate, followingLinks: true)) != nil {
            return candidate
        }
        return nil
    }

    /// The largest `Info.plist` read (1 MiB): Apple's own are a few kilobytes.
    public static let sizeLimit = 1 << 20
    /// The deepest nesting of arrays and dictionaries accepted: a real manifest needs a handful of levels.
    public static let depthLimit = 32

    /// Reads and checks an app's manifest.
    /// - Throws: `ManifestError` naming the file and the key.
    public static func read(contentsOf path: String) throws(ManifestError) -> (manifest: AppManifest, infoPlist: String, bytes: [UInt8]) {
        guard let plist = infoPlistPath(for: path) else {
            throw ManifestError(file: path, problem: "no Info.plist (looked for Contents/Info.plist and Info.plist)")
        }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(plist, limit: sizeLimit)
        } catch .fileTooLarge {
            throw ManifestError(file: plist, problem: "cannot read the file: larger than \(sizeLimit >> 20) MiB")
        } catch {
            throw ManifestError(file: plist, problem: "cannot read the file: \(error)")
        }
        return (try parse(bytes, file: plist), plist, bytes)
    }

    /// Parses an `Info.plist`, XML or binary.
    public static func parse(_ bytes: [UInt8], file: String) throws(ManifestError) -> AppManifest {
        let root: [String: PropertyListValue]
        do {
            root = try PropertyListValue.dictionary(from: bytes, limits: PropertyListLimits(size: sizeLimit, depth: depthLimit))
        } catch {
            throw ManifestError(file: file, problem: "not a property list with a dictionary at its top: \(error.message)")
        }
        func string(_ key: String, in dictionary: [String: PropertyListValue], at path: String) throws(ManifestError) -> String? {
            switch dictionary[key] {
            case nil: return nil
            case .string(let value): return value
            case .some(let other): throw ManifestError(file: file, key: path + key, problem: "must be a string, not \(other.typeName)")
            }
        }
        func strings(_ key: String, in dictionary: [String: PropertyListValue], at path: String) throws(ManifestError) -> [String] {
            switch dictionary[key] {
            case nil: return []
            case .string(let value): return [value]
            case .array(let items):
                var result: [String] = []
                for (index, item) in items.enumerated() {
                    guard case .string(let value) = item else {
                        throw ManifestError(file: file, key: "\(path)\(key)[\(index)]", problem: "must be a string, not \(item.typeName)")
                    }
                    result.append(value)
                }
                return result
            case .some(let other): throw ManifestError(file: file, key: path + key, problem: "must be an array of strings, not \(other.typeName)")
            }
        }
        func flag(_ key: String) throws(ManifestError) -> Bool {
            switch root[key] {
            case nil: return false
            case .boolean(let value): return value
            case .some(let other): throw ManifestError(file: file, key: key, problem: "must be a boolean, not \(other.typeName)")
            }
        }
        guard let identifier = try string("CFBundleIdentifier", in: root, at: "") else {
            throw ManifestError(file: file, key: "CFBundleIdentifier", problem: "is missing")
        }
        guard Self.isValidBundleIdentifier(identifier) else {
            throw ManifestError(file: file, key: "CFBundleIdentifier",
                                problem: "'\(identifier)' is not a bundle identifier (letters, digits, '-' and '.', not starting with '.')")
        }
        var name = try string("CFBundleName", in: root, at: "")
        if name == nil { name = try string("CFBundleDisplayName", in: root, at: "") }
        var documentTypes: [DocumentType] = []
        switch root["CFBundleDocumentTypes"] {
        case nil: break
        case .array(let entries):
            for (index, entry) in entries.enumerated() {
                let at = "CFBundleDocumentTypes[\(index)]."
                guard case .dictionary(let fields) = entry else {
                    throw ManifestError(file: file, key: "CFBundleDocumentTypes[\(index)]", problem: "must be a dictionary, not \(entry.typeName)")
                }
                let roleText = try string("CFBundleTypeRole", in: fields, at: at) ?? "Editor"
                guard let role = DocumentType.Role(rawValue: roleText) else {
                    throw ManifestError(file: file, key: at + "CFBundleTypeRole", problem: "'\(roleText)' is not Editor, Viewer, Shell or None")
                }
                let rankText = try string("LSHandlerRank", in: fields, at: at) ?? "Default"
                guard let rank = DocumentType.Rank(rawValue: rankText) else {
                    throw ManifestError(file: file, key: at + "LSHandlerRank", problem: "'\(rankText)' is not Owner, Default, Alternate or None")
                }
                let contentTypes = try strings("LSItemContentTypes", in: fields, at: at)
                for (position, type) in contentTypes.enumerated() where !TypeDeclaration.isValidIdentifier(type) {
                    throw ManifestError(file: file, key: "\(at)LSItemContentTypes[\(position)]", problem: "'\(type)' is not a type identifier")
                }
                documentTypes.append(DocumentType(
                    name: try string("CFBundleTypeName", in: fields, at: at), contentTypes: contentTypes, role: role, rank: rank,
                    legacyExtensions: try strings("CFBundleTypeExtensions", in: fields, at: at),
                    legacyMIMETypes: try strings("CFBundleTypeMIMETypes", in: fields, at: at)))
            }
        case .some(let other):
            throw ManifestError(file: file, key: "CFBundleDocumentTypes", problem: "must be an array, not \(other.typeName)")
        }
        let declarations: [TypeDeclaration]
        do {
            declarations = try TypeDeclaration.declarations(fromPropertyListRoot: root, source: file, requireDeclarations: false)
        } catch {
            throw ManifestError(file: file, key: error.entry, problem: error.problem.description)
        }
        var exported = 0
        for declaration in declarations where declaration.kind == .exported {
            defer { exported += 1 }
            if let problem = Self.exportProblem(declaration.identifier) {
                throw ManifestError(file: file, key: "UTExportedTypeDeclarations[\(exported)].UTTypeIdentifier", problem: problem)
            }
        }
        let team = try string(Self.teamIdentifierKey, in: root, at: "")
        if let team, !Self.isValidTeamIdentifier(team) {
            throw ManifestError(file: file, key: Self.teamIdentifierKey, problem: "'\(team)' is not a team identifier (ten capital letters and digits)")
        }
        let groups = try strings(Self.applicationGroupsKey, in: root, at: "")
        for (index, group) in groups.enumerated() where !Self.isValidApplicationGroup(group) {
            throw ManifestError(file: file, key: "\(Self.applicationGroupsKey)[\(index)]",
                                problem: "'\(group)' is not an application group: 'group.' or a ten-character team identifier and '.', then a name of letters, digits, '-' and '.'")
        }
        var seenGroups = Set<String>()
        var ubiquity: [String] = []
        for key in [Self.iCloudContainersKey, Self.ubiquityContainersKey] {
            for (index, container) in try strings(key, in: root, at: "").enumerated() {
                guard Self.isValidUbiquityIdentifier(container) else {
                    throw ManifestError(file: file, key: "\(key)[\(index)]", problem: Self.ubiquityIdentifierProblem(container))
                }
                if !ubiquity.contains(container) { ubiquity.append(container) }
            }
        }
        let store = try string(Self.ubiquityKeyValueStoreKey, in: root, at: "")
        if let store, !Self.isValidUbiquityIdentifier(store) {
            throw ManifestError(file: file, key: Self.ubiquityKeyValueStoreKey, problem: Self.ubiquityIdentifierProblem(store))
        }
        return AppManifest(bundleIdentifier: identifier, name: name ?? identifier, documentTypes: documentTypes, declarations: declarations,
                           supportsOpeningDocumentsInPlace: try flag("LSSupportsOpeningDocumentsInPlace"),
                           fileSharingEnabled: try flag("UIFileSharingEnabled"),
                           applicationGroups: groups.filter { seenGroups.insert($0).inserted }, teamIdentifier: team,
                           ubiquityContainers: ubiquity, ubiquityKeyValueStore: store)
    }

    /// The manifest key that names an app's iCloud containers, as Apple's entitlement does: the CloudKit and
    /// iCloud Documents containers (`ubiquityContainersKey` names the older ubiquity containers).
    public static let iCloudContainersKey = "com.apple.developer.icloud-container-identifiers"
    /// The manifest key that names an app's older ubiquity containers, as Apple's entitlement does.
    public static let ubiquityContainersKey = "com.apple.developer.ubiquity-container-identifiers"
    /// The manifest key that names an app's iCloud key-value store.
    public static let ubiquityKeyValueStoreKey = "com.apple.developer.ubiquity-kvstore-identifier"

    /// iCloud container and key-value store identifiers name directories (`iCloud.com.example.app` is
    /// `Mobile Documents/iCloud~com~example~app`), so they are checked as bundle identifiers are (ASCII letters,
    /// digits, `-` and `.`, no `..`, at most 255 bytes), with at least two components and no trailing dot.
    /// An unexpanded build setting (`$(TeamIdentifierPrefix)com.example.app`) is not one.
    public static func isValidUbiquityIdentifier(_ identifier: String) -> Bool {
        isValidBundleIdentifier(identifier) && identifier.last != "." && identifier.contains(".")
    }

    static func ubiquityIdentifierProblem(_ identifier: String) -> String {
        let shown = identifier.utf8.count > 80 ? String(decoding: identifier.utf8.prefix(80), as: UTF8.self) + "… (\(identifier.utf8.count) bytes)" : identifier
        let escaped = shown.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        return "'\(escaped)' is not an iCloud identifier (letters, digits, '-' and '.', two components or more, at most 255 bytes, no '..' and no trailing '.')"
    }

    /// Why an app may not export `identifier`, or `nil`: `public.*` identifiers are the system's, as on
    /// Apple's platforms (an app may import one, describing it, never export it).
    public static func exportProblem(_ identifier: String) -> String? {
        identifier.lowercased().hasPrefix("public.")
            ? "'\(identifier)' is a public identifier, which only the system declares: an app may import it, never export it"
            : nil
    }

    /// The manifest key that names the publisher's team, as Apple's entitlement does.
    public static let teamIdentifierKey = "com.apple.developer.team-identifier"

    /// A team identifier: ten ASCII capital letters and digits.
    public static func isValidTeamIdentifier(_ team: String) -> Bool {
        team.utf8.count == 10 && team.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    /// The publisher's domain in a bundle identifier: all but its last component (`com.example` for
    /// `com.example.viewer`), when that leaves two components or more; `nil` otherwise.
    public static func publisherDomain(of bundleIdentifier: String) -> String? {
        let components = bundleIdentifier.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 3 else { return nil }
        return components.dropLast().joined(separator: ".")
    }

    /// The manifest key that names an app's application groups, as Apple's entitlement does.
    public static let applicationGroupsKey = "com.apple.security.application-groups"

    /// Application group identifiers name directories and carry the prefix Apple requires: `group.` (iOS)
    /// or a team identifier, ten ASCII capital letters and digits, and a dot (macOS), then a name of ASCII
    /// letters, digits, `-` and `.` (no `..`, no trailing dot); at most 255 bytes.
    public static func isValidApplicationGroup(_ group: String) -> Bool {
        guard isValidBundleIdentifier(group), group.last != "." else { return false }
        let bytes = Array(group.utf8)
        if group.hasPrefix("group.") { return bytes.count > 6 }
        guard bytes.count > 11, bytes[10] == UInt8(ascii: ".") else { return false }
        return bytes[0..<10].allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    /// Bundle identifiers name directories: ASCII letters, digits, `-` and `.`, not starting with a dot,
    /// no `..`, at most 255 bytes.
    public static func isValidBundleIdentifier(_ identifier: String) -> Bool {
        guard !identifier.isEmpty, identifier.utf8.count <= 255, identifier.first != ".", !identifier.contains("..") else { return false }
        return identifier.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x2E
        }
    }
}

