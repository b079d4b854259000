import CFuzzDriver
import FileIdentification

/// `identify(data:filename:)` as an upload handler calls it: the first byte picks a name, so that the
/// rules that weigh a name against the content are fuzzed too; PRONOM's signatures are matched too.
private let identifier: FileIdentifier = {
    var options = FileIdentifier.Options()
    options.pronom = true
    return FileIdentifier(options: options)
}()
private let names: [String?] = [nil, "upload.bin", "photo.jpg", "report.pdf", "archive.zip", "document.docx", "notes.txt",
                                "data.plist", "sheet.xls", "movie.mp4", "script.sh", "page.html", "font.ttf", "image.svg"]

@_cdecl("FuzzIdentify_main")
public func fuzzIdentifyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzIdentify)
}

private func fuzzIdentify(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let name = bytes.first.map { names[Int($0) % names.count] } ?? nil
    _ = try? identifier.identify(data: bytes.dropFirst(), filename: name)
    return 0
}
