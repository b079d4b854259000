import Foundation

/// The reference data under `../shared/reference` (beside the package), used as test oracles.
enum Reference {
    static let packageRoot: URL = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = packageRoot.deletingLastPathComponent().appending(path: "shared/reference")
    static let isAvailable: Bool = {
        let available = FileManager.default.fileExists(atPath: directory.appending(path: "apple-system-types.tsv").path)
        if !available {
            print("notice: \(directory.path) is absent; the tests that compare with Apple's and freedesktop's data are skipped")
        }
        return available
    }()

    /// The rows of a tab-separated file with a header, as dictionaries.
    static func table(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: directory.appending(path: name), encoding: .utf8)
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
