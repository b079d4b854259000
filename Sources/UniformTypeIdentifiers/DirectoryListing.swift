#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The names in a directory, read with `opendir`/`readdir`.
enum DirectoryListing {
    static func names(in path: String) throws(FileContents.ReadError) -> [String] {
        guard let directory = opendir(path) else { throw FileContents.ReadError(code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The `*.plist` files of a directory, in file-name order (the order declarations are read in).
    static func propertyLists(in path: String) throws(TypeDeclarationError) -> [String] {
        do {
            return try names(in: path).filter { $0.hasSuffix(".plist") }.sorted()
        } catch {
            throw TypeDeclarationError(file: path, problem: .unreadable(error.description))
        }
    }
}
