internal import SystemCalls
internal import FileIdentification
package import SystemPackage

/// The copies a delivery writes into a container's `tmp/` before it moves them into `Documents/Inbox/`
/// (`Inbox` in DocumentRouting): named `….uti-delivery` and locked while they are written, so that a copy no
/// process holds locked is one a crash left. Part of the container's layout (docs/Containers.md), which the
/// registry's check and purge keep clean without knowing how a delivery is made.
package enum DeliveryTemporaries {
    /// The end of every delivery temporary's name.
    package static let suffix = Array(".uti-delivery".utf8)

    /// Removes (with `removing`) or lists the delivery temporaries in `directory` that no process holds
    /// locked: those a crash left.
    @discardableResult
    package static func removeAbandoned(in directory: FileDescriptor, path: String, removing: Bool) -> [String] {
        guard let names = try? directory.directoryEntries() else { return [] }
        var found: [String] = []
        for name in names where name.count > suffix.count && Array(name.suffix(suffix.count)) == suffix {
            guard let file = try? FileDescriptor.open(PathBytes(name), relativeTo: directory, .readOnly, options: [.noFollow, .nonBlocking]) else { continue }
            defer { file.closeQuietly() }
            guard (try? file.tryLockExclusively()) == true else { continue }
            if !removing || (try? directory.remove(PathBytes(name))) != nil {
                found.append(path + "/" + RawFilePath(bytes: name).escaped)
            }
        }
        return found
    }

    /// The abandoned delivery temporaries of the container at `container`.
    static func abandoned(inContainer container: String) -> [String] {
        inTemporaries(of: container, removing: false)
    }

    /// Removes the abandoned delivery temporaries of the container at `container`; returns what it did.
    static func removeAbandoned(inContainer container: String) -> [Registry.Problem] {
        inTemporaries(of: container, removing: true).map { path in
            Registry.Problem(.abandonedTemporary, path: path, detail: "removed: a delivery a crash interrupted")
        }
    }

    /// `removeAbandoned(in:path:removing:)` on the container's `tmp/`, opened without following a link.
    private static func inTemporaries(of container: String, removing: Bool) -> [String] {
        guard let directory = try? FileDescriptor.open(container + "/tmp", .readOnly, options: [.directory, .noFollow]) else { return [] }
        defer { directory.closeQuietly() }
        return removeAbandoned(in: directory, path: container + "/tmp", removing: removing)
    }
}
