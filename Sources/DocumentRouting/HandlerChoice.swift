public import AppContainers
public import UniformTypeIdentifiers

/// Which registered apps can open a type, best first, and why.
///
/// 1. A user default for the type, or for its nearest supertype that has one: for the asked role,
///    else for any role; with no role asked, any default of that type.
/// 2. Apps claiming the most specific type the file conforms to: a claim on `public.jpeg` beats one on
///    `public.image`, which beats one on `public.data`.
/// 3. Rank: Owner, then Default, then Alternate; an app whose claim has rank None never opens the type.
/// 4. Editor before Viewer (the asked role first, when one is asked); then registration order.
public enum HandlerChoice {
    /// One app that can open the type.
    public struct Candidate: Sendable, Hashable {
        /// The registered app that can open the type.
        public var app: Registry.RegisteredApp
        /// The document type entry whose claim counts.
        public var documentType: AppManifest.DocumentType
        /// The claimed type the file's type conforms to.
        public var claimedType: UTType
        /// 0 for a claim on the type itself, then 1, 2, ... along its supertypes, depth-first.
        public var distance: Int
        /// The user default that put the app first, if any.
        public var defaultFor: UTType?
        /// The app's bundle identifier.
        public var bundleIdentifier: String { app.bundleIdentifier }

        /// Why the app is where it is.
        public var explanation: String {
            var parts: [String] = []
            if let defaultFor { parts.append("user default for \(defaultFor.identifier)") }
            parts.append(distance == 0 ? "claims \(claimedType.identifier) itself"
                                       : "claims \(claimedType.identifier) (\(distance) step\(distance == 1 ? "" : "s") up)")
            parts.append("rank \(documentType.rank.rawValue)")
            parts.append("role \(documentType.role.rawValue)")
            return parts.joined(separator: ", ")
        }
    }

    /// The apps that can open `type`, best first.
    public static func candidates(for type: UTType, apps: [Registry.RegisteredApp], defaults: [Registry.DefaultHandler],
                                  role: AppManifest.DocumentType.Role? = nil) -> [Candidate] {
        let lineage = [type] + type.orderedSupertypes
        var best: [String: (candidate: Candidate, order: Int)] = [:]
        for (order, app) in apps.enumerated() {
            for documentType in app.manifest.documentTypes where documentType.rank != .none && documentType.role != .none {
                if let role, documentType.role != role, !(role == .viewer && documentType.role == .editor) { continue }
                for claimed in documentType.claimedTypes {
                    guard let distance = lineage.firstIndex(of: claimed) else { continue }
                    let candidate = Candidate(app: app, documentType: documentType, claimedType: claimed, distance: distance, defaultFor: nil)
                    if let existing = best[app.bundleIdentifier], !isBetter(candidate, than: existing.candidate, role: role) { continue }
                    best[app.bundleIdentifier] = (candidate, order)
                }
            }
        }
        // The user's default: for the type or its nearest supertype that has one, for the role or any.
        var chosenDefault: (bundle: String, type: UTType)?
        search: for ancestor in lineage {
            let forType = defaults.filter { $0.type.lowercased() == ancestor.identifier.lowercased() }
            let match = forType.first { role != nil && $0.role == role?.rawValue } ?? forType.first { $0.role == nil }
                ?? (role == nil ? forType.first : nil)
            if let match, best[match.bundleIdentifier] != nil {
                chosenDefault = (match.bundleIdentifier, ancestor)
                break search
            }
        }
        var ordered = best.values.sorted { lhs, rhs in
            if isBetter(lhs.candidate, than: rhs.candidate, role: role) != isBetter(rhs.candidate, than: lhs.candidate, role: role) {
                return isBetter(lhs.candidate, than: rhs.candidate, role: role)
            }
            return lhs.order < rhs.order
        }.map(\.candidate)
        if let chosenDefault, let index = ordered.firstIndex(where: { $0.bundleIdentifier == chosenDefault.bundle }) {
            var first = ordered.remove(at: index)
            first.defaultFor = chosenDefault.type
            ordered.insert(first, at: 0)
        }
        return ordered
    }

    private static func rankOrder(_ rank: AppManifest.DocumentType.Rank) -> Int {
        switch rank {
        case .owner: 0
        case .default: 1
        case .alternate: 2
        case .none: 3
        }
    }

    private static func roleOrder(_ value: AppManifest.DocumentType.Role, asked: AppManifest.DocumentType.Role?) -> Int {
        if let asked, value == asked { return 0 }
        switch value {
        case .editor: return 1
        case .viewer: return 2
        case .shell: return 3
        case .none: return 4
        }
    }

    /// Specificity, then rank, then role.
    private static func isBetter(_ lhs: Candidate, than rhs: Candidate, role: AppManifest.DocumentType.Role?) -> Bool {
        if lhs.distance != rhs.distance { return lhs.distance < rhs.distance }
        let leftRank = rankOrder(lhs.documentType.rank), rightRank = rankOrder(rhs.documentType.rank)
        if leftRank != rightRank { return leftRank < rightRank }
        return roleOrder(lhs.documentType.role, asked: role) < roleOrder(rhs.documentType.role, asked: role)
    }
}
