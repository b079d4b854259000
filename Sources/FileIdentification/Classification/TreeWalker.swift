internal import SystemCalls
internal import SystemPackage

/// One entry a walk met: a path to identify, or a place the walk could not read.
struct WalkEntry: Sendable {
    var path: RawFilePath
    /// Why the entry could not be read (an unreadable directory, a failed `stat`).
    var failure: Errno?
}

/// The walk of `uti classify`: SystemCalls' `FileTreeWalk` (fts), its entries as `RawFilePath`s.
enum TreeWalker {
    typealias Options = FileTreeWalk.Options

    /// Calls `emit` for every entry under `roots` (the roots included) until it returns `false`.
    static func walk(_ roots: [RawFilePath], options: Options, emit: (WalkEntry) -> Bool) {
        FileTreeWalk.walk(roots.map(\.bytes), options: options) { path, failure in
            emit(WalkEntry(path: RawFilePath(bytes: path), failure: failure))
        }
    }
}
