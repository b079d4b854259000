import CFuzzDriver
import UniformTypeIdentifiers

/// A declaration file (XML or binary plist) parsed, then registered in a database of its own with the
/// built-in types, and looked up: parsing, validation, the cycle check and the tag index.
@_cdecl("FuzzDeclarations_main")
public func fuzzDeclarationsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    uti_fuzz_main(argc, argv, fuzzDeclarations)
}

private func fuzzDeclarations(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let declarations = try? TypeDeclaration.declarations(fromPropertyList: Data(bytes), source: "fuzz.plist") else { return 0 }
    let database = TypeDatabase(includingBuiltInTypes: true)
    guard (try? database.register(declarations)) != nil else { return 0 }
    for declaration in declarations.prefix(8) {
        for (tagClass, tags) in declaration.tags {
            for tag in tags.prefix(4) { _ = database.declaredTypes(tag: tag, tagClass: tagClass) }
        }
    }
    return 0
}

#if canImport(FoundationEssentials)
import struct FoundationEssentials.Data
#else
import struct Foundation.Data
#endif
