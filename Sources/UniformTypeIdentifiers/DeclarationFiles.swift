internal import SystemCalls
package import SystemPackage

/// Reading declaration files: property lists, from untrusted places (apps' `Info.plist` files, directories
/// users name), so each is read whole only up to a limit and refused with the system's reason.
package enum DeclarationFiles {
    /// The largest declaration file accepted. Apple's own `Info.plist` files are a few kilobytes, the
    /// largest generated TypeDB file a quarter of a megabyte.
    package static let sizeLimit = 16 << 20

    /// The bytes of the declaration file at `path`.
    package static func read(_ path: String) throws(TypeDeclarationError) -> [UInt8] {
        do {
            return try RegularFile.read(path, limit: sizeLimit)
        } catch {
            throw TypeDeclarationError(file: path, problem: problem(error))
        }
    }

    /// A system error as the problem it is: a file over the limit says so.
    package static func problem(_ error: Errno) -> TypeDeclarationError.Problem {
        error == .fileTooLarge ? .unreadable("larger than \(sizeLimit >> 20) MiB") : .unreadable(error)
    }

    /// The `*.plist` files of a directory, in byte order of their names (the order declarations are read
    /// in), each read whole: `(path, bytes)`, the path as `directory/name` for messages.
    package static func propertyLists(in directory: String) throws(TypeDeclarationError) -> [(path: String, bytes: [UInt8])] {
        let descriptor: FileDescriptor
        let names: [[UInt8]]
        do {
            descriptor = try FileDescriptor.open(directory, .readOnly, options: [.directory])
        } catch {
            throw TypeDeclarationError(file: directory, problem: .unreadable(error))
        }
        defer { descriptor.closeQuietly() }
        do {
            names = try descriptor.directoryEntries().filter { $0.count > 6 && $0.suffix(6).elementsEqual(".plist".utf8) }
        } catch {
            throw TypeDeclarationError(file: directory, problem: .unreadable(error))
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + String(decoding: name, as: UTF8.self)
            do {
                files.append((path, try RegularFile.read(PathBytes(name), relativeTo: descriptor, limit: sizeLimit)))
            } catch {
                throw TypeDeclarationError(file: path, problem: problem(error))
            }
        }
        return files
    }
}
