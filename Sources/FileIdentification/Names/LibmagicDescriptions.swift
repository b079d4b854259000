internal import Synchronization
public import UniformTypeIdentifiers

extension UTTagClass {
    /// How libmagic's description of the format starts (`LLVM IR bitcode`, `G-IR binary database`), for formats
    /// libmagic recognises but gives no MIME type: where its MIME type is `application/octet-stream`, the
    /// description names the type.
    public static let libmagicDescription = UTTagClass(rawValue: "uti.libmagic-description")
}

/// The types with `UTTagClass.libmagicDescription` tags, read once per state of the type database.
final class LibmagicDescriptions: Sendable {
    let generation: Int
    /// Each description's start with its type, longest first (the most specific wins).
    let prefixes: [(prefix: String, type: UTType)]

    init(generation: Int, prefixes: [(prefix: String, type: UTType)]) {
        self.generation = generation
        self.prefixes = prefixes
    }

    /// The type whose tag starts `description`, `nil` when none does.
    func type(describedAs description: String) -> UTType? {
        prefixes.first { description.hasPrefix($0.prefix) }?.type
    }

    private static let cached = Mutex<LibmagicDescriptions?>(nil)

    static var current: LibmagicDescriptions {
        let generation = TypeDatabase.shared.generation
        if let known = cached.withLock({ $0 }), known.generation == generation { return known }
        var prefixes: [(prefix: String, type: UTType)] = []
        for type in TypeDatabase.shared.types(havingTagClass: .libmagicDescription) {
            for prefix in TypeDatabase.shared.tags(of: type, tagClass: .libmagicDescription) where !prefix.isEmpty {
                prefixes.append((prefix, type))
            }
        }
        prefixes.sort { $0.prefix.utf8.count > $1.prefix.utf8.count }
        let made = LibmagicDescriptions(generation: generation, prefixes: prefixes)
        cached.withLock { $0 = made }
        return made
    }
}
