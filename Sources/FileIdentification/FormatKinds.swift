internal import Synchronization
public import UniformTypeIdentifiers

extension UTTagClass {
    /// The container formats a type's files are stored in, where its declared parents do not say so
    /// (`public.zip-archive` for an EPUB, `uti.mime.application.x-ole-storage` for an `.xls` file): Apple's
    /// types keep exactly Apple's parents, and what other sources know of their formats is kept here.
    public static let container = UTTagClass(rawValue: "uti.container")
}

extension UTType {
    /// Whether this format is `other` or a kind of it, as identification's readers see formats: it conforms
    /// to `other`, or its files are stored in a container format that is `other` or conforms to it (an EPUB
    /// is a kind of ZIP archive to a reader of ZIP directories, though Apple's EPUB is no `public.zip-archive`).
    func isKind(of other: UTType) -> Bool {
        if conforms(to: other) { return true }
        let stored = FormatKinds.current
        guard !stored.containers.isEmpty, stored.containerSupertypes.contains(other) else { return false }
        for (format, containers) in stored.containers where conforms(to: format) {
            if containers.contains(where: { $0.conforms(to: other) }) { return true }
        }
        return false
    }
}

/// The formats with containers (`UTTagClass.container`), read once per state of the type database.
struct FormatKinds: Sendable {
    let generation: Int
    /// Each format that names containers, with them.
    let containers: [(format: UTType, containers: [UTType])]
    /// Every container and each of its supertypes: what `isKind(of:)` may answer through a container.
    let containerSupertypes: Set<UTType>

    private static let cached = Mutex<FormatKinds?>(nil)

    static var current: FormatKinds {
        let generation = TypeDatabase.shared.generation
        if let kinds = cached.withLock({ $0 }), kinds.generation == generation { return kinds }
        var containers: [(UTType, [UTType])] = []
        var supertypes = Set<UTType>()
        for format in TypeDatabase.shared.types(havingTagClass: .container) {
            let named = TypeDatabase.shared.tags(of: format, tagClass: .container).compactMap { UTType($0) }
            guard !named.isEmpty else { continue }
            containers.append((format, named))
            for container in named {
                supertypes.insert(container)
                supertypes.formUnion(container.supertypes)
            }
        }
        let kinds = FormatKinds(generation: generation, containers: containers, containerSupertypes: supertypes)
        cached.withLock { $0 = kinds }
        return kinds
    }
}
