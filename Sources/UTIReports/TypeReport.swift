package import UniformTypeIdentifiers

/// What `uti info` and `uti types` say about one type, for people and as JSON.
package struct TypeReport {
    package let type: UTType
    package let declaration: TypeDeclaration?

    package init(_ type: UTType) {
        self.type = type
        self.declaration = TypeDatabase.shared.declaration(of: type)
    }

    /// `declared`, `dynamic` or `undeclared`.
    package var status: String {
        if type.isDynamic { return "dynamic" }
        return type.isDeclared ? "declared" : "undeclared"
    }

    /// Tag classes in a fixed order: extensions, MIME types, then any other class by name.
    package var orderedTags: [(UTTagClass, [String])] {
        let tags = type.tags
        let known: [UTTagClass] = [.filenameExtension, .mimeType]
        let others = tags.keys.filter { !known.contains($0) }.sorted { $0.rawValue < $1.rawValue }
        return (known + others).compactMap { tagClass in tags[tagClass].map { (tagClass, $0) } }
    }

    package var json: JSONValue {
        .object([
            ("identifier", .string(type.identifier)),
            ("description", JSONValue(type.localizedDescription)),
            ("status", .string(status)),
            ("isDeclared", .boolean(type.isDeclared)),
            ("isDynamic", .boolean(type.isDynamic)),
            ("isPublic", .boolean(type.isPublic)),
            ("declaration", JSONValue(declaration?.kind.rawValue)),
            ("declaredIn", JSONValue(declaration?.source)),
            ("preferredFilenameExtension", JSONValue(type.preferredFilenameExtension)),
            ("preferredMIMEType", JSONValue(type.preferredMIMEType)),
            ("tags", .object(orderedTags.map { ($0.0.rawValue, JSONValue($0.1)) })),
            ("conformsTo", JSONValue(type.directSupertypes.map(\.identifier))),
            ("supertypes", JSONValue(type.orderedSupertypes.map(\.identifier))),
            ("referenceURL", JSONValue(type.referenceURL?.absoluteString)),
            ("version", JSONValue(type.version)),
        ])
    }

    /// The conformance hierarchy as a tree rooted at the type, each branch ending at a root such as
    /// `public.item`. A type met again is printed with `(see above)` instead of its subtree.
    package var conformanceTree: [String] {
        var lines: [String] = []
        var expanded = Set<UTType>()
        func visit(_ node: UTType, prefix: String, branch: String) {
            let again = expanded.contains(node) && !node.directSupertypes.isEmpty
            lines.append(prefix + branch + node.identifier + (again ? " (see above)" : ""))
            guard !again else { return }
            expanded.insert(node)
            let parents = node.directSupertypes
            let childPrefix = prefix + (branch == "└─ " ? "   " : branch == "├─ " ? "│  " : "")
            for (index, parent) in parents.enumerated() {
                visit(parent, prefix: childPrefix, branch: index == parents.count - 1 ? "└─ " : "├─ ")
            }
        }
        visit(type, prefix: "", branch: "")
        return lines
    }

    /// One string per line, each printed (and escaped) on its own.
    package var lines: [String] {
        var lines = [type.identifier]
        func field(_ name: String, _ value: String?) {
            if let value, !value.isEmpty { lines.append("  " + (name + ":").padding(13) + value) }
        }
        field("description", type.localizedDescription)
        var kind = [status]
        if type.isPublic { kind.append("public") }
        if let declaration { kind.append(declaration.kind.rawValue) }
        field("kind", kind.joined(separator: ", "))
        field("declared in", declaration?.source)
        for (tagClass, values) in orderedTags {
            let name = switch tagClass {
            case .filenameExtension: "extensions"
            case .mimeType: "MIME types"
            default: tagClass.rawValue
            }
            field(name, values.joined(separator: " "))
        }
        field("reference", type.referenceURL?.absoluteString)
        field("version", type.version.map { String($0) })
        lines.append("  conformance:")
        lines += conformanceTree.map { "    " + $0 }
        return lines
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    package func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    /// The text in exactly `width` columns, for a table's column: padded, or cut with `…` and a space left
    /// before the next column, so that the columns after it stay where they are.
    package func column(_ width: Int) -> String {
        count < width ? self + String(repeating: " ", count: width - count) : String(prefix(max(width - 2, 0))) + "… "
    }
}
