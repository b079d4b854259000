public import FileIdentification
public import SystemPackage

/// What `Registry.purgeCaches` or `Registry.purgeTemporary` removed (or, for a dry run, would remove),
/// what it left alone and why, and what it could not remove.
public struct PurgeReport: Sendable {
    /// One top-level entry of an app's `Library/Caches/` or `tmp/`, removed with everything in it.
    public struct Removal: Sendable, Hashable {
        /// The app whose container held it, or the application group whose shared container did.
        public var bundleIdentifier: String
        /// Its full path.
        public var path: RawFilePath
        /// The space it held (allocated blocks, summed over the tree; a file linked twice inside counts twice).
        public var bytes: Int64
        /// When anything in it was last read or written (seconds since 1970), as purging ranks entries.
        public var lastUsed: Int64
    }

    /// A container, or one of its directories, left alone.
    public struct Skip: Sendable, Hashable {
        /// Why a container or directory was left alone.
        public enum Reason: String, Sendable, Hashable {
            /// A process holds the app's run lock (see `RunLock`): the app is running.
            case running
            /// The directory is a symbolic link or not a directory: never followed, never emptied.
            case notADirectory = "not-a-directory"
            /// The container, or the lock file, could not be opened (`errno` says why).
            case unreadable
        }

        /// The app, or the application group, whose container was left alone.
        public var bundleIdentifier: String
        /// The container or directory left alone.
        public var path: String
        /// Why it was left alone.
        public var reason: Reason
        /// The system's reason, for `.unreadable`.
        public var errno: Errno?

        /// Why it was left alone, in words.
        public var message: String {
            switch reason {
            case .running: "in use: a process holds its run lock (\(RunLock.fileName))"
            case .notADirectory: "not a directory (a symbolic link?); left alone"
            case .unreadable: "cannot be opened: \(errno?.description ?? "unknown error")"
            }
        }
    }

    /// An entry that could not be removed whole (what was removed of it is gone).
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The app whose container held it, or the application group whose shared container did.
        public var bundleIdentifier: String
        /// The entry's full path.
        public var path: String
        /// Why it could not be removed.
        public var errno: Errno
        /// `path: errno`.
        public var description: String { "\(path): \(errno)" }
    }

    /// Whether nothing was removed: the report says what would have been.
    public var dryRun: Bool
    /// In the order removed: oldest first for caches purged down to a free-space goal.
    public var removed: [Removal] = []
    /// The containers and directories left alone, with why.
    public var skipped: [Skip] = []
    /// The entries that could not be removed whole.
    public var failures: [Failure] = []
    /// The apps whose directories were looked at (not skipped), in registration order.
    public var purgedApps: [String] = []

    /// The bytes freed (to be freed) in all.
    public var freedBytes: Int64 { removed.reduce(0) { $0 + $1.bytes } }

    /// The removals of one app.
    public func removals(of bundleIdentifier: String) -> [Removal] {
        removed.filter { $0.bundleIdentifier == bundleIdentifier }
    }
}
