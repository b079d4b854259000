import Foundation
import TestSupport
import Testing
@testable import FileIdentification

/// The shared-mime-info databases as options of a `FileIdentifier`, in this process: each identifier reads
/// the databases it was given, whatever the environment says.
@Suite("shared-mime-info databases, in process")
struct SharedMIMEInfoTests {
    private func mimeTypes(_ samples: [String], directories: [String], builtIn: Bool) throws -> [String] {
        let identifier = FileIdentifier(options: .init(sharedMIMEInfoDirectories: directories, usesBuiltInSharedMIMEInfo: builtIn))
        return try samples.map { try identifier.identify(fileAt: $0).mimeType }
    }

    @Test("the system's database alone, from the directories given")
    func systemDatabaseAlone() throws {
        let directory = try TemporaryDirectory()
        let samples = try SharedMIMEInfoFixture.samples(in: directory)
        let crafted = try SharedMIMEInfoFixture.dataDirectory(version: "2.2", in: directory)
        let types = try mimeTypes(samples, directories: [directory.file("nothing-here"), crafted], builtIn: false)
        // The crafted rules decide; the real cartridge header is no rule of the crafted database.
        #expect(Array(types.dropFirst()) == ["application/x-commodore-crt", "application/marc"])
        #expect(types[0] != "application/x-commodore-crt")
    }

    @Test("no database at all: no shared-mime-info reading")
    func noDatabase() throws {
        let directory = try TemporaryDirectory()
        let samples = try SharedMIMEInfoFixture.samples(in: directory)
        let identifier = FileIdentifier(options: .init(sharedMIMEInfoDirectories: [], usesBuiltInSharedMIMEInfo: false))
        for sample in samples {
            let identification = try identifier.identify(fileAt: sample)
            #expect(!([identification.evidence.content] + identification.evidence.otherReadings).contains { $0?.source == .freedesktopMagic })
        }
    }

    @Test("the built-in 2.4 rules beside an older system database, as the environment would give it",
          .enabled(if: Tools.hasBuiltInSharedMIMEInfo, Tools.needsBuiltInSharedMIMEInfo))
    func builtInBesideOlder() throws {
        let directory = try TemporaryDirectory()
        let samples = try SharedMIMEInfoFixture.samples(in: directory)
        let older = try SharedMIMEInfoFixture.dataDirectory(version: "2.2", in: directory)
        #expect(try mimeTypes(samples, directories: [older], builtIn: true)
                == ["application/x-commodore-crt", "application/octet-stream", "application/marc"])
        #expect(try mimeTypes(samples, directories: [], builtIn: true)
                == ["application/x-commodore-crt", "application/octet-stream", "application/octet-stream"])
        let newer = try SharedMIMEInfoFixture.dataDirectory(version: "2.10", in: directory)
        let types = try mimeTypes(samples, directories: [newer], builtIn: true)
        #expect(types.first != "application/x-commodore-crt")
        #expect(Array(types.dropFirst()) == ["application/x-commodore-crt", "application/marc"])
    }

    @Test("without the trait, asking for the built-in rules changes nothing", .disabled(if: Tools.hasBuiltInSharedMIMEInfo, "the trait is on"))
    func noBuiltInRules() throws {
        #expect(!FileIdentifier.hasBuiltInSharedMIMEInfo)
        let directory = try TemporaryDirectory()
        let samples = try SharedMIMEInfoFixture.samples(in: directory)
        let older = try SharedMIMEInfoFixture.dataDirectory(version: "2.2", in: directory)
        #expect(try mimeTypes(samples, directories: [older], builtIn: true) == mimeTypes(samples, directories: [older], builtIn: false))
    }
}
