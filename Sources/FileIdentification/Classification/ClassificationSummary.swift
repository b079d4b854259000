public import UniformTypeIdentifiers

/// Counts and bytes per type over classified entries, rolled up the conformance hierarchy: an entry
/// of type `public.png` counts for `public.png` and for every type it conforms to (`public.image`,
/// `public.data`, `public.item`, `public.content`).
public struct ClassificationSummary: Sendable {
    /// One type's line.
    public struct Row: Sendable, Hashable {
        /// The type this line counts.
        public var type: UTType
        /// Entries of exactly this type.
        public var count: Int
        /// Bytes of the entries of exactly this type.
        public var bytes: Int
        /// Entries of this type or any subtype.
        public var totalCount: Int
        /// Bytes of the entries of this type or any subtype.
        public var totalBytes: Int
        /// Where the row hangs in `rows`: its first declared supertype that has entries, if any.
        public var parent: UTType?
        /// Depth in that tree, from 0.
        public var depth: Int
    }

    /// Entries added, including those that could not be identified.
    public private(set) var entries = 0
    /// Bytes of all identified entries whose size is known.
    public private(set) var bytes = 0
    /// Entries added that could not be identified.
    public private(set) var errors = 0
    private var exact: [UTType: (count: Int, bytes: Int)] = [:]

    /// Creates an empty summary.
    public init() {}

    /// Counts one classified entry: as an error if it failed, otherwise under its type and size.
    public mutating func add(_ entry: ClassifiedEntry) {
        entries += 1
        guard let identification = entry.identification else {
            errors += 1
            return
        }
        let size = entry.size ?? 0
        bytes += size
        exact[identification.type, default: (0, 0)].count += 1
        exact[identification.type, default: (0, 0)].bytes += size
    }

    /// Every type with entries, exactly or through a subtype, as a tree: each type under its first
    /// declared supertype that has entries, children by total count (most first), then by identifier.
    public var rows: [Row] {
        var totals: [UTType: (count: Int, bytes: Int)] = [:]
        for (type, tally) in exact {
            for reached in [type] + type.orderedSupertypes {
                totals[reached, default: (0, 0)].count += tally.count
                totals[reached, default: (0, 0)].bytes += tally.bytes
            }
        }
        var children: [UTType?: [UTType]] = [:]
        var parentOf: [UTType: UTType] = [:]
        for type in totals.keys {
            let parent = type.directSupertypes.first { totals[$0] != nil }
            if let parent { parentOf[type] = parent }
            children[parent, default: []].append(type)
        }
        func ordered(_ types: [UTType]) -> [UTType] {
            types.sorted { lhs, rhs in
                let left = totals[lhs]?.count ?? 0, right = totals[rhs]?.count ?? 0
                return left != right ? left > right : lhs.identifier < rhs.identifier
            }
        }
        var result: [Row] = []
        func visit(_ type: UTType, depth: Int) {
            let total = totals[type] ?? (0, 0)
            let own = exact[type] ?? (0, 0)
            result.append(Row(type: type, count: own.count, bytes: own.bytes, totalCount: total.count,
                              totalBytes: total.bytes, parent: parentOf[type], depth: depth))
            for child in ordered(children[type] ?? []) { visit(child, depth: depth + 1) }
        }
        for root in ordered(children[nil] ?? []) { visit(root, depth: 0) }
        return result
    }
}
