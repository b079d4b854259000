#if canImport(FoundationEssentials)
internal import struct FoundationEssentials.Data
#else
internal import struct Foundation.Data
#endif
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#endif

/// The types this process knows: the built-in database compiled from `TypeDB/`, plus the
/// declarations registered at run time (declaration files, apps' `Info.plist` files).
///
/// `UTType` answers every question through `TypeDatabase.shared`. Registered declarations take
/// part in every lookup from the moment `register` returns.
///
/// Every registration has an owner (`DeclarationOwner`): the system (declaration files the user or the
/// administrator loads) or an app. Apple's rules decide which declaration of an identifier is in force:
///
/// - The system's: an exported declaration beats an imported one; between two of the same kind, a
///   system registration replaces the built-in declaration, and a later one an earlier one. Any
///   system declaration replaces any app's, whatever their kinds.
/// - An app's never replaces a built-in declaration, a system registration, or another app's
///   export: an exported type belongs to the app that exported it first (in registration order), and
///   an app may not export a `public.*` identifier. A declaration that loses is kept out of every
///   lookup and listed by `ignoredDeclarations`, with the reason.
///
/// Precedence for one tag claimed by several types: the system's types (registered and built-in)
/// before any app's, so that no app's declaration changes what anyone else's files are; within each,
/// public types first, then exported declarations, then (the system's) registered before built-in,
/// then declaration order (built-in: TypeDB files in name order, entries in file order; registered:
/// registration order).
public final class TypeDatabase: Sendable {
    /// The database that `UTType` uses.
    public static let shared = TypeDatabase()

    let builtIn: CompiledTypeDatabase?
    private let state = Mutex(Overlay())
    private let changes = Atomic<Int>(0)
    /// Whether a registered declaration replaces a built-in one (`Overlay.overridesBuiltIn`), readable
    /// without the lock: while it is false, the built-in types' precomputed ancestors are the truth, and
    /// `UTType.conforms(to:)` between two built-in types asks nothing else.
    private let builtInOverridden = Atomic<Bool>(false)

    /// Whether nothing is registered, readable without the lock: the built-in database alone answers then.
    private let nothingRegistered = Atomic<Bool>(true)

    /// Whether the built-in types' precomputed ancestors are in force (no registered declaration replaces one).
    var builtInAncestryHolds: Bool { !builtInOverridden.load(ordering: .acquiring) }

    /// Whether the built-in database alone answers every lookup (nothing is registered).
    var builtInOnly: Bool { nothingRegistered.load(ordering: .acquiring) }

    /// Whether the compiled index alone answers a lookup of an ASCII tag whose hash in the tag index is
    /// `tagHash`, among built-in types: when nothing is registered, or when no registered declaration
    /// replaces a built-in one and none claims a tag with that hash (a tag another one shares the hash of
    /// takes the general path, which answers the same).
    func builtInIndexAnswers(tagHash: UInt32) -> Bool {
        if nothingRegistered.load(ordering: .acquiring) { return true }
        if builtInOverridden.load(ordering: .acquiring) { return false }
        return state.withLock { !$0.tagHashes.contains(tagHash) }
    }

    /// Records what the lock-free reads above need of a new overlay; called with the lock held.
    private func published(_ overlay: Overlay) {
        builtInOverridden.store(overlay.overridesBuiltIn, ordering: .releasing)
        nothingRegistered.store(overlay.entries.isEmpty, ordering: .releasing)
        changes.add(1, ordering: .releasing)
    }

    /// A number that changes whenever registered declarations change: what a cache derived from the
    /// database checks to know it is still current.
    public var generation: Int { changes.load(ordering: .acquiring) }

    /// A database with the built-in types, or an empty one.
    public init(includingBuiltInTypes: Bool = true) {
        builtIn = includingBuiltInTypes ? CompiledTypeDatabase.builtIn : nil
        probes = Self.probes(of: builtIn)
    }

    init(compiled: CompiledTypeDatabase?) {
        builtIn = compiled
        probes = Self.probes(of: compiled)
    }

    /// The built-in index's probes of the tag classes a file's identification asks by (extensions, MIME types,
    /// and name matching's whole names, suffixes and globs), made once: a probe hashes its class and compares
    /// it with two others, 500 instructions that `declaredTypes` paid three times a file.
    private let probes: [(tagClass: String, probe: CompiledTypeDatabase.TagClassProbe)]

