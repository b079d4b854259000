internal import SystemCalls
internal import SystemPackage

/// One entry a walk met: a path to identify, or a place the walk could not read.
struct WalkEntry: Sendable {
    var path: RawFilePath
    /// Why the entry could not be read (an unreadable directory, a failed `stat`).
    var failure: Errno?
    /// Whether the walk found a regular file there (its `lstat` said so; a path from a list: not known).
    var isRegularFile = false
}

/// The walk of `uti classify`: SystemCalls' `FileTreeWalk` (fts), its entries as `RawFilePath`s.
enum TreeWalker {
    typealias Options = FileTreeWalk.Options

    /// Calls `emit` for every entry under `roots` (the roots included) until it returns `false`.
    static func walk(_ roots: [RawFilePath], options: Options, emit: (WalkEntry) -> Bool) {
        FileTreeWalk.walk(roots.map(\.bytes), options: options) { path, entry in
            emit(WalkEntry(path: RawFilePath(bytes: path), failure: entry.failure, isRegularFile: entry.isRegularFile))
        }
    }
}
