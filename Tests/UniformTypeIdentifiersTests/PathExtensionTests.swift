import Testing
import UniformTypeIdentifiers

@Suite("Filename extensions")
struct PathExtensionTests {
    @Test("the path-extension vectors of Apple and swift-foundation")
    func vectors() throws {
        let apis: Set = [
            "derived", "NSString.pathExtension", "URL(filePath:).pathExtension",
            "URL(filePath:,directoryHint:.isDirectory).pathExtension", "String.pathExtension (swift-foundation)",
        ]
        var checked = 0
        for row in try Reference.table("path-extension-vectors.tsv") where apis.contains(row["api"] ?? "") {
            let input = try #require(row["input"]), expected = row["expected"] ?? ""
            #expect(UTType.filenameExtension(ofPath: input) == (expected.isEmpty ? nil : expected), "\(input)")
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test func lastDotOnly() {
        #expect(UTType.filenameExtension(ofPath: "archive.tar.gz") == "gz")
        #expect(UTType.filenameExtension(ofPath: ".bashrc") == nil)
        #expect(UTType.filenameExtension(ofPath: "name.") == nil)
        #expect(UTType.filenameExtension(ofPath: "Photo.JPG") == "JPG")
        #expect(UTType.filenameExtension(ofPath: "dir.d/file") == nil)
    }
}
