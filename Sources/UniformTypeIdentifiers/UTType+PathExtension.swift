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
        var utf8 = Substring(path).utf8[...]
        while utf8.count > 1, utf8.last == UInt8(ascii: "/") { utf8 = utf8.dropLast() }
        let component = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8[utf8.index(after: $0)...] } ?? utf8
        guard let dot = component.lastIndex(of: UInt8(ascii: ".")), dot != component.startIndex else { return nil }
        let extensionBytes = component[component.index(after: dot)...]
        guard !extensionBytes.isEmpty, !extensionBytes.contains(UInt8(ascii: " ")) else { return nil }
        return String(Substring(extensionBytes))
    }
}
