import CFuzzDriver
import FileIdentification

/// The bounded JSON reader and the check of a Magika model's configuration (`config.min.json`).
@_cdecl("FuzzModelConfiguration_main")
public func fuzzModelConfigurationMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzModelConfiguration)
}

private func fuzzModelConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzingEntryPoints.modelConfiguration(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
