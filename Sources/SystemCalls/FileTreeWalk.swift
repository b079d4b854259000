internal import CFileTreeWalk
package import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Walks directory trees by path with `fts(3)`, for classification: physical (symbolic links are entries,
/// never followed, so a loop of links cannot trap it), without changing the working directory, any depth.
/// (Removal and copies walk by descriptors instead: `TreeWalk`.)
package enum FileTreeWalk {
    package struct Options: Sendable {
        package var includeHidden = false
        package var maxDepth: Int?
        package var oneFileSystem = false
        /// `fnmatch(3)` patterns; an entry whose name matches one is left out, with what is under it.
        package var exclude: [String] = []
        /// Each directory's entries in byte order of their names.
        package var sorted = false

        package init(includeHidden: Bool = false, maxDepth: Int? = nil, oneFileSystem: Bool = false, exclude: [String] = [], sorted: Bool = false) {
            self.includeHidden = includeHidden
            self.maxDepth = maxDepth
            self.oneFileSystem = oneFileSystem
            self.exclude = exclude
            self.sorted = sorted
        }
    }

    /// What the walk knows of an entry besides its path.
    package struct Entry {
        /// Why the entry could not be read (an unreadable directory, a failed `stat`), or `nil`.
        package var failure: Errno?
        /// Whether the walk's `lstat` found a regular file (a reader need not ask again before opening it,
        /// though what it opens may have changed since).
        package var isRegularFile: Bool
    }

    /// Calls `emit` with the path of every entry under `roots` (the roots included) and what the walk knows
    /// of it, until it returns `false`. The path's bytes are valid for the call only.
    ///
    /// The corresponding C functions are `fts_open`, `fts_read`, `fts_set` and `fts_close`.
    package static func walk(_ roots: [[UInt8]], options: Options, emit: (UnsafeRawBufferPointer, Entry) -> Bool) {
        var arguments: [UnsafeMutablePointer<CChar>?] = roots.map { root in withNULTerminated(root) { strdup($0) } }
        arguments.append(nil)
        defer { for argument in arguments { free(argument) } }
        var flags = FTS_PHYSICAL | FTS_NOCHDIR | FTS_COMFOLLOW
        if options.oneFileSystem { flags |= FTS_XDEV }
        let compare: (@convention(c) (UnsafeMutablePointer<UnsafePointer<FTSENT>?>?, UnsafeMutablePointer<UnsafePointer<FTSENT>?>?) -> Int32)? =
            options.sorted ? { lhs, rhs in
                // fts_name is a flexible array member: read it in place, never from a copy of the entry.
                guard let left = lhs?.pointee, let right = rhs?.pointee,
                      let offset = MemoryLayout<FTSENT>.offset(of: \FTSENT.fts_name) else { return 0 }
                return strcmp((UnsafeRawPointer(left) + offset).assumingMemoryBound(to: CChar.self),
                              (UnsafeRawPointer(right) + offset).assumingMemoryBound(to: CChar.self))
            } : nil
        guard let tree = arguments.withUnsafeMutableBufferPointer({ fts_open($0.baseAddress, flags, compare) }) else {
            let failure = Errno.current
            for root in roots where !root.withUnsafeBytes({ emit($0, Entry(failure: failure, isRegularFile: false)) }) { return }
            return
        }
        defer { fts_close(tree) }
        while let entry = fts_read(tree) {
            let info = Int32(entry.pointee.fts_info)
            if info == FTS_DP { continue }  // a directory again, after its contents
            let level = Int(entry.pointee.fts_level)
            let path = UnsafeRawBufferPointer(start: entry.pointee.fts_path, count: Int(entry.pointee.fts_pathlen))
            if level > 0 {
                let last = lastComponent(path)
                let skip = (!options.includeHidden && last.first == UInt8(ascii: "."))
                    || options.maxDepth.map { level > $0 } == true
                    || options.exclude.contains { glob in matches(glob, last) }
                if skip {
                    if info == FTS_D { fts_set(tree, entry, FTS_SKIP) }
                    continue
                }
            }
            if info == FTS_D, let maxDepth = options.maxDepth, level >= maxDepth {
                fts_set(tree, entry, FTS_SKIP)
            }
            let failure: Errno? = switch info {
            case FTS_DNR, FTS_ERR, FTS_NS: Errno(rawValue: entry.pointee.fts_errno)
            default: nil
            }
            if !emit(path, Entry(failure: failure, isRegularFile: info == FTS_F)) { return }
        }
    }

    /// The last component of a path (trailing slashes ignored).
    private static func lastComponent(_ path: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer.SubSequence {
        var end = path.count
        while end > 1, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let start = path[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return path[start..<end]
    }

    private static func matches(_ glob: String, _ name: UnsafeRawBufferPointer.SubSequence) -> Bool {
        withNULTerminated(name) { fnmatch(glob, $0, 0) == 0 }
    }
}
