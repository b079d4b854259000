import Foundation
import TestSupport
import Testing

/// Magika's model, when Python's `magika` and `onnxruntime` packages are installed (the repository's
/// `.build-python` environment, which `.ci/run` makes): asked for text nothing else names, and only then, and
/// only when identification is told to (`--model`, `UTI_MAGIKA=on`). Without the packages these tests are
/// skipped, not failed.
@Suite("Magika's model from the command line")
struct ModelCommandTests {
    /// The package directory holding both, or `nil`.
    static let packages = Tools.magikaPackages

    private func identify(_ paths: [String], model: Bool = true, environment: [String: String]) throws -> [[String: Any]] {
        let result = try UTIBinary.run(["identify", "--json"] + (model ? ["--model"] : []) + ["--"] + paths, environment: environment)
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

        // UTI_MAGIKA=off: as without the model, even when asked.
        let off = try identify([python], environment: ["PYTHONPATH": packages, "UTI_MAGIKA": "off"])
        #expect(off.first?["identifier"] as? String == "public.plain-text")
    }

    @Test("installed is not asked: without --model or UTI_MAGIKA=on the answer is what it is on a machine without the model",
          .enabled(if: packages != nil, "Python's magika and onnxruntime are not installed in .build-python"))
    func modelOnlyWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let python = try directory.write("import os\nimport sys\n\n\ndef main(arguments):\n    for argument in arguments:\n        print(os.path.basename(argument))\n    return 0\n\n\nif __name__ == \"__main__\":\n    sys.exit(main(sys.argv[1:]))\n", to: "tool")
        let packages = try #require(Self.packages)
        let unasked = try identify([python], model: false, environment: ["PYTHONPATH": packages, "UTI_MAGIKA": ""])
        #expect(unasked.first?["identifier"] as? String == "public.plain-text", "\(unasked)")
        let byEnvironment = try identify([python], model: false, environment: ["PYTHONPATH": packages, "UTI_MAGIKA": "on"])
        #expect(byEnvironment.first?["identifier"] as? String == "public.python-script", "\(byEnvironment)")
        // classify asks it the same ways.
        let classified = try UTIBinary.run(["classify", "--format", "ndjson", "--model", directory.path], environment: ["PYTHONPATH": packages, "UTI_MAGIKA": ""])
        #expect(classified.standardOutput.contains("public.python-script"), "\(classified.standardOutput)")
        let unclassified = try UTIBinary.run(["classify", "--format", "ndjson", directory.path], environment: ["PYTHONPATH": packages, "UTI_MAGIKA": ""])
        #expect(unclassified.status == 0 && !unclassified.standardOutput.contains("public.python-script"), "\(unclassified.standardOutput)")
    }

    @Test("uti info says whether the model is installed and whether identification asks it",
          .enabled(if: packages != nil, "Python's magika and onnxruntime are not installed in .build-python"))
    func infoSaysWhetherTheModelIsOn() throws {
        let packages = try #require(Self.packages)
        for (environment, available, on) in [(["PYTHONPATH": packages, "UTI_MAGIKA": ""], true, false),
                                             (["PYTHONPATH": packages, "UTI_MAGIKA": "on"], true, true),
                                             (["UTI_MAGIKA_MODEL": "/nonexistent", "UTI_MAGIKA": "on"], false, true)] {
            let result = try UTIBinary.run(["info", "--json"], environment: environment)
            #expect(result.status == 0, "\(result.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let model = try #require(report["model"] as? [String: Any])
            #expect(model["available"] as? Bool == available && model["on"] as? Bool == on, "\(environment): \(model)")
            #expect(report["libmagic"] != nil && (report["sharedMIMEInfo"] as? [Any])?.isEmpty == false)
            let text = try UTIBinary.run(["info"], environment: environment)
            #expect(text.standardOutput.contains("Magika's model: " + (available ? "available" : "unavailable")), "\(text.standardOutput)")
        }
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
        // uti info says why.
        let info = try UTIBinary.run(["info"], environment: ["UTI_MAGIKA_MODEL": directory.file("model"), "UTI_MAGIKA": "on"])
        #expect(info.standardOutput.contains("Magika's model: unavailable, on") && info.standardOutput.contains(directory.file("model")),
                "\(info.standardOutput)")
        #expect(answers.first?["identifier"] as? String == "public.plain-text")
    }
}
