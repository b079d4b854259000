import CFuzzDriver
import FileIdentification

/// The OLE2 compound-file reader alone (header, FAT chain, directory).
@_cdecl("FuzzOLE2_main")
public func fuzzOLE2Main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzOLE2)
}

private func fuzzOLE2(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzingEntryPoints.ole2(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
