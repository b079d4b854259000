internal import SystemCalls
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The bearer token the routing endpoints ask for, read from a file only its owner may read or write: a
/// file readable by its group or by others is refused, as ssh refuses such a private key, since anyone who
/// can read the token can route into every app's Inbox.
package enum TokenFile {
    /// The shortest token accepted.
    package static let minimumLength = 16

    /// A token file refused, and why.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        package var path: String
        package var problem: String
        package var description: String { "\(path): \(problem)" }
    }

    /// The token in the file at `path` (trailing spaces and line ends dropped).
    ///
    /// - Throws: `Failure`: a file that cannot be read or is not a regular file, one whose mode lets its
    ///   group or others read or write it, one owned by another user than this process's (or root), or a
    ///   token shorter than `minimumLength`.
    package static func read(_ path: String) throws(Failure) -> [UInt8] {
        var found: Stat?
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: 4096) { (status: Stat) throws(Errno) in
                found = status
                let owner = status.userID.rawValue
                if status.permissions.rawValue & 0o077 != 0 || (owner != geteuid() && owner != 0) { throw .permissionDenied }
            }
        } catch .permissionDenied where found != nil {
            let mode = String((found?.permissions.rawValue ?? 0) & 0o777, radix: 8)
            if let found, found.permissions.rawValue & 0o077 != 0 {
                throw Failure(path: path, problem: "the token file's mode is 0\(mode): it must be readable by its owner only (chmod 600), as ssh asks of a private key")
            }
            throw Failure(path: path, problem: "the token file belongs to another user (uid \(found?.userID.rawValue ?? 0)): it must be the server's own")
        } catch {
            throw Failure(path: path, problem: "cannot read the token: \(error)")
        }
        let token = Array(bytes.reversed().drop { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }.reversed())
        guard token.count >= minimumLength else {
            throw Failure(path: path, problem: "the token must hold at least \(minimumLength) characters")
        }
        return token
    }
}
