import Foundation
import Testing
import TypeDatabaseCompiler
@testable import FileIdentification

@Suite("shared-mime-info 2.4 built in (the BuiltInSharedMIMEInfo trait)")
struct BuiltInSharedMIMEInfoTests {
    static let typeDB = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "TypeDB").path

    #if BuiltInSharedMIMEInfo
    @Test("the compiled-in files are TypeDB/mime as checked in")
    func builtInFilesAreCurrent() throws {
        let files = try TypeDBDirectory.mimeData(in: Self.typeDB)
        #expect(files.map(\.name) == TypeDBDirectory.mimeDataFileNames)
        for file in files {
            #expect(SharedMIMEInfo.Source.builtIn.file(file.name) == file.bytes,
                    "run `python3 TypeDB/tools/make-typedb.py` after changing TypeDB/sources")
        }
        #expect(SharedMIMEInfo.Source.builtIn.version == [2, 4])
    }
    #else
    @Test("without the trait nothing of shared-mime-info is compiled in")
    func nothingBuiltIn() throws {
        for name in TypeDBDirectory.mimeDataFileNames {
            #expect(SharedMIMEInfo.Source.builtIn.file(name) == nil)
        }
    }
    #endif
}
