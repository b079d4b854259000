import CFuzzDriver
import AppContainers

/// An app's Info.plist (XML or binary) as `uti apps register` reads it.
@_cdecl("FuzzManifest_main")
public func fuzzManifestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzManifest)
}

private func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let manifest = try? AppManifest.parse(bytes, file: "Info.plist") {
        for type in manifest.documentTypes { _ = type.claimedTypes }
    }
    return 0
}