    private static func probes(of builtIn: CompiledTypeDatabase?) -> [(tagClass: String, probe: CompiledTypeDatabase.TagClassProbe)] {
        guard let builtIn else { return [] }
        let classes = [UTTagClass.filenameExtension.rawValue, "uti.filename", "uti.filename-suffix", UTTagClass.mimeType.rawValue, "uti.filename-glob"]
        return classes.map { ($0, builtIn.probe(forTagClass: $0)) }
    }

    /// The number of built-in types.
    public var builtInTypeCount: Int { builtIn?.typeCount ?? 0 }

    // MARK: Registering

    /// Adds declarations made by `owner`; they take part in every lookup from now on, as far as the
    /// precedence rules above let them (see `ignoredDeclarations` for those they keep out).
    ///
    /// - Returns: The types whose declaration is now in force (an imported declaration of a type
    ///   that is already exported is not, nor an app's declaration of a type the system declares).
    /// - Throws: `TypeDeclarationError` for an invalid identifier, an identifier declared twice
    ///   with the same kind among `declarations`, or a conformance cycle; nothing is registered then.
    @discardableResult
    public func register(_ declarations: [TypeDeclaration], owner: DeclarationOwner = .system) throws(TypeDeclarationError) -> [UTType] {
        var seen: [String: TypeDeclaration.Kind] = [:]
        for declaration in declarations {
            guard TypeDeclaration.isValidIdentifier(declaration.identifier) else {
                throw TypeDeclarationError(file: declaration.source, entry: declaration.identifier,
                                           problem: .invalidIdentifier(declaration.identifier))
            }
            let key = declaration.identifier.lowercased()
            guard !key.hasPrefix("dyn.") else {
                throw TypeDeclarationError(file: declaration.source, entry: declaration.identifier,
                                           problem: .dynamicIdentifier(declaration.identifier))
            }
            if seen[key] == declaration.kind {
                throw TypeDeclarationError(file: declaration.source, entry: declaration.identifier,
                                           problem: .duplicateIdentifier(declaration.identifier))
            }
            seen[key] = declaration.kind
        }
        let effective: [String] = try state.withLock { overlay throws(TypeDeclarationError) -> [String] in
            let candidate = Overlay(registered: overlay.registered + declarations.map { Registration(declaration: $0, owner: owner) },
                                    builtIn: builtIn)
            try checkForCycles(from: declarations.map { $0.identifier.lowercased() }, in: candidate)
            overlay = candidate
            published(candidate)
            return declarations.compactMap { declaration in
                let key = declaration.identifier.lowercased()
                return candidate.entries[key]?.declaration == declaration ? declaration.identifier : nil
            }
        }
        return effective.map { UTType(declaredIdentifier: $0) }
    }

    /// Adds the declarations of a property-list file (a declaration file or an app's `Info.plist`).
    @discardableResult
    public func registerDeclarations(contentsOfFile path: String) throws(TypeDeclarationError) -> [UTType] {
        try register(try TypeDeclaration.declarations(contentsOfFile: path))
    }

    /// Adds the declarations of every `*.plist` file in a directory, in file-name order.
    @discardableResult
    public func registerDeclarations(inDirectory path: String) throws(TypeDeclarationError) -> [UTType] {
        var declarations: [TypeDeclaration] = []
        for file in try DeclarationFiles.propertyLists(in: path) {
            declarations += try TypeDeclaration.declarations(fromPropertyList: Data(file.bytes), source: file.path)
        }
        return try register(declarations)
    }

    /// The environment variable that lists directories of extra declaration files, separated by `:`.
    public static let searchPathVariable = "UTI_TYPES_PATH"

    /// Adds what a user asked for, as every program of uti reads it: the declaration files of each directory of
    /// `searchPath` (`:`-separated, in order; by default `$UTI_TYPES_PATH`), then each of `files`. Stops at the
    /// first file refused, whose error names it and the entry at fault.
    @discardableResult
    public func registerUserDeclarations(files: [String] = [], searchPath: String? = TypeDatabase.environmentSearchPath) throws(TypeDeclarationError) -> [UTType] {
        var registered: [UTType] = []
        for directory in (searchPath ?? "").split(separator: ":") where !directory.isEmpty {
            registered += try registerDeclarations(inDirectory: String(directory))
        }
        for file in files { registered += try registerDeclarations(contentsOfFile: file) }
        return registered
    }

