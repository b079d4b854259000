import Foundation
import Testing
import TestSupport
import FileIdentification
import UniformTypeIdentifiers

/// Identification accuracy on the shared corpora, scored as `Benchmarks/accuracy.py` scores it (which
/// also measures file(1) and GIO beside it): the answer's MIME type against `expected_mime`, freedesktop
/// aliases folded on both sides, MIME parameters dropped; and by any of the answer's names (`mimeTypes`),
/// since the reported one is IANA's where the corpus may expect freedesktop's (Sources/FileIdentification/FileIdentification.docc/IdentifyingFiles.md, "One
/// name per format"). This test keeps the figures in the documentation from sliding back; it is skipped
/// where the corpora are absent (they are not part of the package).
@Suite("Accuracy on the corpora", .enabled(if: Tools.hasCorpora, "needs the shared sample corpora beside the package (../shared/corpora)"))
struct CorpusAccuracyTests {
    static let corpora = Tools.corpora

    /// alias -> canonical, from shared-mime-info 2.2 (Debian 12's), then 2.4 (which wins): the repository's copies.
    static func aliases() -> [String: String] {
        var map: [String: String] = [:]
        for file in ["freedesktop.org-2.2.xml", "freedesktop.org-2.4.xml.in"] {
            guard let text = try? String(contentsOf: Tools.packageRoot.appending(path: "TypeDB/sources/" + file), encoding: .utf8) else { continue }
            var current: String?
            for line in text.split(separator: "\n") {
                if let range = line.range(of: "<mime-type type=\""), let end = line[range.upperBound...].firstIndex(of: "\"") {
                    current = line[range.upperBound..<end].lowercased()
                    // A type of its own in 2.4 is nobody's alias, whatever the older database said.
                    map[line[range.upperBound..<end].lowercased()] = nil
                } else if let range = line.range(of: "<alias type=\""), let end = line[range.upperBound...].firstIndex(of: "\""), let current {
                    map[line[range.upperBound..<end].lowercased()] = current
                }
            }
        }
        return map
    }

    /// The floors, by the reported name, by any name, and by the name reported in the vocabulary the corpus
    /// states its expectations in (`FileIdentifier.Options.mimeNames`): measured with shared-mime-info 2.4
    /// built in; without it, on Debian 12's 2.2 alone.
    static let floors: [String: (reported: Double, anyName: Double, corpusNames: Double)] = FileIdentifier.hasBuiltInSharedMIMEInfo
        ? ["shared-mime-info": (0.98, 0.985, 0.985), "magika": (0.81, 0.85, 0.95), "tika": (0.69, 0.75, 0.75)]
        : ["shared-mime-info": (0.93, 0.94, 0.935), "magika": (0.81, 0.84, 0.95), "tika": (0.68, 0.73, 0.73)]

    /// The vocabulary each corpus states its expectations in.
    static let vocabularies: [String: MIMENames] = ["shared-mime-info": .freedesktop, "magika": .magika, "tika": .tika]

    static func fold(_ mime: String, _ aliases: [String: String]) -> String {
        let bare = mime.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return aliases[bare] ?? bare
    }

    @Test("shared-mime-info, Tika and Magika", arguments: ["shared-mime-info", "magika", "tika"])
    func accuracy(corpus: String) throws {
        let directory = Self.corpora.appending(path: corpus)
        let floor = try #require(Self.floors[corpus])
        let aliases = Self.aliases()
        let identifier = FileIdentifier()
        let text = try String(contentsOf: directory.appending(path: "expected.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        var rows = 0, correct = 0, byAnyName = 0, inCorpusNames = 0
        let vocabulary = try #require(Self.vocabularies[corpus])
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, name) in header.enumerated() where index < fields.count { row[name] = fields[index] }
            guard let path = row["relative_path"], let expected = row["expected_mime"], !expected.isEmpty,
                  (row["xfail_by_name_and_data"] ?? "").isEmpty else { continue }
            rows += 1
            let answer = try? identifier.identify(fileAt: directory.appending(path: path).path)
            let wanted = Self.fold(expected, aliases)
            if let answer, Self.fold(identifier.mimeType(of: answer, in: vocabulary), aliases) == wanted { inCorpusNames += 1 }
            if let answer, Self.fold(answer.mimeType, aliases) == wanted {
                correct += 1
                byAnyName += 1
            } else if let answer, (answer.type.tags[.mimeType] ?? []).contains(where: { Self.fold($0, aliases) == wanted }) {
                byAnyName += 1
            } else if ProcessInfo.processInfo.environment["UTI_PRINT_MISSES"] != nil {
                print("miss\t\(corpus)\t\(path)\t\(expected)\t\(answer?.mimeType ?? "error")")
            }
        }
        let accuracy = Double(correct) / Double(max(rows, 1)), anyName = Double(byAnyName) / Double(max(rows, 1))
        let corpusNames = Double(inCorpusNames) / Double(max(rows, 1))
        print("accuracy on \(corpus): \(correct)/\(rows) = \(String(format: "%.1f", accuracy * 100))%, by any name \(byAnyName) = \(String(format: "%.1f", anyName * 100))%, in \(vocabulary)'s names \(inCorpusNames) = \(String(format: "%.1f", corpusNames * 100))%")
        #expect(rows > 100)
        #expect(accuracy >= floor.reported, "\(corpus): \(correct)/\(rows)")
        #expect(anyName >= floor.anyName, "\(corpus): \(byAnyName)/\(rows) by any name")
        #expect(corpusNames >= floor.corpusNames, "\(corpus): \(inCorpusNames)/\(rows) in \(vocabulary)'s names")
    }
}
