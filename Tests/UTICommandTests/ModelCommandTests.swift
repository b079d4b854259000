import Foundation
import TestSupport
import Testing

/// Magika's model, when Python's `magika` and `onnxruntime` packages are installed (the repository's
/// `.build-python` environment, which `.ci/run` makes): asked for text nothing else names, and only then.
/// Without the packages these tests are skipped, not failed.
@Suite("Magika's model from the command line")
struct ModelCommandTests {
    /// The package directory holding both, or `nil`.
    static let packages = Tools.magikaPackages

    private func identify(_ paths: [String], environment: [String: String]) throws -> [[String: Any]] {
        let result = try UTIBinary.run(["identify", "--json", "--"] + paths, environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("nameless source that every other reader leaves plain text is the language the model says, with its score",
          .enabled(if: packages != nil, "Python's magika and onnxruntime are not installed in .build-python"))
    func modelNamesNamelessText() throws {
        let directory = try TemporaryDirectory()
        let python = try directory.write("""
            import os
            import sys


            def main(arguments):
                for argument in arguments:
                    print(os.path.basename(argument))
                return 0


            if __name__ == "__main__":
                sys.exit(main(sys.argv[1:]))

            """, to: "tool")
        let packages = try #require(Self.packages)
        let answers = try identify([python], environment: ["PYTHONPATH": packages, "UTI_MAGIKA": ""])
        let answer = try #require(answers.first)
        #expect(answer["identifier"] as? String == "public.python-script")
        let evidence = try #require(answer["evidence"] as? [String: Any])
        let content = try #require(evidence["content"] as? [String: Any])
        #expect(content["source"] as? String == "model")
        #expect((content["detail"] as? String)?.contains("Magika standard_v3") == true, "\(content)")
        let score = try #require(content["score"] as? Double)
        #expect(score >= 0.5 && score <= 1)
        #expect(evidence["rule"] as? String == "content-only")
        // What the other readers said is kept.
        let others = try #require(evidence["otherReadings"] as? [[String: Any]])
        #expect(others.contains { $0["identifier"] as? String == "public.plain-text" })

        // UTI_MAGIKA=off: as without the model.
        let off = try identify([python], environment: ["PYTHONPATH": packages, "UTI_MAGIKA": "off"])
        #expect(off.first?["identifier"] as? String == "public.plain-text")
    }

    @Test("the model is not asked when a name, a #! line or another reader has spoken",
          .enabled(if: packages != nil, "Python's magika and onnxruntime are not installed in .build-python"))
    func modelOnlyForUnnamedPlainText() throws {
        let directory = try TemporaryDirectory()
        let code = "import os\nimport sys\n\nfor name in os.listdir(sys.argv[1]):\n    print(name)\n"
        let named = try directory.write(code, to: "notes.txt")          // the name says text
        let unknown = try directory.write("#!/usr/bin/x-nonexistent-interpreter\n# a script for no interpreter uti knows\necho hello\n", to: "run")
        let json = try directory.write("{\"a\": [1, 2, 3], \"b\": {\"c\": null}}\n", to: "data")  // the text reader names it
        let packages = try #require(Self.packages)
        let answers = try identify([named, unknown, json], environment: ["PYTHONPATH": packages, "UTI_MAGIKA": ""])
        #expect(answers.map { $0["identifier"] as? String } == ["public.plain-text", "public.plain-text", "public.json"])
        for answer in answers {
            let content = (answer["evidence"] as? [String: Any])?["content"] as? [String: Any]
            #expect(content?["source"] as? String != "model", "\(answer)")
        }
    }

    @Test("a model directory that is not one is reported, and identification goes on without it")
    func brokenModelIsIgnored() throws {
        let directory = try TemporaryDirectory()
        try directory.write("{\"version_major\": 3, \"protection\": \"none\", \"mid_size\": 0, \"block_size\": 4096", to: "model/config.min.json")
        try directory.write("not a model", to: "model/model.onnx")
        let text = try directory.write("import os\nimport sys\n\nfor name in os.listdir(sys.argv[1]):\n    print(name)\n", to: "tool")
        let answers = try identify([text], environment: ["UTI_MAGIKA_MODEL": directory.file("model"), "UTI_MAGIKA": ""])
        #expect(answers.first?["identifier"] as? String == "public.plain-text")
    }
}
