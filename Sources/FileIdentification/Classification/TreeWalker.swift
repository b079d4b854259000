internal import SystemCalls
internal import SystemPackage

/// One entry a walk met: a path to identify, or a place the walk could not read.
struct WalkEntry: Sendable {
    var path: RawFilePath
    /// Why the entry could not be read (an unreadable directory, a failed `stat`).
    var failure: Errno?
    /// Whether the walk found a regular file there (its directory's listing said so; a path from a list: not
    /// known).
    var isRegularFile = false
    /// The directory the entry is in, held open by the walk: the file is opened relative to it.
    var directory: FileTreeWalk.OpenDirectory?
}

/// The walk of `uti classify`: SystemCalls' `FileTreeWalk` (through directory descriptors), its entries as
/// `RawFilePath`s.
enum TreeWalker {
    typealias Options = FileTreeWalk.Options

    /// Calls `emit` for every entry under `roots` (the roots included) until it returns `false`.
    static func walk(_ roots: [RawFilePath], options: Options, emit: (WalkEntry) -> Bool) {
        FileTreeWalk.walk(roots.map(\.bytes), options: options) { path, entry in
            emit(WalkEntry(path: RawFilePath(bytes: path), failure: entry.failure, isRegularFile: entry.isRegularFile,
                           directory: entry.directory))
        }
    }
}
