import Foundation
import Testing
import FileIdentification

/// Identification accuracy on the shared corpora, scored as `Benchmarks/accuracy.py` scores it (which
/// also measures file(1) and GIO beside it): the first answer's MIME type against `expected_mime`,
/// freedesktop aliases folded on both sides, MIME parameters dropped. This test keeps the figures in
/// the README from sliding back; it skips with a notice when the corpora are absent.
@Suite("Accuracy on the corpora")
struct CorpusAccuracyTests {
    static let corpora = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/corpora")

    /// alias -> canonical, from the system's database, then shared-mime-info 2.4's source (which wins).
    static func aliases() -> [String: String] {
        var map: [String: String] = [:]
        if let text = try? String(contentsOfFile: "/usr/share/mime/aliases", encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count == 2 { map[fields[0].lowercased()] = fields[1].lowercased() }
            }
        }
        let source = corpora.deletingLastPathComponent().appending(path: "reference/freedesktop.org-2.4.xml.in")
        if let text = try? String(contentsOf: source, encoding: .utf8) {
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

    static func fold(_ mime: String, _ aliases: [String: String]) -> String {
        let bare = mime.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return aliases[bare] ?? bare
    }

    @Test("shared-mime-info, Tika and Magika", arguments: [
        ("shared-mime-info", 0.98), ("magika", 0.81), ("tika", 0.69),
    ])
    func accuracy(corpus: String, floor: Double) throws {
        let directory = Self.corpora.appending(path: corpus)
        guard FileManager.default.fileExists(atPath: directory.appending(path: "expected.tsv").path) else {
            print("notice: \(directory.path) is absent; accuracy not measured")
            return
        }
        let aliases = Self.aliases()
        let identifier = FileIdentifier()
        let text = try String(contentsOf: directory.appending(path: "expected.tsv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        var rows = 0, correct = 0
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, name) in header.enumerated() where index < fields.count { row[name] = fields[index] }
            guard let path = row["relative_path"], let expected = row["expected_mime"], !expected.isEmpty,
                  (row["xfail_by_name_and_data"] ?? "").isEmpty else { continue }
            rows += 1
            let answer = try? identifier.identify(fileAt: directory.appending(path: path).path)
            if let answer, Self.fold(answer.mimeType, aliases) == Self.fold(expected, aliases) {
                correct += 1
            } else if ProcessInfo.processInfo.environment["UTI_PRINT_MISSES"] != nil {
                print("miss\t\(corpus)\t\(path)\t\(expected)\t\(answer?.mimeType ?? "error")")
            }
        }
        let accuracy = Double(correct) / Double(max(rows, 1))
        print("accuracy on \(corpus): \(correct)/\(rows) = \(String(format: "%.1f", accuracy * 100))%")
        #expect(rows > 100)
        #expect(accuracy >= floor, "\(corpus): \(correct)/\(rows)")
    }
}
