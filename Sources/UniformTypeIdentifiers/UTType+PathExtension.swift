extension UTType {
    /// The filename extension of a path: what follows the last dot of its last component.
    ///
    /// A leading dot starts a hidden name, not an extension, and a name ending in a dot has none;
    /// trailing slashes are ignored, as for a directory path:
    ///
    ///     archive.tar.gz    => gz
    ///     /tmp/scratch.tiff => tiff
    ///     .bashrc           => nil
    ///     .scratch.tiff     => tiff
    ///     name.             => nil
    ///     a.b/c             => nil
    ///     /path.ext/        => ext
    ///     . and ..          => nil
    ///
    /// Like swift-foundation, an extension containing a space or a slash is not one.
    /// - Complexity: O(*n*) in the length of the last path component.
    public static func filenameExtension(ofPath path: some StringProtocol) -> String? {
        // A native string's bytes in place (every path a walk or a request gives), else a copy of them.
        if let found = path.utf8.withContiguousStorageIfAvailable({ bytes -> String?? in .some(filenameExtension(ofPathBytes: bytes)) }) {
            return found ?? nil
        }
        return Array(path.utf8).withUnsafeBufferPointer { filenameExtension(ofPathBytes: $0) }
    }

    /// `filenameExtension(ofPath:)` over the path's bytes.
    private static func filenameExtension(ofPathBytes bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var end = bytes.count
        while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        var start = end
        while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        var dot = end - 1
        while dot >= start, bytes[dot] != UInt8(ascii: ".") { dot -= 1 }
        guard dot > start, dot + 1 < end else { return nil }
        let extensionBytes = UnsafeBufferPointer(rebasing: bytes[(dot + 1)..<end])
        guard !extensionBytes.contains(UInt8(ascii: " ")) else { return nil }
        return String(decoding: extensionBytes, as: UTF8.self)
    }
}
