import Foundation
import Testing
@testable import FileIdentification

/// The parts of Magika's model reader that need no model: its configuration, read from untrusted JSON,
/// and the features it computes from a file's first and last bytes.
@Suite("Magika's configuration and features")
struct ModelTests {
    static let configuration = """
        {"beg_size": 4, "mid_size": 0, "end_size": 4, "use_inputs_at_offsets": false,
         "medium_confidence_threshold": 0.5, "min_file_size_for_dl": 2, "padding_token": 256, "block_size": 16,
         "target_labels_space": ["python", "randomtxt", "zig"], "thresholds": {"zig": 0.9},
         "overwrite_map": {"randomtxt": "txt"}, "protection": "none", "aes_key_hex": "", "version_major": 3}
        """

    @Test("a configuration shaped like Magika's is read")
    func readsConfiguration() throws {
        let read = try MagikaModel.Configuration.read(Array(Self.configuration.utf8))
        #expect(read.labels == ["python", "randomtxt", "zig"])
        #expect(read.thresholds == ["zig": 0.9])
        #expect(read.overwrite == ["randomtxt": "txt"])
        #expect(read.beginning == 4 && read.end == 4 && read.blockSize == 16 && read.padding == 256 && read.minimumSize == 2)
        #expect(read.mediumConfidence == 0.5)
    }

    @Test("features: leading white space dropped, the start padded after; trailing dropped, the end padded before")
    func features() throws {
        let read = try MagikaModel.Configuration.read(Array(Self.configuration.utf8))
        let bytes = Array("\t ab cd  \n".utf8)
        let features = try #require(read.features(head: bytes, tail: bytes))
        #expect(features == Array("ab c".utf8).map(Int32.init) + Array("b cd".utf8).map(Int32.init))
        let short = try #require(read.features(head: Array(" xy ".utf8), tail: Array(" xy ".utf8)))
        // Only the start loses white space at the front, only the end at the back (Magika's lstrip and rstrip).
        let (x, y, space): (Int32, Int32, Int32) = (120, 121, 32)
        #expect(short == [x, y, space, 256, 256, space, x, y])
        // Fewer meaningful bytes than the minimum: no features, as Magika decides.
        #expect(read.features(head: Array("   x".utf8), tail: Array("   x".utf8)) == nil)
    }

    @Test("configurations that are not Magika's version 3 are refused, naming the member", arguments: [
        ("version_major", "\"version_major\": 3", "\"version_major\": 2"),
        ("mid_size", "\"mid_size\": 0", "\"mid_size\": 8"),
        ("block_size", "\"block_size\": 16", "\"block_size\": 1e9"),
        ("beg_size", "\"beg_size\": 4", "\"beg_size\": 16"),
        ("target_labels_space", "[\"python\", \"randomtxt\", \"zig\"]", "[\"python\", 7]"),
        ("thresholds.zig", "{\"zig\": 0.9}", "{\"zig\": 1.5}"),
        ("protection", "\"protection\": \"none\"", "\"protection\": \"aes\""),
    ])
    func refusesOtherConfigurations(member: String, original: String, replacement: String) {
        let changed = Self.configuration.replacingOccurrences(of: original, with: replacement)
        #expect(changed != Self.configuration)
        #expect {
            _ = try MagikaModel.Configuration.read(Array(changed.utf8))
        } throws: { error in
            String(describing: error).contains(member)
        }
    }

    @Test("a configuration that is not JSON, or holds a member of another type, is refused saying so", arguments: [
        ("[1, 2", "not JSON"),
        (String(repeating: "[", count: 40_000), "not JSON"),
        (#"{"version_major": "3"}"#, "version_major is not of the type"),
        (#"{"target_labels_space": ["python", 7]}"#, "target_labels_space.1 is not of the type"),
    ])
    func refusesOtherJSON(text: String, reason: String) {
        #expect {
            _ = try MagikaModel.Configuration.read(Array(text.utf8))
        } throws: { error in
            String(describing: error).contains(reason)
        }
    }
}