    /// `$UTI_TYPES_PATH`, if set.
    public static var environmentSearchPath: String? {
        getenv(searchPathVariable).map { String(cString: $0) }
    }

    /// Removes every registered declaration that came from `source` (as recorded in `TypeDeclaration.source`).
    public func unregisterDeclarations(fromSource source: String) {
        state.withLock { overlay in
            overlay = Overlay(registered: overlay.registered.filter { $0.declaration.source != source }, builtIn: builtIn)
            published(overlay)
        }
    }

    /// Removes every registered declaration whose source starts with `prefix` (all those one registry
    /// loaded, say, before it loads them again).
    public func unregisterDeclarations(fromSourcesWithPrefix prefix: String) {
        state.withLock { overlay in
            overlay = Overlay(registered: overlay.registered.filter { !($0.declaration.source?.hasPrefix(prefix) ?? false) }, builtIn: builtIn)
            published(overlay)
        }
    }

    /// Follows the supertypes of `keys` depth-first, with an explicit stack (a chain of any length is
    /// followed without recursion), and throws for the first cycle met, naming its members in order.
    private func checkForCycles(from keys: [String], in overlay: Overlay) throws(TypeDeclarationError) {
        var finished = Set<String>()
        var onPath = Set<String>()
        // The path from a starting key: each key with its parents and the next parent to follow.
        var path: [(key: String, parents: [String], next: Int)] = []
        for start in keys where !finished.contains(start) {
            onPath.insert(start)
            path.append((start, parentKeys(of: start, in: overlay), 0))
            while let top = path.last {
                guard top.next < top.parents.count else {
                    path.removeLast()
                    onPath.remove(top.key)
                    finished.insert(top.key)
                    continue
                }
                let parent = top.parents[top.next]
                path[path.count - 1].next += 1
                if finished.contains(parent) { continue }
                if onPath.contains(parent) {
                    let start = path.firstIndex { $0.key == parent } ?? 0
                    let cycle = path[start...].map { canonicalIdentifier(forKey: $0.key, in: overlay) ?? $0.key }
                        + [canonicalIdentifier(forKey: parent, in: overlay) ?? parent]
                    let declaration = overlay.entries[path[start].key]?.declaration
                    throw TypeDeclarationError(file: declaration?.source, entry: declaration?.identifier,
                                               problem: .conformanceCycle(cycle))
                }
                onPath.insert(parent)
                path.append((parent, parentKeys(of: parent, in: overlay), 0))
            }
        }
    }

    // MARK: Reading

    /// A consistent view of the registered declarations, taken without holding the lock while it is used.
    var snapshot: Overlay { state.withLock { $0 } }

    enum Resolved {
        case builtIn(Int)
        case registered(TypeDeclaration)
    }

    func resolve(key: String, in overlay: Overlay) -> Resolved? {
        if let entry = overlay.entries[key] { return .registered(entry.declaration) }
        if let index = builtIn?.typeIndex(forKey: key) { return .builtIn(index) }
        return nil
    }

    func canonicalIdentifier(forKey key: String, in overlay: Overlay) -> String? {
        switch resolve(key: key, in: overlay) {
        case .builtIn(let index): builtIn?.identifier(ofType: index)
        case .registered(let declaration): declaration.identifier
        case nil: nil
        }
    }

    func declaration(forKey key: String, in overlay: Overlay) -> TypeDeclaration? {
        switch resolve(key: key, in: overlay) {
        case .builtIn(let index): builtIn?.declaration(ofType: index)
        case .registered(let declaration): declaration
        case nil: nil
        }
    }

    /// The tags of one class of a declared type (none for an undeclared one).
    func tags(forKey key: String, tagClass: UTTagClass, in overlay: Overlay) -> [String] {
        switch resolve(key: key, in: overlay) {
        case .builtIn(let index): builtIn?.tags(ofType: index, tagClass: tagClass.rawValue) ?? []
        case .registered(let declaration): declaration.tags[tagClass] ?? []
        case nil: []
        }
    }

