import CFuzzDriver
import FileIdentification

/// The framed-record reader of `uti identify --framed -` alone (lengths, names, spooled content).
@_cdecl("FuzzFramedRecords_main")
public func fuzzFramedRecordsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzFramedRecords)
}

private func fuzzFramedRecords(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzingEntryPoints.framedRecords(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
