import Foundation

/// Facts about other systems used as test oracles, from the repository: the type database's sources
/// (`TypeDB/sources`: Apple's types, the UTType constants, libmagic's MIME list, shared-mime-info 2.4 and 2.2)
/// and the vectors only the tests read (`Tests/Reference`: dyn.* identifiers, path extensions). Each
/// directory's README says where the files came from.
enum Reference {
    static let packageRoot: URL = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = packageRoot.appending(path: "TypeDB/sources")
    static let vectors = packageRoot.appending(path: "Tests/Reference")

    /// The rows of a tab-separated file with a header, as dictionaries: a file of `TypeDB/sources`, or of
    /// `Tests/Reference` when it is there.
    static func table(_ name: String) throws -> [[String: String]] {
        let inVectors = vectors.appending(path: name)
        let url = FileManager.default.fileExists(atPath: inVectors.path) ? inVectors : directory.appending(path: name)
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, name) in header.enumerated() { row[name] = index < fields.count ? fields[index] : "" }
            return row
        }
    }

    static func words(_ field: String?) -> [String] {
        (field ?? "").split(separator: " ").map(String.init).filter { !$0.isEmpty && $0 != "-" }
    }

    /// A freedesktop shared-mime-info type: its name, aliases, simple `*.ext` globs and parents.
    struct MIMEType {
        var name: String
        var aliases: [String] = []
        var extensions: [String] = []
        var parents: [String] = []
    }

    /// The types of a freedesktop `mime-info` XML file, read line by line (the files put one element a line).
    static func freedesktopTypes(at url: URL) throws -> [MIMEType] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var types: [MIMEType] = []
        func attribute(_ name: String, in line: Substring) -> String? {
            guard let start = line.range(of: name + "=\"") else { return nil }
            let rest = line[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        for line in text.split(separator: "\n") {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("<mime-type "), let name = attribute("type", in: trimmed) {
                types.append(MIMEType(name: name.lowercased()))
            } else if trimmed.hasPrefix("<alias "), let alias = attribute("type", in: trimmed) {
                types[types.count - 1].aliases.append(alias.lowercased())
            } else if trimmed.hasPrefix("<sub-class-of "), let parent = attribute("type", in: trimmed) {
                types[types.count - 1].parents.append(parent.lowercased())
            } else if trimmed.hasPrefix("<glob "), let pattern = attribute("pattern", in: trimmed), pattern.hasPrefix("*."),
                      !(attribute("case-sensitive", in: trimmed) == "true" && pattern != pattern.lowercased()) {
                // A case-sensitive glob such as *.C (C++) cannot be an extension tag: extensions compare
                // case-insensitively, and *.c is C.
                let ext = pattern.dropFirst(2)
                if !ext.contains(where: { ".*?[".contains($0) }) {
                    types[types.count - 1].extensions.append(ext.lowercased())
                }
            }
        }
        return types
    }
}
