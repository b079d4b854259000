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

    @Test("JSON: escapes, surrogate pairs, numbers")
    func json() throws {
        let value = try BoundedJSON.parse(Array(#" {"a": ["\u00e9\ud83d\ude00\n\"", -1.5e-3, true, false, null, {}, []]} "#.utf8))
        #expect(value["a"] == .array([.string("é😀\n\""), .number(-0.0015), .boolean(true), .boolean(false), .null, .object([]), .array([])]))
    }

    @Test("JSON past its limits, or malformed, fails with a reason and the offset", arguments: [
        (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "nested deeper"),
        ("[" + Array(repeating: "1", count: 200).joined(separator: ",") + "]", "more than"),
        ("{\"a\": 1} x", "text after"),
        ("\"\\ud800\"", "surrogate"),
        ("[1, 2", "unexpected end"),
        ("\"a\u{01}\"", "control character"),
        ("1e999", "out of range"),
    ])
    func jsonLimits(text: String, reason: String) {
        #expect {
            _ = try BoundedJSON.parse(Array(text.utf8), limits: .init(bytes: 1 << 16, depth: 32, values: 100))
        } throws: { error in
            String(describing: error).contains(reason)
        }
        #expect(throws: BoundedJSON.Failure.self) {
            _ = try BoundedJSON.parse(Array(repeating: UInt8(ascii: " "), count: 65), limits: .init(bytes: 64, depth: 4, values: 4))
        }
    }
}
