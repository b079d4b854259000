import CFuzzDriver
import FileIdentification

/// Archives' members: libarchive reading any format it knows from the input, and uti's handling of what it
/// yields (names, sizes, nested archives held and opened, the limits).
@_cdecl("FuzzArchive_main")
public func fuzzArchiveMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzArchive)
}

private func fuzzArchive(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzingEntryPoints.archiveMembers(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
