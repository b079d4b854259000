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

    @Test("the built-in name lists are sorted, so they are searched in place; searched and indexed agree", arguments: ["types", "aliases"])
    func namesSortedAndSearchable(file: String) throws {
        let bytes = try #require(SharedMIMEInfo.Source.builtIn.file(file))
        let keys = bytes.split(separator: UInt8(ascii: "\n")).map { Array($0.prefix(while: { $0 != UInt8(ascii: " ") })) }
        #expect(keys.count > 300)
        for index in 1..<keys.count {
            #expect(keys[index - 1].lexicographicallyPrecedes(keys[index]), "line \(index + 1) of \(file) is out of order")
        }
        let inPlace = SharedMIMEInfo.SortedLines(bytes, sorted: true)
        let indexed = SharedMIMEInfo.SortedLines(bytes)
        for key in keys.map({ String(decoding: $0, as: UTF8.self) }) + ["", "a", "zzzz/none", "image/png-", "application/"] {
            #expect(inPlace.contains(key) == indexed.contains(key), "\(key)")
        }
        #expect(keys.allSatisfy { inPlace.contains(String(decoding: $0, as: UTF8.self)) })
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
