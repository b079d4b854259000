internal import CFileTreeWalk
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// One entry a walk met: a path to identify, or a place the walk could not read.
struct WalkEntry: Sendable {
    var path: RawFilePath
    /// Why the entry could not be read (an unreadable directory, a failed `stat`).
    var failure: Errno?
}

/// Walks directory trees with `fts(3)`: physical (symbolic links are entries, never followed, so a
/// loop of links cannot trap it), without changing the working directory, any depth.
enum TreeWalker {
    struct Options: Sendable {
        var includeHidden = false
        var maxDepth: Int?
        var oneFileSystem = false
        var exclude: [String] = []
        var sorted = false
    }

    /// Calls `emit` for every entry under `roots` (the roots included) until it returns `false`.
    static func walk(_ roots: [RawFilePath], options: Options, emit: (WalkEntry) -> Bool) {
        var arguments: [UnsafeMutablePointer<CChar>?] = roots.map { root in
            root.withCString { strdup($0) }
        }
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
            let failure = Errno(rawValue: errno)
            for root in roots where !emit(WalkEntry(path: root, failure: failure)) { return }
            return
        }
        defer { fts_close(tree) }
        while let entry = fts_read(tree) {
            let info = Int32(entry.pointee.fts_info)
            if info == FTS_DP { continue }  // a directory again, after its contents
            let level = Int(entry.pointee.fts_level)
            let path = RawFilePath(bytes: UnsafeRawBufferPointer(start: entry.pointee.fts_path, count: Int(entry.pointee.fts_pathlen)))
            if level > 0 {
                let name = path.lastComponent
                let skip = (!options.includeHidden && name.first == UInt8(ascii: "."))
                    || options.maxDepth.map { level > $0 } == true
                    || options.exclude.contains { glob in Self.matches(glob, name) }
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
            if !emit(WalkEntry(path: path, failure: failure)) { return }
        }
    }

    private static func matches(_ glob: String, _ name: [UInt8]) -> Bool {
        (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { name in
                guard let base = name.baseAddress else { return false }
                return fnmatch(glob, base, 0) == 0
            }
        }
    }
}
