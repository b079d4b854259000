/// The readers of untrusted bytes, reachable one at a time for the fuzz targets in `Fuzz/` (package
/// access only: not part of the library's API).
package enum FuzzingEntryPoints {
    /// The ZIP reader alone: central directory (or local headers) and the classification of entries.
    package static func zip(_ bytes: [UInt8]) {
        _ = try? ZipContainer.identify(MemoryBytes(storage: bytes), prefix: Array(bytes.prefix(64 * 1024)))
    }

    /// The OLE2 compound-file reader alone: header, FAT chain, directory entries.
    package static func ole2(_ bytes: [UInt8]) {
        _ = try? OLE2Container.identify(MemoryBytes(storage: bytes), prefix: Array(bytes.prefix(64 * 1024)))
    }
}