    /// The tags of one class of `type`, in declaration order, as `declaration(of:)?.tags[tagClass]` gives
    /// them, without building the declaration.
    public func tags(of type: UTType, tagClass: UTTagClass) -> [String] {
        tags(forKey: type.key, tagClass: tagClass, in: snapshot)
    }

    /// The direct supertypes of a declared type, as keys.
    func parentKeys(of key: String, in overlay: Overlay) -> [String] {
        switch resolve(key: key, in: overlay) {
        case .builtIn(let index):
            guard let builtIn else { return [] }
            return builtIn.parents(ofType: index).map { builtIn.key(ofType: $0) }
        case .registered(let declaration):
            return declaration.conformsTo.map { $0.lowercased() }
        case nil:
            return []
        }
    }

    /// All supertypes reached from `parents` (keys), depth-first in declaration order, each once;
    /// the parents themselves first among their own subtrees.
    func ancestorKeys(ofParents parents: [String], in overlay: Overlay) -> [String] {
        var result: [String] = []
        var seen = Set<String>()
        // Depth-first with an explicit stack of sibling lists, in the order recursion would take.
        var stack: [(keys: [String], next: Int)] = [(parents, 0)]
        while let top = stack.last {
            guard top.next < top.keys.count else {
                stack.removeLast()
                continue
            }
            let key = top.keys[top.next]
            stack[stack.count - 1].next += 1
            guard seen.insert(key).inserted else { continue }
            result.append(key)
            if !overlay.overridesBuiltIn, let builtIn, overlay.entries[key] == nil, let index = builtIn.typeIndex(forKey: key) {
                for ancestor in builtIn.ancestors(ofType: index) {
                    let ancestorKey = builtIn.key(ofType: ancestor)
                    if seen.insert(ancestorKey).inserted { result.append(ancestorKey) }
                }
                continue
            }
            let next = parentKeys(of: key, in: overlay)
            if !next.isEmpty { stack.append((next, 0)) }
        }
        return result
    }

    /// Whether the declared type `key` has `ancestor` among its supertypes.
    func declaredType(_ key: String, hasAncestor ancestor: String, in overlay: Overlay) -> Bool {
        if !overlay.overridesBuiltIn, let builtIn, overlay.entries[key] == nil,
           let index = builtIn.typeIndex(forKey: key) {
            guard overlay.entries[ancestor] == nil, let ancestorIndex = builtIn.typeIndex(forKey: ancestor) else { return false }
            return builtIn.type(index, hasAncestor: ancestorIndex)
        }
        return ancestorKeys(ofParents: parentKeys(of: key, in: overlay), in: overlay).contains(ancestor)
    }

    /// The declared types claiming a tag, best first, as keys: the system's (registered, then built-in)
    /// before the apps', each group in preference order.
    func candidates(tagClass: UTTagClass, tag: String, in overlay: Overlay) -> [String] {
        let classKey = tagClass.key
        let tagKey = tag.lowercased()
        var system: [String] = []
        var apps: [String] = []
        for key in overlay.tagIndex[CompiledTypeDatabase.TagKey(tagClass: classKey, tag: tagKey)] ?? [] {
            if overlay.entries[key]?.owner.isApp != true { system.append(key) } else { apps.append(key) }
        }
        if let builtIn {
            for index in builtIn.typeIndices(forTagClassKey: classKey, tagKey: tagKey) {
                let key = builtIn.key(ofType: index)
                if overlay.entries[key] == nil { system.append(key) }
            }
        }
        guard !overlay.entries.isEmpty else { return system }
        let traits = { (key: String) -> (isPublic: Bool, isExported: Bool) in
            let exported: Bool = switch self.resolve(key: key, in: overlay) {
            case .builtIn(let index): self.builtIn?.isExported(index) ?? false
            case .registered(let declaration): declaration.kind == .exported
            case nil: false
            }
            return (key.hasPrefix("public."), exported)
        }
        return TypeGraph.preferenceOrder(system, traits: traits) + TypeGraph.preferenceOrder(apps, traits: traits)
    }

