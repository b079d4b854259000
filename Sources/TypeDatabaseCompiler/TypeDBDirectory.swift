#if canImport(FoundationEssentials)
internal import struct FoundationEssentials.Data
#else
internal import struct Foundation.Data
#endif
internal import SystemCalls
package import SystemPackage
package import UniformTypeIdentifiers

/// A TypeDB directory: the declaration files (`*.plist`) and `mime/`, shared-mime-info's compiled data.
package enum TypeDBDirectory {
    /// The declarations of a TypeDB directory, one per identifier, in the database's declaration order:
    /// `*.plist` files in file-name order, entries in file order (exported, then imported).
    ///
    /// Where one identifier is declared twice, the exported declaration wins over the imported one;
    /// two declarations of the same kind are an error. Every parent must be declared in the directory.
    ///
    /// - Parameter sourcePrefix: What to record as each declaration's source before the file name.
    package static func declarations(in directory: String, sourcePrefix: String = "TypeDB/") throws(TypeDeclarationError) -> [TypeDeclaration] {
        var merged: [TypeDeclaration] = []
        var position: [String: Int] = [:]
        for file in try DeclarationFiles.propertyLists(in: directory) {
            let source = sourcePrefix + AtomicFile.split(file.path).name
            for declaration in try TypeDeclaration.declarations(fromPropertyList: Data(file.bytes), source: source) {
                let key = declaration.identifier.lowercased()
                guard let existing = position[key] else {
                    position[key] = merged.count
                    merged.append(declaration)
                    continue
                }
                guard merged[existing].kind != declaration.kind else {
                    throw TypeDeclarationError(file: declaration.source, entry: declaration.identifier,
                                               problem: .duplicateIdentifier(declaration.identifier))
                }
                if declaration.kind == .exported { merged[existing] = declaration }
            }
        }
        return merged
    }

    /// The compiled bytes of a TypeDB directory's declarations.
    package static func compiledDatabase(in directory: String) throws -> [UInt8] {
        var writer = CompiledTypeDatabase.Writer()
        return try writer.compile(try declarations(in: directory))
    }

    /// The files of a TypeDB's `mime` directory that the library carries, in name order.
    package static let mimeDataFileNames = ["XMLnamespaces", "aliases", "globs2", "magic", "types", "version"]

    /// The files of a TypeDB's `mime` directory (shared-mime-info's compiled data, see TypeDB/README.md), by
    /// name in name order; empty when the directory is absent.
    package static func mimeData(in directory: String) throws(TypeDeclarationError) -> [(name: String, bytes: [UInt8])] {
        var files: [(name: String, bytes: [UInt8])] = []
        for name in mimeDataFileNames {
            do {
                files.append((name, try RegularFile.read(directory + "/mime/" + name, limit: 64 << 20)))
            } catch .noSuchFileOrDirectory {
                continue
            } catch {
                throw TypeDeclarationError(file: "TypeDB/mime/" + name, problem: .unreadable(error))
            }
        }
        return files
    }
}

extension TypeDBDirectory {
    /// A generated file's text.
    package static func read(_ path: String) throws(Errno) -> String {
        String(decoding: try RegularFile.read(path, limit: 64 << 20), as: UTF8.self)
    }

    /// Replaces a generated file atomically (its directory must exist).
    package static func write(_ text: String, to path: String) throws(Errno) {
        try AtomicFile.replace(atPath: path, with: Array(text.utf8), permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }
}
