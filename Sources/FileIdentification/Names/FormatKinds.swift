internal import Synchronization
public import UniformTypeIdentifiers

extension UTTagClass {
    /// The formats a type's files also are, where its declared parents do not say so: Apple's types keep
    /// exactly Apple's parents, and what other sources say of their formats (freedesktop's `sub-class-of`: an
    /// EPUB is a ZIP archive, an `.xls` file an OLE2 compound file, a macro-enabled workbook a workbook) is kept
    /// here, for identification's readers.
    public static let kindOf = UTTagClass(rawValue: "uti.kind-of")
}

extension UTType {
    /// Whether this format is `other` or a kind of it, as identification's readers see formats: it conforms
    /// to `other`, or what its files also are (`UTTagClass.kindOf`, followed through) conforms to it (an EPUB is
    /// a kind of ZIP archive to a reader of ZIP directories, though Apple's EPUB is no `public.zip-archive`).
    func isKind(of other: UTType) -> Bool {
        if conforms(to: other) { return true }
        // Two built-in types, while their ancestry holds: only built-in formats can be in this one's lineage,
        // and their kinds are the built-in declarations'.
        if let ordinal = builtInOrdinal, let target = other.builtInOrdinal { return BuiltInKinds.table.format(ordinal, isKindOf: target) }
        let kinds = FormatKinds.current
        guard !kinds.kinds.isEmpty, kinds.reachable.contains(other) else { return false }
        for (format, alsoAre) in kinds.kinds where conforms(to: format) {
            if alsoAre.contains(where: { $0.conforms(to: other) }) { return true }
        }
        return false
    }
}

/// The formats with kinds beyond their conformance (`UTTagClass.kindOf`), read once per state of the type
/// database, each with every format its files also are (the tags followed through, and the supertypes of
/// those).
final class FormatKinds: Sendable {
    let generation: Int
    /// Each format that names kinds, with what its files also are, followed through.
    let kinds: [(format: UTType, alsoAre: [UTType])]
    /// Every format named and each of its supertypes: what `isKind(of:)` may answer through a kind.
    let reachable: Set<UTType>

    init(generation: Int, kinds: [(format: UTType, alsoAre: [UTType])], reachable: Set<UTType>) {
        self.generation = generation
        self.kinds = kinds
        self.reachable = reachable
    }

    /// A class, so that each `isKind(of:)` takes one reference under the lock, not a copy of the tables.
    private static let cached = Mutex<FormatKinds?>(nil)

    static var current: FormatKinds {
        let generation = TypeDatabase.shared.generation
        if let kinds = cached.withLock({ $0 }), kinds.generation == generation { return kinds }
        var direct: [UTType: [UTType]] = [:]
        var order: [UTType] = []
        for format in TypeDatabase.shared.types(havingTagClass: .kindOf) {
            let named = TypeDatabase.shared.tags(of: format, tagClass: .kindOf).compactMap { UTType($0) }
            guard !named.isEmpty else { continue }
            direct[format] = named
            order.append(format)
        }
        // Followed through: a macro-enabled document is a document, which is a ZIP archive.
        func closure(_ format: UTType, _ seen: inout Set<UTType>) -> [UTType] {
            var found: [UTType] = []
            for kind in direct[format] ?? [] where seen.insert(kind).inserted {
                found.append(kind)
                for (other, _) in direct where kind.conforms(to: other) { found += closure(other, &seen) }
            }
            return found
        }
        var kinds: [(UTType, [UTType])] = []
        var reachable = Set<UTType>()
        for format in order {
            var seen: Set<UTType> = [format]
            let alsoAre = closure(format, &seen)
            kinds.append((format, alsoAre))
            for kind in alsoAre {
                reachable.insert(kind)
                reachable.formUnion(kind.supertypes)
            }
        }
        let made = FormatKinds(generation: generation, kinds: kinds, reachable: reachable)
        cached.withLock { $0 = made }
        return made
    }
}

/// `FormatKinds` for the built-in types alone, by ordinal: made once (the built-in declarations never change)
/// into buffers that live as long as the process, like the compiled database they come from, so that the
/// resolver's dozens of `isKind(of:)` per file, from every thread of a classification, copy no type, count no
/// reference and take no lock. The format at ordinal `o` has the kinds `alsoAre[kindStart[o]..<kindStart[o + 1]]`,
/// followed through (a macro-enabled document is a document, which is a ZIP archive). Unchecked `Sendable`:
/// the buffers are written once, in `init`, before the table is shared, and only read after.
struct BuiltInKinds: @unchecked Sendable {
    private let kindStart: UnsafeBufferPointer<Int32>
    private let alsoAre: UnsafeBufferPointer<Int32>

    static let table = BuiltInKinds()

    private init() {
        let count = UTType.builtInCount
        var direct: [Int: [Int]] = [:]
        var order: [Int] = []
        for (ordinal, tags) in UTType.builtInTags(of: .kindOf) {
            let named = tags.compactMap { UTType.builtInOrdinal(ofIdentifier: $0) }
            guard !named.isEmpty else { continue }
            direct[ordinal] = named
            order.append(ordinal)
        }
        func closure(_ format: Int, _ seen: inout Set<Int>) -> [Int] {
            var found: [Int] = []
            for kind in direct[format] ?? [] where seen.insert(kind).inserted {
                found.append(kind)
                for other in order where UTType.builtIn(kind, conformsTo: other) { found += closure(other, &seen) }
            }
            return found
        }
        var byOrdinal: [Int: [Int]] = [:]
        for format in order {
            var seen: Set<Int> = [format]
            byOrdinal[format] = closure(format, &seen)
        }
        let starts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count + 1)
        var flat: [Int32] = []
        for ordinal in 0..<count {
            starts[ordinal] = Int32(flat.count)
            flat += (byOrdinal[ordinal] ?? []).map { Int32($0) }
        }
        starts[count] = Int32(flat.count)
        let kinds = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(flat.count, 1))
        _ = kinds.initialize(from: flat)
        kindStart = UnsafeBufferPointer(starts)
        alsoAre = UnsafeBufferPointer(kinds)
    }

    /// Whether the built-in format at `ordinal` (or an ancestor of it) has a kind that conforms to the
    /// built-in type at `target`.
    func format(_ ordinal: Int, isKindOf target: Int) -> Bool {
        guard ordinal + 1 < kindStart.count else { return false }
        return UTType.anyBuiltIn(inLineageOf: ordinal) { lineage in
            var position = Int(kindStart[lineage])
            let end = Int(kindStart[lineage + 1])
            while position < end {
                if UTType.builtIn(Int(alsoAre[position]), conformsTo: target) { return true }
                position += 1
            }
            return false
        }
    }
}
