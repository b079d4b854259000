import CFuzzDriver
import ContainerSync

/// What `uti ubiquity sync` reads from a remote: a key-value store's file and an attributes' manifest.
@_cdecl("FuzzSyncedFiles_main")
public func fuzzSyncedFilesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzSyncedFiles)
}

private func fuzzSyncedFiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    SyncFuzzingEntryPoints.keyValueStore(bytes)
    SyncFuzzingEntryPoints.attributeManifest(bytes)
    return 0
}