    /// The declared types claiming a tag, best first (without the dynamic type
    /// `UTType.types(tag:tagClass:conformingTo:)` makes when there is none).
    public func declaredTypes(tag: String, tagClass: UTTagClass) -> [UTType] {
        guard !tag.isEmpty else { return [] }
        // An ASCII tag that no registration claims, while none replaces a built-in type: the compiled index
        // alone, in its order (the preference order `candidates` would give), with case folded in place.
        if let builtIn, tagClass.rawValue.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } })
            ?? tagClass.rawValue.utf8.allSatisfy({ $0 < 0x80 }) {
            // The classes' lengths differ: one comparison of bytes, at most.
            let length = tagClass.rawValue.utf8.count
            let probe = probes.first { $0.tagClass.utf8.count == length && $0.tagClass == tagClass.rawValue }?.probe
                ?? builtIn.probe(forTagClass: tagClass.rawValue)
            let found = tag.utf8.withContiguousStorageIfAvailable { utf8 -> [UTType]? in
                let bytes = UnsafeRawBufferPointer(utf8)
                guard let hash = CompiledTypeDatabase.asciiTagHash(probe, tag: bytes), builtInIndexAnswers(tagHash: hash) else { return nil }
                return builtIn.types(probe, tagClass: tagClass.rawValue, tag: bytes, hash: hash)
            } ?? nil
            if let found { return found }
        }
        // With nothing registered, the compiled index's order is the preference order (`candidates`).
        if builtInOnly, let builtIn {
            return builtIn.typeIndices(forTagClassKey: tagClass.key, tagKey: tag.lowercased()).map { UTType(builtIn: builtIn, index: $0) }
        }
        let overlay = snapshot
        return candidates(tagClass: tagClass, tag: tag, in: overlay).compactMap { key in
            canonicalIdentifier(forKey: key, in: overlay).map { UTType(declaredIdentifier: $0) }
        }
    }

    /// The declared types that have tags of `tagClass`, best first. For classes other than
    /// filename extensions and MIME types (those have too many members to list this way).
    public func types(havingTagClass tagClass: UTTagClass) -> [UTType] {
        guard tagClass != .filenameExtension, tagClass != .mimeType else { return [] }
        // With nothing registered the compiled index answers, in its (preference) order, without a snapshot.
        if builtInOnly, let builtIn {
            return builtIn.typeIndices(forTagClassKey: tagClass.key, tagKey: "").map { UTType(builtIn: builtIn, index: $0) }
        }
        let overlay = snapshot
        return candidates(tagClass: tagClass, tag: "", in: overlay).compactMap { key in
            canonicalIdentifier(forKey: key, in: overlay).map { UTType(declaredIdentifier: $0) }
        }
    }

    /// Every declared type: built-in ones in declaration order (replaced ones where a registered
    /// declaration is in force), then registered ones that declare new identifiers.
    public var declarations: [TypeDeclaration] {
        let overlay = snapshot
        var result: [TypeDeclaration] = []
        var replaced = Set<String>()
        if let builtIn {
            for index in 0..<builtIn.typeCount {
                let key = builtIn.key(ofType: index)
                if let entry = overlay.entries[key] {
                    result.append(entry.declaration)
                    replaced.insert(key)
                } else {
                    result.append(builtIn.declaration(ofType: index))
                }
            }
        }
        for entry in overlay.entries.values.sorted(by: { $0.sequence < $1.sequence })
        where !replaced.contains(entry.declaration.identifier.lowercased()) {
            result.append(entry.declaration)
        }
        return result
    }

    /// The declaration in force for a type, or `nil` for a dynamic or undeclared type.
    public func declaration(of type: UTType) -> TypeDeclaration? {
        declaration(forKey: type.key, in: snapshot)
    }

    /// The declarations `owner` registered (in force or not), in registration order.
    public func registeredDeclarations(of owner: DeclarationOwner) -> [TypeDeclaration] {
        snapshot.registered.filter { $0.owner == owner }.map(\.declaration)
    }

    /// The registered declarations that are not in force, in registration order, with why (an app's
    /// declaration of a type the system declares or another app exports, an imported declaration of an
    /// exported type ...); of one owner's, or everyone's.
    public func ignoredDeclarations(of owner: DeclarationOwner? = nil) -> [IgnoredDeclaration] {
        snapshot.ignored.filter { owner == nil || $0.owner == owner }
    }
}

extension TypeDatabase {
    /// One registered declaration and who made it.
    struct Registration: Sendable {
        var declaration: TypeDeclaration
        var owner: DeclarationOwner
    }

