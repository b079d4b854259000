import CFuzzDriver
import FileIdentification

/// The ZIP reader alone (central directory, Zip64 records, local headers, entry classification).
@_cdecl("FuzzZip_main")
public func fuzzZipMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzZip)
}

private func fuzzZip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzingEntryPoints.zip(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