    /// The registered declarations in force, with the indexes lookups need.
    struct Overlay: Sendable {
        struct Entry: Sendable {
            var declaration: TypeDeclaration
            var owner: DeclarationOwner
            var sequence: Int
        }

        /// Everything registered, in order; the rest is derived from it.
        var registered: [Registration] = []
        var entries: [String: Entry] = [:]
        var tagIndex: [CompiledTypeDatabase.TagKey: [String]] = [:]
        /// The compiled tag index's hash of every key of `tagIndex`: what `builtInIndexAnswers` asks.
        var tagHashes = Set<UInt32>()
        /// What is registered and not in force, with why.
        var ignored: [IgnoredDeclaration] = []
        /// Whether a registered declaration replaces a built-in one, so that the built-in
        /// precomputed ancestors can no longer be trusted.
        var overridesBuiltIn = false

        init() {}

        init(registered: [Registration], builtIn: CompiledTypeDatabase?) {
            self.registered = registered
            for (sequence, registration) in registered.enumerated() {
                let declaration = registration.declaration
                let key = declaration.identifier.lowercased()
                let builtInIndex = builtIn?.typeIndex(forKey: key)
                let existing = entries[key]
                func ignore(_ reason: IgnoredDeclaration.Reason) {
                    ignored.append(IgnoredDeclaration(declaration: declaration, owner: registration.owner, reason: reason))
                }
                if registration.owner.isApp {
                    // An app's: never over the system's, never over another app's export.
                    if declaration.kind == .exported, key.hasPrefix("public.") { ignore(.publicIdentifier); continue }
                    if builtInIndex != nil { ignore(.declaredBySystem); continue }
                    if let existing {
                        if !existing.owner.isApp { ignore(.declaredBySystem); continue }
                        if existing.declaration.kind == .exported { ignore(.exportedBy(existing.owner)); continue }
                        if declaration.kind == .imported { ignore(.importedBy(existing.owner)); continue }
                    }
                } else {
                    // The system's: over any app's, whatever the kinds; among its own, exported over imported.
                    if let existing, !existing.owner.isApp, existing.declaration.kind == .exported, declaration.kind == .imported {
                        ignore(.exportedBy(existing.owner))
                        continue
                    }
                    if let builtIn, let builtInIndex, builtIn.isExported(builtInIndex) && declaration.kind == .imported {
                        ignore(.declaredBySystem)
                        continue
                    }
                }
                if let existing {
                    // Replaced: what was in force is now kept out.
                    let reason: IgnoredDeclaration.Reason =
                        if existing.owner.isApp && !registration.owner.isApp { .declaredBySystem }
                        else if existing.declaration.kind == .imported && declaration.kind == .exported { .exportedBy(registration.owner) }
                        else { .replaced }
                    ignored.append(IgnoredDeclaration(declaration: existing.declaration, owner: existing.owner, reason: reason))
                }
                entries[key] = Entry(declaration: declaration, owner: registration.owner, sequence: sequence)
            }
            // Each (tag, type) pair once, in declaration order: a set beside the lists keeps this linear
            // however many types claim one tag.
            struct Claim: Hashable {
                var tag: CompiledTypeDatabase.TagKey
                var key: String
            }
            var claimed = Set<Claim>()
            func add(_ tag: CompiledTypeDatabase.TagKey, _ key: String) {
                guard claimed.insert(Claim(tag: tag, key: key)).inserted else { return }
                tagIndex[tag, default: []].append(key)
                tagHashes.insert(CompiledTypeDatabase.hash(tag.tag.utf8,
                                                           seed: CompiledTypeDatabase.hash(tag.tagClass.utf8 + [0])))
            }
            for entry in entries.values.sorted(by: { $0.sequence < $1.sequence }) {
                let key = entry.declaration.identifier.lowercased()
                if builtIn?.typeIndex(forKey: key) != nil { overridesBuiltIn = true }
                for (tagClass, tags) in entry.declaration.tags {
                    if tagClass != .filenameExtension, tagClass != .mimeType {
                        add(CompiledTypeDatabase.TagKey(tagClass: tagClass.key, tag: ""), key)
                    }
                    for tag in tags {
                        add(CompiledTypeDatabase.TagKey(tagClass: tagClass.key, tag: tag.lowercased()), key)
                    }
                }
            }
        }
    }
}
